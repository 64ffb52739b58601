#include "animkit/call_of_duty/atr_document.h"

#include <fmt/format.h>

#include "animkit/call_of_duty/loader.h"
#include "animkit/call_of_duty/tokenizer.h"
#include "animkit/call_of_duty/tree_output.h"

namespace animkit::call_of_duty {

namespace {

class AtrDocument : public Document {
 public:
  AtrDocument(std::string file, LoadResult result, bool anim_check, size_t refs)
      : file_(std::move(file)), r_(std::move(result)), anim_check_(anim_check), refs_(refs) {}

  Json info() const override {
    size_t leaves = 0, parents = 0;
    if (r_.anim) {
      for (const XAnimEntry& e : r_.anim->entries) (e.leaf ? leaves : parents) += 1;
    }
    Json j{{"format", "cod-atr"},
           {"engine", "call_of_duty"},
           {"file", file_},
           {"tree", r_.tree_name},
           {"com_animCheck", anim_check_ ? 1 : 0},
           {"references", refs_},
           {"loads", r_.loaded()},
           {"node_count", r_.anim ? r_.anim->node_count : 0},
           {"parents", parents > 0 ? parents - 1 : 0},
           {"leaves", leaves},
           {"checksum", r_.anim ? Json(r_.anim->checksum) : Json(nullptr)},
           {"errors", std::count_if(r_.diagnostics.begin(), r_.diagnostics.end(),
                                    [](const Diagnostic& d) { return d.is_error(); })}};
    return j;
  }

  Json dump() const override { return tree_json(r_); }

  std::vector<Finding> validate() const override {
    std::vector<Finding> out;
    for (const Diagnostic& d : r_.diagnostics) {
      Finding f;
      f.level = d.is_error() ? Finding::Level::kError : Finding::Level::kWarning;
      f.where = d.line > 0 ? fmt::format("{}:{}:{}", d.file, d.line, d.column) : d.file;
      f.message = d.message;
      out.push_back(std::move(f));
    }
    return out;
  }

 private:
  std::string file_;
  LoadResult r_;
  bool anim_check_;
  size_t refs_;
};

bool text_only(Bytes b) {
  for (uint8_t c : b) {
    if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t') || c >= 0x7f) return false;
  }
  return true;
}

}  // namespace

std::vector<EngineOption> atr_options() {
  return {{"cod-refs", "CoD .atr: names the scripts reference (a,b,c); default: every node kept"},
          {"cod-anim-check", "CoD .atr: com_animCheck (0 or 1)", EngineOption::Kind::kInteger, 0, 1},
          {"cod-assets", "CoD .atr: folder of xanim assets (existence)"},
          {"cod-manifest", "CoD .atr: JSON manifest of xanim loop and length"}};
}

bool sniff_atr(const std::filesystem::path& path, Bytes head) {
  if (to_lower(path.extension().string()) == ".atr") return true;
  if (head.empty() || !text_only(head)) return false;
  const std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
  ParseOptions o;
  o.anim_check = true;
  const AnimTreeFile f = parse_anim_tree(text, o);
  if (!f.ok()) return false;
  bool parent = false;
  f.for_each_child(f.root(), [&](int32_t c) { parent = parent || !f.nodes[c].is_leaf(); });
  return parent;
}

std::unique_ptr<Document> open_atr(const std::filesystem::path& path, Bytes bytes,
                                   const Options& options) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  LoadOptions o;
  o.tree_name = to_lower(path.stem().string());
  o.file = path.string();
  o.keep_going = true;
  auto refs = options.find("cod-refs");
  if (refs != options.end()) {
    size_t start = 0;
    const std::string& list = refs->second;
    while (start <= list.size()) {
      size_t end = list.find(',', start);
      if (end == std::string::npos) end = list.size();
      std::string name = list.substr(start, end - start);
      if (!name.empty() && name[0] == '%') name.erase(0, 1);
      if (!name.empty()) o.references.push_back({to_lower(name), "--cod-refs", 0, 0, 0});
      start = end + 1;
    }
  }
  o.anim_check = refs == options.end();
  if (auto it = options.find("cod-anim-check"); it != options.end())
    o.anim_check = it->second != "0";
  AssetResolver assets;
  if (auto it = options.find("cod-assets"); it != options.end()) assets.set_directory(it->second);
  if (auto it = options.find("cod-manifest"); it != options.end()) assets.load_manifest(it->second);
  o.assets = &assets;
  LoadResult r = load_anim_tree(text, o);
  return std::make_unique<AtrDocument>(path.string(), std::move(r), o.anim_check,
                                       o.references.size());
}

}  // namespace animkit::call_of_duty
