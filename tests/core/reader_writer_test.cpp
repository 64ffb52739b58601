#include <gtest/gtest.h>

#include <vector>

#include "animkit/core/reader.h"
#include "animkit/core/writer.h"

namespace animkit {
namespace {

TEST(Reader, ReadsLittleEndian) {
  const std::vector<uint8_t> b{0x78, 0x56, 0x34, 0x12, 0xcd, 0xab, 0x00, 0x00, 0x80, 0x3f};
  Reader r(b);
  EXPECT_EQ(r.u32(), 0x12345678u);
  EXPECT_EQ(r.u16(), 0xabcdu);
  EXPECT_EQ(r.f32(), 1.0f);
  EXPECT_TRUE(r.at_end());
}

TEST(Reader, EveryBoundaryReportsOffsetAndShortfall) {
  const std::vector<uint8_t> b(11, 0);
  for (size_t start = 0; start <= b.size(); ++start) {
    Reader r(b, 0x190);
    r.seek(start);
    const size_t left = b.size() - start;
    if (left >= 8) {
      EXPECT_NO_THROW(r.u64());
      continue;
    }
    try {
      r.u64();
      FAIL() << "read past the end at " << start;
    } catch (const Error& e) {
      EXPECT_EQ(*e.offset(), 0x190 + start);
      EXPECT_EQ(e.message(), "need 8 bytes, " + std::to_string(left) + " left");
    }
    EXPECT_EQ(r.pos(), start) << "a failed read must not move the cursor";
  }
}

TEST(Reader, ErrorTextNamesTheOffsetInHex) {
  const std::vector<uint8_t> b(3, 0);
  Reader r(b, 0x1a4);
  try {
    r.u64();
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "offset 0x1a4: need 8 bytes, 3 left");
    EXPECT_STREQ(e.with_file("x.bin").what(), "x.bin: offset 0x1a4: need 8 bytes, 3 left");
  }
}

TEST(Reader, SubReaderKeepsAbsoluteOffsetsAndChecksItsRange) {
  const std::vector<uint8_t> b(16, 0);
  Reader r(b, 0x100);
  Reader s = r.sub(4, 8);
  EXPECT_EQ(s.offset(), 0x104u);
  s.skip(8);
  EXPECT_THROW(s.u8(), Error);
  EXPECT_THROW(r.sub(10, 7), Error);
  EXPECT_THROW(r.sub(17, 0), Error);
  EXPECT_NO_THROW(r.sub(16, 0));
  EXPECT_THROW(r.seek(17), Error);
}

TEST(Reader, Strings) {
  const std::vector<uint8_t> b{'a', 'b', 0, 'z', 'c', 'd', 0, 'e', 'f'};
  Reader r(b);
  EXPECT_EQ(r.fixed_string(4), "ab");
  EXPECT_EQ(r.c_string(), "cd");
  EXPECT_THROW(r.c_string(), Error);  // no terminating NUL
  EXPECT_EQ(r.pos(), 7u);
}

TEST(Writer, MirrorsReader) {
  Writer w;
  w.u32(0xdeadbeef);
  w.i16(-2);
  w.f32(-0.5f);
  w.fixed_string("name", 6);
  w.c_string("x");
  w.align(4);
  const size_t at = w.pos();
  w.u32(0);
  w.patch<uint32_t>(at, 77);
  Reader r(w.bytes());
  EXPECT_EQ(r.u32(), 0xdeadbeefu);
  EXPECT_EQ(r.i16(), -2);
  EXPECT_EQ(r.f32(), -0.5f);
  EXPECT_EQ(r.fixed_string(6), "name");
  EXPECT_EQ(r.c_string(), "x");
  r.seek(at);
  EXPECT_EQ(r.u32(), 77u);
  EXPECT_EQ(w.bytes().size() % 4, 0u);
}

}  // namespace
}  // namespace animkit
