#include "animkit/call_of_duty/xanim_tree.h"

namespace animkit::call_of_duty {

std::optional<XAnimAsset> XAnimEntry::asset() const {
  if (!has_asset) return std::nullopt;
  XAnimAsset a;
  if (looping_known) a.looping = looping;
  if (length_known) a.length = length;
  return a;
}

void XAnimEntry::set_asset(const std::optional<XAnimAsset>& a) {
  has_asset = a.has_value();
  looping_known = a && a->looping;
  looping = a && a->looping && *a->looping;
  length_known = a && a->length;
  length = a && a->length ? *a->length : 0.0f;
}

namespace {

class Builder {
 public:
  Builder(const AnimTreeFile& file, XAnim& out) : file_(file), out_(out) {}

  // A parent: its own children are numbered first (one contiguous range, newest first, as the
  // parse links them), then each child is visited in that order, a child parent receiving the
  // next free range when it is reached (depth-first). The checksum folds a parent's index, first
  // child, child count and flags, and a leaf's index, in visit order.
  void visit_parent(int32_t source, int32_t index) {
    const AtrNode& n = file_.nodes[source];
    int32_t count = 0;
    file_.for_each_child(n, [&](int32_t) { ++count; });
    const int32_t first = next_;
    next_ += count;
    XAnimEntry& e = out_.entries[index];
    e.first_child = first;
    e.child_count = count;
    e.flags = n.flags;
    out_.checksum = fold(fold(fold(fold(out_.checksum, index), first), count), e.flags);
    int32_t ci = first;
    for (int32_t child = n.last_child; child >= 0; child = file_.nodes[child].prev_sibling, ++ci) {
      const AtrNode& s = file_.nodes[child];
      XAnimEntry& c = out_.entries[ci];
      take(s, c);
      c.parent = index;
      if (s.is_leaf()) {
        c.leaf = true;
        out_.checksum = fold(out_.checksum, ci);
      } else {
        visit_parent(child, ci);
      }
    }
  }

  // What an entry keeps of its parsed node: its name (the parse's names move into the tree)
  // and its place.
  static void take(const AtrNode& s, XAnimEntry& c) {
    c.name_offset = s.name_offset;
    c.name_size = s.name_size;
    c.synthetic = s.synthetic;
    c.line = s.line;
    c.column = s.column;
  }

  int32_t next_ = 1;

 private:
  const AnimTreeFile& file_;
  XAnim& out_;
};

int32_t count_nodes(const AnimTreeFile& file) {
  // Every kept node is reachable from the root. Depth-first without recursion, one cursor per
  // open level (not a stack of every pending child: a flat top level would hold them all).
  int32_t count = 1;
  std::vector<int32_t> cursors{file.nodes[0].last_child};
  while (!cursors.empty()) {
    const int32_t n = cursors.back();
    if (n < 0) {
      cursors.pop_back();
      continue;
    }
    cursors.back() = file.nodes[n].prev_sibling;
    ++count;
    if (!file.nodes[n].is_leaf()) cursors.push_back(file.nodes[n].last_child);
  }
  return count;
}

}  // namespace

XAnim build_xanim(AnimTreeFile&& file, const std::string& name, uint32_t seed) {
  XAnim out;
  out.name = name;
  out.checksum = seed;
  // "The node count is: every kept leaf, plus one for every parent with at least one child, plus
  // one for the root" (the parser removes every parent left without children).
  out.node_count = static_cast<uint32_t>(count_nodes(file));
  out.entries.resize(out.node_count);
  Builder::take(file.nodes[0], out.entries[0]);  // `root`, no place
  Builder b(file, out);
  b.visit_parent(0, 0);
  out.names = std::move(file.names);
  file.names.clear();
  std::vector<AtrNode>().swap(file.nodes);  // freed now, not when the caller lets go of it
  return out;
}

std::vector<int32_t> build_order(const XAnim& a) {
  std::vector<int32_t> order;
  order.reserve(a.entries.size());
  for_each_in_build_order(a, [&](int32_t i) { order.push_back(i); });
  return order;
}

}  // namespace animkit::call_of_duty
