#include "animkit/call_of_duty/xanim_tree.h"

namespace animkit::call_of_duty {

namespace {

class Builder {
 public:
  Builder(const AnimTreeFile& file, XAnim& out) : file_(file), out_(out) {}

  // A parent: its own children are numbered first (one contiguous range, newest first), then
  // each child is visited in that order, a child parent receiving the next free range when it is
  // reached (depth-first). The checksum folds a parent's index, first child, child count and
  // flags, and a leaf's index, in visit order.
  void visit_parent(int source, int32_t index) {
    const AtrNode& n = file_.nodes[source];
    const int32_t count = static_cast<int32_t>(n.children.size());
    const int32_t first = next_;
    next_ += count;
    XAnimEntry& e = out_.entries[index];
    e.first_child = first;
    e.child_count = count;
    e.flags = n.flags;
    out_.visit_order.push_back(index);
    out_.checksum = fold(fold(fold(fold(out_.checksum, index), first), count), e.flags);
    for (int32_t i = 0; i < count; ++i) {
      const int child = n.children[count - 1 - i];  // newest first
      const int32_t ci = first + i;
      XAnimEntry& c = out_.entries[ci];
      c.name = file_.nodes[child].name;
      c.parent = index;
      c.source = child;
      if (file_.nodes[child].is_leaf()) {
        c.leaf = true;
        out_.visit_order.push_back(ci);
        out_.checksum = fold(out_.checksum, ci);
      } else {
        visit_parent(child, ci);
      }
    }
  }

  int32_t next_ = 1;

 private:
  const AnimTreeFile& file_;
  XAnim& out_;
};

int32_t count_nodes(const AnimTreeFile& file) {
  // Every kept node is reachable from the root; iterate without recursion.
  int32_t count = 0;
  std::vector<int> stack{0};
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    ++count;
    for (int c : file.nodes[n].children) stack.push_back(c);
  }
  return count;
}

}  // namespace

XAnim build_xanim(const AnimTreeFile& file, const std::string& name, uint32_t seed) {
  XAnim out;
  out.name = name;
  out.checksum = seed;
  // "The node count is: every kept leaf, plus one for every parent with at least one child, plus
  // one for the root" (the parser removes every parent left without children).
  out.node_count = static_cast<uint32_t>(count_nodes(file));
  out.entries.resize(out.node_count);
  out.entries[0].name = "root";
  out.visit_order.reserve(out.node_count);
  Builder b(file, out);
  b.visit_parent(0, 0);
  return out;
}

}  // namespace animkit::call_of_duty
