// safe_file_name and OutputFolder (issue 30, "Every written file under -o"): hostile names stay
// one plain file name inside the folder; collisions are numbered; symlinks are not followed.
#include "animkit/core/safe_path.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "animkit/core/error.h"

namespace animkit {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(SafeFileName, HostileNamesBecomeOnePlainName) {
  EXPECT_EQ(safe_file_name("x/../../../esc"), "x_.._.._.._esc");
  EXPECT_EQ(safe_file_name(".."), "__");
  EXPECT_EQ(safe_file_name("."), "_");
  EXPECT_EQ(safe_file_name(".hidden"), "_hidden");
  EXPECT_EQ(safe_file_name("/abs"), "_abs");
  EXPECT_EQ(safe_file_name("C:\\x\\y"), "C:_x_y");
  EXPECT_EQ(safe_file_name(std::string("a\x01" "b\x7f" "c\n", 6)), "a_b_c_");
  EXPECT_EQ(safe_file_name(std::string("a\0b", 3)), "a_b");
  EXPECT_EQ(safe_file_name(""), "unnamed");
  EXPECT_EQ(safe_file_name("walk"), "walk");
  EXPECT_EQ(safe_file_name("a.b.c"), "a.b.c");  // inner dots stay
}

TEST(SafeFileName, LongNamesAreCutAtACharacterBoundary) {
  EXPECT_EQ(safe_file_name(std::string(300, 'a')), std::string(kMaxSafeNameBytes, 'a'));
  // 199 'a' then "é" (2 bytes): byte 200 would split it, so the cut falls before it.
  const std::string name = std::string(kMaxSafeNameBytes - 1, 'a') + "\xc3\xa9" + "tail";
  EXPECT_EQ(safe_file_name(name), std::string(kMaxSafeNameBytes - 1, 'a'));
  EXPECT_LE(safe_file_name(std::string(1000, '/')).size(), kMaxSafeNameBytes);
}

class OutputFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("animkit-safe-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(OutputFolderTest, ClaimsNumberCollisionsWithoutCase) {
  OutputFolder out(dir_ / "out" / "deep");  // made when missing
  EXPECT_TRUE(fs::is_directory(dir_ / "out" / "deep"));
  EXPECT_EQ(out.claim("walk", ".anm"), "walk.anm");
  EXPECT_EQ(out.claim("walk", ".anm"), "walk-2.anm");
  EXPECT_EQ(out.claim("WALK", ".anm"), "WALK-3.anm");
  EXPECT_EQ(out.claim("walk", ".res"), "walk.res");
  EXPECT_EQ(out.claim("..", ".anm"), "__.anm");
  EXPECT_EQ(out.claim("x/../../../esc", ".anm"), "x_.._.._.._esc.anm");
  EXPECT_EQ(out.claim(std::string(300, 'n'), ".anm"), std::string(kMaxSafeNameBytes, 'n') + ".anm");
  EXPECT_EQ(out.claim(std::string(301, 'n'), ".anm"),
            std::string(kMaxSafeNameBytes, 'n') + "-2.anm");
}

TEST_F(OutputFolderTest, WritesOnlyPlainNamesInside) {
  OutputFolder out(dir_ / "out");
  out.write("a.bin", bytes_of("abc"));
  EXPECT_EQ(slurp(dir_ / "out" / "a.bin"), "abc");
  out.write("a.bin", bytes_of("x"));  // rewritten, not appended
  EXPECT_EQ(slurp(dir_ / "out" / "a.bin"), "x");
  for (const std::string name : {"../esc.bin", "x/y.bin", "/abs.bin", "..", ".", ""}) {
    EXPECT_THROW(out.write(name, bytes_of("no")), Error) << name;
  }
  EXPECT_FALSE(fs::exists(dir_ / "esc.bin"));
  EXPECT_FALSE(fs::exists("/abs.bin"));
}

TEST_F(OutputFolderTest, RefusesToWriteThroughASymlinkOrIntoAFifo) {
  OutputFolder out(dir_ / "out");
  std::ofstream(dir_ / "victim.txt") << "keep";
  fs::create_symlink(dir_ / "victim.txt", dir_ / "out" / "link.anm");
  fs::create_symlink(dir_ / "missing.txt", dir_ / "out" / "dangling.anm");
  try {
    out.write("link.anm", bytes_of("overwritten"));
    FAIL() << "wrote through a symlink";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("symlink"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("link.anm"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(dir_ / "victim.txt"), "keep");
  EXPECT_THROW(out.write("dangling.anm", bytes_of("made")), Error);
  EXPECT_FALSE(fs::exists(dir_ / "missing.txt"));
  ASSERT_EQ(::mkfifo((dir_ / "out" / "fifo.anm").c_str(), 0600), 0);
  EXPECT_THROW(out.write("fifo.anm", bytes_of("blocked?")), Error);  // refused, never waits
  fs::create_directory(dir_ / "out" / "sub.anm");
  EXPECT_THROW(out.write("sub.anm", bytes_of("x")), Error);
}

TEST_F(OutputFolderTest, AFileWhereTheFolderShouldBeIsAnError) {
  std::ofstream(dir_ / "plain") << "x";
  EXPECT_THROW(OutputFolder(dir_ / "plain"), Error);
}

}  // namespace
}  // namespace animkit
