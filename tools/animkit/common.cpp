#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
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
      switch (o.kind) {
        case EngineOption::Kind::kFlag:
          verb.add_flag_function(
              "--" + name, [&options, name](int64_t) { options[name] = "1"; }, o.help);
          break;
        case EngineOption::Kind::kText:
          verb.add_option_function<std::string>(
              "--" + name, [&options, name](const std::string& v) { options[name] = v; }, o.help);
          break;
        case EngineOption::Kind::kInteger: {
          // Typed INT, so check_numbers gives it the finite rule of every built-in option (issue
          // 31, item 3); the range follows, as a built-in option's CLI::Range does.
          const int64_t lo = o.min ? static_cast<int64_t>(*o.min) : INT32_MIN;
          const int64_t hi = !o.max ? INT32_MAX
                             : *o.max >= 0x1p63 ? INT64_MAX
                                                : static_cast<int64_t>(*o.max);
          integer_range(
              verb.add_option_function<int64_t>(
                  "--" + name,
                  [&options, name](const int64_t& v) { options[name] = std::to_string(v); },
                  o.help),
              lo, hi);
          break;
        }
        case EngineOption::Kind::kNumber: {
          CLI::Option* added = verb.add_option_function<double>(
              "--" + name,
              [&options, name](const double& v) { options[name] = fmt::format("{}", v); }, o.help);
          if (o.min || o.max) {
            added->check(CLI::Range(o.min.value_or(-DBL_MAX), o.max.value_or(DBL_MAX)));
          }
          break;
        }
      }
    }
  }
}

namespace {

// The finite rule: NaN and +-inf are refused; with `float32`, a value past FLT_MAX too. What is
// not a number at all is left to the conversion, and a finite integer to its conversion and the
// option's range.
CLI::Validator finite_validator(bool float32) {
  return CLI::Validator(
      [float32](std::string& text) -> std::string {
        const char* begin = text.c_str();
        char* end = nullptr;
        const double v = std::strtod(begin, &end);
        if (end == begin || *end != '\0') return {};  // not a number: the conversion reports it
        if (!std::isfinite(v)) return text + " is not a finite number";
        if (float32 && !(std::fabs(v) <= FLT_MAX))
          return fmt::format("{} is not a finite float32", text);
        return {};
      },
      "", "finite");
}

}  // namespace

const CLI::Validator kFiniteFloat = finite_validator(true);
const CLI::Validator kFiniteInteger = finite_validator(false);

CLI::Option* integer_range(CLI::Option* option, int64_t lo, int64_t hi) {
  return option->check(CLI::Range(lo, hi));
}

void check_numbers(CLI::App& app) {
  for (CLI::Option* o : app.get_options()) {
    // The type name is "FLOAT" (or "INT", "UINT"), or "FLOAT:..." when the option has a described
    // check already (a range). transform() puts the finiteness check first, so "inf" is refused
    // as not finite, never by the range check's message.
    const std::string type = o->get_type_name();
    if (type.rfind("FLOAT", 0) == 0) {
      o->transform(kFiniteFloat);
    } else if (type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0) {
      o->transform(kFiniteInteger);
    }
  }
  for (CLI::App* verb : app.get_subcommands({})) check_numbers(*verb);
}

float finite_option_value(double value, const std::string& option) {
  if (!(std::fabs(value) <= FLT_MAX)) {
    throw CLI::ValidationError(option, fmt::format("the value gives {}, not a finite float32", value));
  }
  return static_cast<float>(value);
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

namespace {

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool finite(Quat q) { return finite(Vec3{q.x, q.y, q.z}) && std::isfinite(q.w); }

// A NaN or infinity where the samplers and glTF need a finite number is the file's error
// (issue 31): export, pose, plot and view refuse it rather than write or draw NaN.
void check_finite(const Animated& a, const std::string& file) {
  const Skeleton& sk = a.skeleton;
  for (size_t i = 0; i < sk.rest.size(); ++i) {
    const Transform& t = sk.rest[i];
    if (!finite(t.translation) || !finite(t.rotation) || !finite(t.scale)) {
      throw Error(fmt::format("joint {} ('{}'): the rest pose holds a number that is not finite", i,
                              json_text(sk.names[i])),
                  std::nullopt, file);
    }
  }
  for (const Clip& c : a.clips) {
    if (std::string e = c.validate(c.joints.size()); !e.empty()) {
      throw Error(fmt::format("clip '{}': {}", json_text(c.name), e), std::nullopt, file);
    }
    if (!std::isfinite(c.duration) || !std::isfinite(c.frame_rate)) {
      throw Error(fmt::format("clip '{}': duration or frame rate is not finite", json_text(c.name)),
                  std::nullopt, file);
    }
  }
}

}  // namespace

namespace {

Animated merge_neutral(const std::vector<std::unique_ptr<Document>>& documents,
                       const std::vector<std::string>& files, size_t& skeleton_document) {
  std::optional<Animated> merged;
  std::vector<std::pair<Clip, std::string>> pending;  // clips (and their files) besides the skeleton's
  for (size_t d = 0; d < documents.size(); ++d) {
    const std::string file = d < files.size() ? files[d] : std::string();
    std::optional<Animated> a = [&] {
      try {
        return documents[d]->to_neutral();
      } catch (const Error& e) {  // an error found on a later read names the file too
        throw e.with_file(file);
      }
    }();
    if (!a) continue;
    check_finite(*a, file);
    if (!merged && a->skeleton.num_joints() > 0) {
      merged = std::move(*a);
      skeleton_document = d;
      continue;
    }
    for (Clip& c : a->clips) pending.emplace_back(std::move(c), file);
    if (merged) {
      for (std::string& n : a->notes) {
        if (std::find(merged->notes.begin(), merged->notes.end(), n) == merged->notes.end()) {
          merged->notes.push_back(std::move(n));
        }
      }
    }
  }
  if (!merged) {
    throw Error(files.size() == 1 ? "the file holds no skeleton or animation"
                                  : "none of the inputs holds a skeleton or animation",
                std::nullopt, fmt::format("{}", fmt::join(files, ", ")));
  }
  for (auto& [c, file] : pending) {
    if (c.joints.size() != merged->skeleton.num_joints()) {
      throw Error(fmt::format("clip '{}' has {} joints, the skeleton {}", json_text(c.name),
                              c.joints.size(), merged->skeleton.num_joints()),
                  std::nullopt, file);
    }
    merged->clips.push_back(std::move(c));
  }
  return std::move(*merged);
}

}  // namespace

Animated merge_neutral(const std::vector<std::unique_ptr<Document>>& documents,
                       const std::vector<std::string>& files) {
  size_t skeleton_document = 0;
  return merge_neutral(documents, files, skeleton_document);
}

Animated merge_neutral(const std::vector<std::unique_ptr<Document>>& documents,
                       const std::vector<std::string>& files, std::optional<MeshSet>& meshes) {
  size_t d = 0;
  Animated merged = merge_neutral(documents, files, d);
  try {
    meshes = documents[d]->mesh_set(merged.notes);
  } catch (const Error& e) {
    throw e.with_file(d < files.size() ? files[d] : std::string());
  }
  return merged;
}

}  // namespace animkit::cli
