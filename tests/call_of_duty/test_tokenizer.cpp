// The shared tokenizer as the tree loader uses it (cod-animtrees-loader.md, "Tokens").
#include <gtest/gtest.h>

#include "animkit/call_of_duty/tokenizer.h"

namespace animkit::call_of_duty {
namespace {

std::vector<std::string> all_tokens(std::string_view text) {
  Tokenizer t(text);
  std::vector<std::string> out;
  for (Token k = t.next(); !k.eof; k = t.next()) out.push_back(k.text);
  return out;
}

TEST(CodTokenizer, RunsOfBytesAboveSpace) {
  EXPECT_EQ(all_tokens("main\n{\n  walk run\n}\n"),
            (std::vector<std::string>{"main", "{", "walk", "run", "}"}));
  // `name:` is one token.
  EXPECT_EQ(all_tokens("aim: loopsync"), (std::vector<std::string>{"aim:", "loopsync"}));
}

TEST(CodTokenizer, CommentsOnlyWhereATokenWouldStart) {
  EXPECT_EQ(all_tokens("a // line\nb /* block\nover lines */ c"),
            (std::vector<std::string>{"a", "b", "c"}));
  // "`walk//x` is one token".
  EXPECT_EQ(all_tokens("walk//x y"), (std::vector<std::string>{"walk//x", "y"}));
  EXPECT_EQ(all_tokens("walk/*x*/ y"), (std::vector<std::string>{"walk/*x*/", "y"}));
  EXPECT_EQ(all_tokens("a /* never closed"), (std::vector<std::string>{"a"}));
}

TEST(CodTokenizer, HighBytesAreWhiteSpace) {
  // Signed char comparison: 0x80-0xFF are <= ' '.
  EXPECT_EQ(all_tokens("walk\xA0run\xFFidle"), (std::vector<std::string>{"walk", "run", "idle"}));
}

TEST(CodTokenizer, DataEndsAtNul) {
  const std::string text("walk\0run", 8);
  EXPECT_EQ(all_tokens(text), (std::vector<std::string>{"walk"}));
}

TEST(CodTokenizer, QuotedTokens) {
  Tokenizer t("\"a b\" \"say \\\"hi\\\"\" \"\"");
  Token k = t.next();
  EXPECT_EQ(k.text, "a b");
  EXPECT_TRUE(k.quoted);
  EXPECT_EQ(t.next().text, "say \"hi\"");
  k = t.next();
  EXPECT_TRUE(k.quoted);
  EXPECT_TRUE(k.empty());
  EXPECT_FALSE(k.eof);
  EXPECT_TRUE(t.next().eof);
}

TEST(CodTokenizer, ParseOnLine) {
  Tokenizer t("aim : loopsync\n{\n");
  EXPECT_EQ(t.next().text, "aim");
  EXPECT_EQ(t.next_on_line().text, ":");
  EXPECT_EQ(t.next_on_line().text, "loopsync");
  Token end = t.next_on_line();
  EXPECT_TRUE(end.empty());
  EXPECT_FALSE(end.eof);
  EXPECT_EQ(t.next().text, "{");
  EXPECT_TRUE(t.next_on_line().eof);
}

TEST(CodTokenizer, LineCommentEndsTheLine) {
  Tokenizer t("walk // the idle\nrun");
  EXPECT_EQ(t.next().text, "walk");
  EXPECT_TRUE(t.next_on_line().empty());
  EXPECT_EQ(t.next().text, "run");
}

TEST(CodTokenizer, BlockCommentOverLinesIsNotTheNewline) {
  // "a /* */ comment that spans lines does not count as that newline".
  Tokenizer t("walk /* one\ntwo */ run\n");
  EXPECT_EQ(t.next().text, "walk");
  Token k = t.next_on_line();
  EXPECT_EQ(k.text, "run");
  EXPECT_EQ(k.offset, 19u);
}

TEST(CodTokenizer, LinesCountNewlinesOnly) {
  const std::string lf = "a\nbb\n  c\n";
  const std::string crlf = "a\r\nbb\r\n  c\r\n";
  LineMap m1(lf), m2(crlf);
  EXPECT_EQ(m1.line(lf.find('c')), 3);
  EXPECT_EQ(m1.column(lf.find('c')), 3);
  EXPECT_EQ(m2.line(crlf.find('c')), 3);
  EXPECT_EQ(m2.column(crlf.find('c')), 3);
  EXPECT_EQ(m1.line(0), 1);
  EXPECT_EQ(m1.column(0), 1);
  EXPECT_EQ(m1.line(lf.size()), 4);  // end of data after the last newline
}

TEST(CodTokenizer, LineCursorAgreesWithLineMap) {
  const std::string text = "main\r\n{\n\n    a : loopsync\n    {\n        x\n    }\n}";
  const LineMap map(text);
  LineCursor cursor(text);
  // Forward, then in a scrambled order (back and forth).
  std::vector<size_t> offsets;
  for (size_t i = 0; i <= text.size(); ++i) offsets.push_back(i);
  for (size_t i = 0; i <= text.size(); ++i) offsets.push_back((i * 17) % (text.size() + 1));
  for (size_t off : offsets) {
    const LineCursor::Place p = cursor.at(off);
    EXPECT_EQ(p.line, map.line(off)) << off;
    EXPECT_EQ(p.column, map.column(off)) << off;
  }
}

TEST(CodTokenizer, Identifiers) {
  EXPECT_TRUE(is_identifier("stand_idle"));
  EXPECT_TRUE(is_identifier("50cal_anims"));  // a leading digit is allowed
  EXPECT_TRUE(is_identifier("Stand_Idle"));
  EXPECT_FALSE(is_identifier("name:"));
  EXPECT_FALSE(is_identifier("a-b"));
  EXPECT_FALSE(is_identifier("a.b"));
  EXPECT_FALSE(is_identifier(""));
  EXPECT_EQ(to_lower("ProneMG42_Fire"), "pronemg42_fire");
}

}  // namespace
}  // namespace animkit::call_of_duty
