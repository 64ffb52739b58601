#include "animkit/core/registry.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "animkit/core/neutral_json.h"
#include "animkit/core/reader.h"
#include "animkit/core/synthetic.h"

namespace animkit {
namespace {

class RegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // One folder per test and process: ctest runs the tests in parallel.
    dir_ = std::filesystem::temp_directory_path() /
           ("animkit-registry-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    register_neutral_format(registry_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
  Registry registry_;
};

TEST_F(RegistryTest, DetectsAndOpensNeutralJson) {
  const auto path = dir_ / "arm.json";
  write_text(path, to_json(synthetic_arm()).dump());
  const Format* used = nullptr;
  const auto doc = registry_.open(path, {}, &used);
  ASSERT_NE(used, nullptr);
  EXPECT_EQ(used->name, "neutral-json");
  EXPECT_EQ(doc->info()["joints"], 5);
  EXPECT_EQ(doc->to_neutral()->clips.size(), 2u);
}

TEST_F(RegistryTest, UnknownFileAndMissingFileNameTheFile) {
  const auto path = dir_ / "junk.bin";
  write_text(path, "not animation");
  try {
    registry_.open(path, {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), path.string());
  }
  EXPECT_THROW(registry_.open(dir_ / "missing.json", {}), Error);
  EXPECT_THROW(registry_.open(path, {{"format", "no-such-format"}}), Error);
}

TEST_F(RegistryTest, AFileNoSniffAcceptsOpensByItsExtensionForAPreciseError) {
  Registry r;
  Engine e;
  e.name = "test";
  Format f;
  f.name = "test-magic";
  f.sniff = [](const std::filesystem::path&, Bytes head) { return head.size() >= 4 && head[0] == 'M'; };
  f.open = [](const std::filesystem::path&, Bytes bytes, const Options&) -> std::unique_ptr<Document> {
    Reader(bytes).u32();
    throw Error("unreachable in this test");
  };
  f.extensions = {".mag"};
  e.formats.push_back(f);
  r.add(e);
  const auto path = dir_ / "DAMAGED.MAG";
  write_text(path, "M");  // too short for the sniff, too short for the parser
  try {
    r.open(path, {});
    FAIL();
  } catch (const Error& err) {
    EXPECT_STREQ(err.what(), (path.string() + ": offset 0x0: need 4 bytes, 1 left").c_str());
  }
  write_text(dir_ / "other.bin", "M");
  EXPECT_THROW(
      {
        try {
          r.open(dir_ / "other.bin", {});
        } catch (const Error& err) {
          EXPECT_NE(std::string(err.what()).find("not a format animkit recognises"), std::string::npos);
          throw;
        }
      },
      Error);
}

TEST_F(RegistryTest, ParseErrorsCarryFileAndOffset) {
  const auto path = dir_ / "bad.json";
  const std::string text = R"({"animkit": "neutral", "skeleton": {"joints": [}})";
  write_text(path, text);
  try {
    registry_.open(path, {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), path.string());
    ASSERT_TRUE(e.offset());
    EXPECT_EQ(*e.offset(), text.find('}'));  // the byte the parser stopped at
  }
}

}  // namespace
}  // namespace animkit
