// The `cod-atr` format in the registry: sniffing and the Document (info, dump, validate).
#include <gtest/gtest.h>

#include "animkit/call_of_duty/atr_document.h"
#include "animkit/call_of_duty/module.h"

namespace animkit::call_of_duty {
namespace {

Bytes bytes_of(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(CodDocument, Sniff) {
  EXPECT_TRUE(sniff_atr("a/generic_human.atr", bytes_of("anything")));
  EXPECT_TRUE(sniff_atr("a/GENERIC.ATR", bytes_of("")));
  EXPECT_TRUE(sniff_atr("tree.txt", bytes_of("main\n{\n    idle\n}\n")));
  // Not another engine's file: binary, JSON, a lone word.
  EXPECT_FALSE(sniff_atr("x.bin", bytes_of(std::string("\x01\x02main\0", 7))));
  EXPECT_FALSE(sniff_atr("x.json", bytes_of("{\"a\": 1}\n")));
  EXPECT_FALSE(sniff_atr("x.txt", bytes_of("hello\n")));
  EXPECT_FALSE(sniff_atr("x.txt", bytes_of("")));
}

TEST(CodDocument, RegisteredFormat) {
  Registry reg;
  register_module(reg);
  const Format* f = reg.format("cod-atr");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(reg.detect("animtrees/mg42.atr", bytes_of("fire\n")), f);
}

TEST(CodDocument, InfoDumpValidate) {
  const std::string text = "main\n{\n    idle\n    idle\n    walk x\n}\n";
  auto doc = open_atr("animtrees/soldier.atr", bytes_of(text), {});
  const Json info = doc->info();
  EXPECT_EQ(info["format"], "cod-atr");
  EXPECT_EQ(info["tree"], "soldier");
  EXPECT_EQ(info["loads"], false);
  const std::vector<Finding> findings = doc->validate();
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].where, "animtrees/soldier.atr:4:5");
  EXPECT_EQ(findings[0].message, "duplicate animation");
  EXPECT_EQ(findings[1].where, "animtrees/soldier.atr:5:10");
  EXPECT_EQ(findings[1].message, "FIXME: aliases not yet implemented");
  const Json dump = doc->dump();
  EXPECT_EQ(dump["tree"], "soldier");
  EXPECT_EQ(dump["node_count"], 4);
  EXPECT_EQ(dump["nodes"][1]["name"], "main");
  EXPECT_EQ(dump["diagnostics"][0]["line"], 4);
  // With the scripts' references: the stock pruning.
  auto pruned = open_atr("soldier.atr", bytes_of("main\n{\n    idle\n    walk\n}\n"),
                         {{"cod-refs", "%walk"}});
  EXPECT_EQ(pruned->info()["node_count"], 3);
  EXPECT_TRUE(pruned->validate().empty());
}

}  // namespace
}  // namespace animkit::call_of_duty
