// The C API over the registry (animkit.h): every entry point catches, so no exception crosses
// into C; results are copied into malloc'd buffers the caller frees with animkit_free().
#include "animkit/c/animkit.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <sstream>

#include "animkit/asherons_call/module.h"
#include "animkit/call_of_duty/module.h"
#include "animkit/core/neutral_json.h"
#include "animkit/gltf/export.h"
#include "animkit/monster_hunter/module.h"
#include "animkit/shadow_of_war/module.h"
#include "animkit/warriors/module.h"

struct animkit_document {
  std::unique_ptr<animkit::Document> document;
  std::string format;
};

struct animkit_player {
  std::vector<std::string> trace;  // one JSON line per update
  size_t next = 0;
  int exit_code = 0;
};

namespace {

using animkit::Json;

thread_local std::string last_error;

// Every format of every engine, registered once (as the command line does, core first).
const animkit::Registry& registry() {
  static const animkit::Registry all = [] {
    animkit::Registry r;
    animkit::register_neutral_format(r);
    animkit::warriors::register_module(r);
    animkit::monster_hunter::register_module(r);
    animkit::call_of_duty::register_module(r);
    animkit::asherons_call::register_module(r);
    animkit::shadow_of_war::register_module(r);
    return r;
  }();
  return all;
}

struct UsageError {
  std::string message;
};

// Runs `body`, turning whatever it throws into a status and the thread's error line.
template <typename Body>
animkit_status guarded(Body&& body) {
  last_error.clear();
  try {
    body();
    return ANIMKIT_OK;
  } catch (const UsageError& e) {
    last_error = e.message;
    return ANIMKIT_ERROR_USAGE;
  } catch (const animkit::Error& e) {
    last_error = e.what();
    return ANIMKIT_ERROR_INPUT;
  } catch (const std::bad_alloc&) {
    last_error = "out of memory";
    return ANIMKIT_ERROR_INTERNAL;
  } catch (const std::exception& e) {
    last_error = e.what();
    return ANIMKIT_ERROR_INTERNAL;
  } catch (...) {
    last_error = "unknown failure";
    return ANIMKIT_ERROR_INTERNAL;
  }
}

void require(const void* pointer, const char* name) {
  if (!pointer) throw UsageError{fmt::format("{} is NULL", name)};
}

// A malloc'd copy the caller releases with animkit_free().
template <typename T>
T* copy_out(const void* data, size_t size, size_t extra) {
  void* buffer = std::malloc(size + extra);
  if (!buffer) throw std::bad_alloc();
  if (size) std::memcpy(buffer, data, size);
  if (extra) std::memset(static_cast<char*>(buffer) + size, 0, extra);
  return static_cast<T*>(buffer);
}

char* copy_text(const std::string& text) { return copy_out<char>(text.data(), text.size(), 1); }

animkit::Options parse_options(const char* options_json) {
  animkit::Options options;
  if (!options_json) return options;
  const Json j = animkit::parse_json(options_json, "options");
  if (!j.is_object()) throw UsageError{"options: expected a JSON object of strings"};
  for (const auto& [key, value] : j.items()) {
    if (!value.is_string()) throw UsageError{fmt::format("options: \"{}\" is not a string", key)};
    options[key] = value.get<std::string>();
  }
  return options;
}

animkit_status open_with(const char* path, const animkit::Options& options, animkit_document** out) {
  return guarded([&] {
    require(path, "path");
    require(out, "out");
    *out = nullptr;
    const animkit::Format* used = nullptr;
    auto document = registry().open(path, options, &used);
    *out = new animkit_document{std::move(document), used ? used->name : std::string()};
  });
}

animkit_status json_of(const animkit_document* document, char** json,
                       Json (*what)(const animkit::Document&)) {
  return guarded([&] {
    require(document, "document");
    require(json, "json");
    *json = nullptr;
    *json = copy_text(what(*document->document).dump());
  });
}

// `validate --json` of one document (tools/animkit/verb_validate.cpp).
Json validation(const animkit::Document& document) {
  int errors = 0, warnings = 0;
  Json findings = Json::array();
  for (const animkit::Finding& f : document.validate()) {
    errors += f.level == animkit::Finding::Level::kError;
    warnings += f.level == animkit::Finding::Level::kWarning;
    findings.push_back({{"level", animkit::to_string(f.level)}, {"code", f.code},
                        {"where", f.where}, {"message", f.message}, {"fix", f.fix}});
  }
  return {{"findings", findings}, {"errors", errors}, {"warnings", warnings}};
}

}  // namespace

