#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "cli.h"

namespace animkit::cli {

void add_engine_options(CLI::App& verb, Cli& cli, Options& options) {
  verb.add_option_function<std::string>(
      "--format", [&options](const std::string& v) { options["format"] = v; },
      "force a format by name (see `animkit info --formats`)");
  std::set<std::string> seen{"format"};
  for (const Engine& engine : cli.registry.engines()) {
    for (const EngineOption& o : engine.options) {
      if (!seen.insert(o.name).second) continue;
      const std::string name = o.name;
      if (o.flag) {
        verb.add_flag_function(
            "--" + name, [&options, name](int64_t) { options[name] = "1"; }, o.help);
        continue;
      }
      verb.add_option_function<std::string>(
          "--" + name, [&options, name](const std::string& v) { options[name] = v; }, o.help);
    }
  }
}

std::vector<std::unique_ptr<Document>> open_documents(Cli& cli,
                                                      const std::vector<std::string>& files,
                                                      const Options& options) {
  std::vector<std::unique_ptr<Document>> docs;
  for (const std::string& f : files) docs.push_back(cli.registry.open(f, options));
  if (docs.empty()) {
    for (const Engine& engine : cli.registry.engines()) {
      if (!engine.open_set) continue;
      if (auto doc = engine.open_set(options)) {
        docs.push_back(std::move(doc));
        break;
      }
    }
  }
  if (docs.empty()) {  // bad usage (exit 2), not bad input
    throw CLI::ValidationError("input", "name a file, or the files an engine needs (see --help)");
  }
  return docs;
}

Animated merge_neutral(const std::vector<std::unique_ptr<Document>>& documents) {
  std::optional<Animated> merged;
  std::vector<Clip> pending;  // clips seen before the document with the skeleton
  for (const auto& doc : documents) {
    std::optional<Animated> a = doc->to_neutral();
    if (!a) continue;
    if (!merged && a->skeleton.num_joints() > 0) {
      merged = std::move(*a);
      continue;
    }
    for (Clip& c : a->clips) pending.push_back(std::move(c));
    if (merged) {
      for (std::string& n : a->notes) {
        if (std::find(merged->notes.begin(), merged->notes.end(), n) == merged->notes.end()) {
          merged->notes.push_back(std::move(n));
        }
      }
    }
  }
  if (!merged) throw Error("none of the inputs holds a skeleton or animation");
  for (Clip& c : pending) {
    if (c.joints.size() != merged->skeleton.num_joints()) {
      throw Error(fmt::format("clip '{}' has {} joints, the skeleton {}", c.name, c.joints.size(),
                              merged->skeleton.num_joints()));
    }
    merged->clips.push_back(std::move(c));
  }
  return std::move(*merged);
}

}  // namespace animkit::cli
