#include "animkit/core/skeleton.h"

#include <gtest/gtest.h>

namespace animkit {
namespace {

Skeleton Tree() {
  Skeleton s;
  s.add_joint("root", -1, {});
  s.add_joint("spine", 0, {});
  s.add_joint("head", 1, {});
  s.add_joint("leg", 0, {});
  s.add_joint("foot", 3, {});
  return s;
}

TEST(Skeleton, WellFormed) {
  const Skeleton s = Tree();
  EXPECT_EQ(s.validate(), "");
  EXPECT_EQ(s.find("head"), 2);
  EXPECT_FALSE(s.find("tail"));
  EXPECT_EQ(s.children(0), (std::vector<int>{1, 3}));
}

TEST(Skeleton, ParentAfterChildIsRejected) {
  Skeleton s = Tree();
  s.parents[1] = 4;
  EXPECT_NE(s.validate().find("parents must come before children"), std::string::npos);
  s.parents[1] = 1;  // itself
  EXPECT_NE(s.validate(), "");
  s.parents[1] = -2;
  EXPECT_NE(s.validate(), "");
}

TEST(Skeleton, SizeMismatchIsRejected) {
  Skeleton s = Tree();
  s.rest.pop_back();
  EXPECT_NE(s.validate(), "");
}

TEST(Skeleton, SubtreeQueries) {
  const Skeleton s = Tree();
  EXPECT_EQ(s.subtree_mask(1), (std::vector<uint8_t>{0, 1, 1, 0, 0}));
  EXPECT_EQ(s.subtree_mask(0), (std::vector<uint8_t>{1, 1, 1, 1, 1}));
  EXPECT_EQ(s.subtree_mask(9), (std::vector<uint8_t>(5, 0)));
  EXPECT_TRUE(s.is_in_subtree(4, 3));
  EXPECT_FALSE(s.is_in_subtree(4, 1));
}

}  // namespace
}  // namespace animkit