extern "C" {

const char* animkit_version(void) { return ANIMKIT_VERSION; }

const char* animkit_last_error(void) { return last_error.c_str(); }

void animkit_free(void* buffer) { std::free(buffer); }

animkit_status animkit_open(const char* path, const char* options_json, animkit_document** out) {
  animkit::Options options;
  const animkit_status parsed = guarded([&] { options = parse_options(options_json); });
  if (parsed != ANIMKIT_OK) return parsed == ANIMKIT_ERROR_INPUT ? ANIMKIT_ERROR_USAGE : parsed;
  return open_with(path, options, out);
}

animkit_status animkit_open_dat_entry(const char* path, uint32_t id, animkit_document** out) {
  // The dat's own format, whatever the file is named (asherons_call/module.cpp: `--id`).
  return open_with(path, {{"format", "ac-dat"}, {"id", fmt::format("0x{:08x}", id)}}, out);
}

void animkit_close(animkit_document* document) { delete document; }

const char* animkit_format(const animkit_document* document) {
  return document ? document->format.c_str() : "";
}

animkit_status animkit_info_json(const animkit_document* document, char** json) {
  return json_of(document, json, [](const animkit::Document& d) { return d.info(); });
}

animkit_status animkit_dump_json(const animkit_document* document, char** json) {
  return json_of(document, json, [](const animkit::Document& d) { return d.dump(); });
}

animkit_status animkit_validate_json(const animkit_document* document, char** json) {
  return json_of(document, json, validation);
}

animkit_status animkit_export_gltf(const animkit_document* document, int binary, uint8_t** data,
                                   size_t* size) {
  return guarded([&] {
    require(document, "document");
    require(data, "data");
    require(size, "size");
    *data = nullptr;
    *size = 0;
    const std::optional<animkit::Animated> animated = document->document->to_neutral();
    if (!animated) throw animkit::Error("the file holds no skeleton or clips to export");
    const animkit::gltf::Document gltf = animkit::gltf::build(*animated);
    if (binary) {
      const std::vector<uint8_t> glb = animkit::gltf::to_glb(gltf);
      *data = copy_out<uint8_t>(glb.data(), glb.size(), 0);
      *size = glb.size();
    } else {
      const std::string text = animkit::gltf::to_gltf_text(gltf);
      *data = copy_out<uint8_t>(text.data(), text.size(), 1);
      *size = text.size();
    }
  });
}

animkit_status animkit_player_open(const char* scenario_json, const char* base_dir,
                                   animkit_player** out) {
  return guarded([&] {
    require(scenario_json, "scenario_json");
    require(out, "out");
    *out = nullptr;
    const Json scenario = animkit::parse_json(scenario_json, "scenario");
    const std::string name = scenario.is_object() ? scenario.value("engine", std::string()) : "";
    const animkit::Engine* engine = registry().engine(name);
    if (!engine || !engine->play) throw animkit::Error(fmt::format("no player for engine '{}'", name));
    animkit::PlayOptions options;
    options.json = true;
    std::ostringstream trace;
    auto player = std::make_unique<animkit_player>();
    player->exit_code = engine->play(scenario, base_dir ? base_dir : ".", options, trace);
    std::istringstream lines(trace.str());
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty()) player->trace.push_back(std::move(line));
    }
    *out = player.release();
  });
}

animkit_status animkit_player_step(animkit_player* player, const char** trace_json) {
  const animkit_status status = guarded([&] {
    require(player, "player");
    require(trace_json, "trace_json");
    *trace_json = nullptr;
  });
  if (status != ANIMKIT_OK) return status;
  if (player->next == player->trace.size()) return ANIMKIT_DONE;
  *trace_json = player->trace[player->next++].c_str();
  return ANIMKIT_OK;
}

int animkit_player_exit_code(const animkit_player* player) { return player ? player->exit_code : 2; }

void animkit_player_close(animkit_player* player) { delete player; }

}  // extern "C"
