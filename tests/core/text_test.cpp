#include "animkit/core/text.h"

#include <gtest/gtest.h>

#include "animkit/core/error.h"

namespace animkit {
namespace {

using namespace std::string_literals;

TEST(Printable, ValidUtf8PassesAsItIs) {
  EXPECT_EQ(printable("Bip01 L Hand"), "Bip01 L Hand");
  EXPECT_EQ(printable("\xC3\xA9t\xC3\xA9"), "\xC3\xA9t\xC3\xA9");              // U+00E9 twice
  EXPECT_EQ(printable("\xE2\x82\xAC"), "\xE2\x82\xAC");                        // U+20AC
  EXPECT_EQ(printable("\xF0\x9F\x98\x80"), "\xF0\x9F\x98\x80");                // U+1F600
  EXPECT_EQ(printable("\xF4\x8F\xBF\xBF"), "\xF4\x8F\xBF\xBF");                // U+10FFFF, the last
}

TEST(Printable, InvalidBytesControlsAndBackslashAreEscaped) {
  EXPECT_EQ(printable("a\xFF"), "a\\xff");
  EXPECT_EQ(printable("\x80"), "\\x80");                  // a lone continuation byte
  EXPECT_EQ(printable("\xC3"), "\\xc3");                  // a sequence cut short by the end
  EXPECT_EQ(printable("\xC3z"), "\\xc3z");                // ... or by a non-continuation byte
  EXPECT_EQ(printable("\xC0\xAF"), "\\xc0\\xaf");          // overlong '/'
  EXPECT_EQ(printable("\xE0\x80\xAF"), "\\xe0\\x80\\xaf"); // overlong, 3 bytes
  EXPECT_EQ(printable("\xED\xA0\x80"), "\\xed\\xa0\\x80"); // U+D800, a surrogate
  EXPECT_EQ(printable("\xF4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // U+110000, past the end
  EXPECT_EQ(printable("\xF8\x88\x80\x80\x80"), "\\xf8\\x88\\x80\\x80\\x80");
  EXPECT_EQ(printable("a\0b"s), "a\\x00b");
  EXPECT_EQ(printable("\t\n\x1F\x7F"), "\\x09\\x0a\\x1f\\x7f");
  EXPECT_EQ(printable("C:\\x41"), "C:\\x5cx41");          // the backslash itself: reversible
}

TEST(Printable, RoundTripsEveryByte) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  all += "\xC3\xA9\xE2\x82\xAC\\x\\";
  EXPECT_EQ(from_printable(printable(all)), all);
  const uint8_t bytes[] = {0x41, 0x00, 0xFE};
  EXPECT_EQ(printable(std::span<const uint8_t>(bytes)), "A\\x00\\xfe");
}

// Keep::kAscii (console games' fixed name fields): every byte >= 0x80 escaped, even a valid
// UTF-8 sequence; the rest as kUtf8, and as reversible.
TEST(Printable, AsciiOnlyEscapesEveryHighByte) {
  EXPECT_EQ(printable("Bip01 L Hand", Keep::kAscii), "Bip01 L Hand");
  EXPECT_EQ(printable("\xC3\xA9t\xC3\xA9", Keep::kAscii), "\\xc3\\xa9t\\xc3\\xa9");
  EXPECT_EQ(printable("\x83\x41", Keep::kAscii), "\\x83A");  // Shift-JIS lead byte, then 'A'
  const uint8_t name[] = {'A', 0xE9, '\\', 0x01};
  EXPECT_EQ(printable(std::span<const uint8_t>(name), Keep::kAscii), "A\\xe9\\x5c\\x01");
  EXPECT_EQ(printable("\t\x7F", Keep::kAscii), "\\x09\\x7f");
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  const std::string p = printable(all, Keep::kAscii);
  for (const char c : p) EXPECT_LT(static_cast<unsigned char>(c), 0x80);
  EXPECT_EQ(from_printable(p), all);
}

// Backslash::kKept: paths read as written; everything else escaped as before.
TEST(Printable, BackslashKeptOnRequest) {
  EXPECT_EQ(printable("orc\\anims\\run", Keep::kUtf8, Backslash::kKept), "orc\\anims\\run");
  EXPECT_EQ(printable("a\\\xFF\n", Keep::kUtf8, Backslash::kKept), "a\\\\xff\\x0a");
  EXPECT_EQ(printable("S\0R\\"s, Keep::kAscii, Backslash::kKept), "S\\x00R\\");
  EXPECT_EQ(printable("\xC3\xA9\\", Keep::kAscii, Backslash::kKept), "\\xc3\\xa9\\");
}

TEST(Printable, FromPrintableRejectsABadEscape) {
  EXPECT_EQ(from_printable("\\x4A\\x4a"), "JJ");
  EXPECT_THROW(from_printable("\\"), Error);
  EXPECT_THROW(from_printable("\\x4"), Error);
  EXPECT_THROW(from_printable("\\y41"), Error);
  EXPECT_THROW(from_printable("\\xg1"), Error);
}

TEST(Hex, FormatsAndParses) {
  const uint8_t bytes[] = {0x00, 0x0f, 0xa0, 0xff};
  EXPECT_EQ(to_hex(bytes), "000fa0ff");
  EXPECT_EQ(to_hex({}), "");
  EXPECT_EQ(parse_hex("000FA0ff"), std::vector<uint8_t>(std::begin(bytes), std::end(bytes)));
  EXPECT_EQ(parse_hex("00 0f:a0-ff\n"), std::vector<uint8_t>(std::begin(bytes), std::end(bytes)));
  EXPECT_TRUE(parse_hex("").empty());
  EXPECT_THROW(parse_hex("abc"), Error);
  EXPECT_THROW(parse_hex("zz"), Error);
}

TEST(LineMap, LinesAndColumnsAreOneBased) {
  const LineMap m("ab\ncd\r\n\nx");
  EXPECT_EQ(m.lines(), 4);
  EXPECT_EQ(m.line(0), 1);
  EXPECT_EQ(m.column(0), 1);
  EXPECT_EQ(m.line(2), 1);  // the '\n' ends its own line
  EXPECT_EQ(m.column(2), 3);
  EXPECT_EQ(m.line(3), 2);
  EXPECT_EQ(m.column(4), 2);
  EXPECT_EQ(m.column(5), 3);  // the '\r' of CRLF is a column
  EXPECT_EQ(m.line(7), 3);
  EXPECT_EQ(m.line(8), 4);
  EXPECT_EQ(m.column(8), 1);
  EXPECT_EQ(m.line(100), 4);  // past the end: the last line
  EXPECT_EQ(LineMap("").line(0), 1);
}

}  // namespace
}  // namespace animkit
