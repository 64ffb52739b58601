#include "animkit/core/registry.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "animkit/core/neutral_json.h"
#include "animkit/core/synthetic.h"

namespace animkit {
namespace {

class RegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("animkit-registry-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
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
