// The format registry: how the command line knows the engines (DESIGN.md, "The house"). Each
// engine module registers its file kinds (a name, a content sniff, an open function returning a
// Document the verbs use), its player for `animkit play`, and its part of `animkit demo`.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "animkit/core/clip.h"
#include "animkit/core/json_util.h"
#include "animkit/core/mesh.h"
#include "animkit/core/reader.h"
#include "animkit/core/skeleton.h"

namespace animkit {

// What `validate` reports: one finding per line.
struct Finding {
  enum class Level { kError, kWarning, kInfo };
  Level level = Level::kError;
  std::string code;      // a short rule code, e.g. "NO_SCALE" (may be empty)
  std::string where;     // e.g. "stream 2 slot 5 track 3 channel 0x040"
  std::string message;
  std::string fix;       // what would repair it (may be empty)
};
const char* to_string(Finding::Level level);

// A skeleton and clips in neutral form: what export, plot and view consume.
struct Animated {
  Skeleton skeleton;
  std::vector<Clip> clips;
  std::vector<std::string> notes;  // said to the user (e.g. "offsets: reference pose, unit bones")
};

// One animated scalar channel as its engine stores and evaluates it (for `animkit plot`): the keys
// as dots, and the curve the engine computes between them (Hermite for Monster Hunter, the key in
// force for The Warriors, ...).
struct Curve {
  std::string joint;    // joint (or bone, part) name
  std::string channel;  // e.g. "rotation.x", "location.y", "quat.w"
  std::string unit;     // e.g. "rad", "m", "" for none
  std::vector<float> key_times;   // seconds
  std::vector<float> key_values;
  std::function<float(float seconds)> evaluate;  // the engine's value at a time
};

struct ClipCurves {
  std::string clip;
  float duration = 0;     // seconds
  float frame_rate = 30;  // for the frame axis
  std::vector<Curve> curves;
  std::vector<Event> events;
};

// An opened file: what the verbs can ask of it.
class Document {
 public:
  virtual ~Document() = default;
  // A short summary (for `info`).
  virtual Json info() const = 0;
  // Every decoded field, by the spec's names (for `dump`).
  virtual Json dump() const = 0;
  // Prints dump() as `dump` does (Json::dump(1) with --json, else to_text) piece by piece, for
  // documents too large to hold as one Json; false when the document has no such printer.
  virtual bool print_dump(std::ostream& /*out*/, bool /*json*/) const { return false; }
  // The engine's rules for this file (for `validate`); empty when all pass.
  virtual std::vector<Finding> validate() const { return {}; }
  // The summary line `validate` prints after the findings; empty for the default
  // ("E errors, W warnings").
  virtual std::string validate_summary(const std::vector<Finding>&) const { return {}; }
  // The line `validate` prints for a finding in an engine's own reference form; empty for the
  // shared form. A document with its own form gets no file name in front of its lines or its
  // summary (`own_line_form`).
  virtual std::string finding_line(const Finding&) const { return {}; }
  virtual bool own_line_form() const { return false; }
  // Skeleton and clips in neutral form, when the document holds animation.
  virtual std::optional<Animated> to_neutral() const { return std::nullopt; }
  // The meshes, materials and images skinned to to_neutral()'s skeleton, when the file holds a
  // model (DESIGN.md, "Meshes join the neutral model"); notes say what was left out.
  virtual std::optional<MeshSet> mesh_set(std::vector<std::string>& /*notes*/) const {
    return std::nullopt;
  }
  // The clips' channels as the engine evaluates them (for `plot`); empty when the engine has
  // nothing more exact than its neutral clips, which `plot` then draws.
  virtual std::vector<ClipCurves> curves() const { return {}; }
};

// Named values the verbs pass through to the engines (`--game mhfu`, `--skeleton S`, ...).
using Options = std::map<std::string, std::string>;

// What `animkit import` hands a format's writer (issue 17): the skeleton and clips read from the
// glTF, the original file the result replaces (`--template`), and the options.
struct ImportRequest {
  Animated source;
  std::filesystem::path template_path;  // empty when --template was not given
  std::string clip;                     // --clip: the animation to write (empty: the format's choice)
  Options options;                      // engine options, plus "tolerance" and "frame-rate" when given
  bool dry_run = false;                 // report only; `bytes` is not written
};

struct ImportResult {
  std::vector<uint8_t> bytes;     // the file in the format's own encoding
  Json report = Json::object();   // e.g. the per-joint maximum error of the quantised result
  std::vector<std::string> notes; // said to the user
};

struct Format {
  std::string name;         // e.g. "warriors-anm"; `--format NAME` forces it
  std::string engine;       // e.g. "warriors"
  std::string description;  // one line
  // True when the file looks like this format (`head` is the whole file, or its first 64 KiB).
  std::function<bool(const std::filesystem::path& path, Bytes head)> sniff;
  // Parses the whole file; throws animkit::Error (with the offset) on bad input.
  std::function<std::unique_ptr<Document>(const std::filesystem::path& path, Bytes bytes,
                                          const Options& options)>
      open;
  // File extensions of this format (".anm"): a file no sniff accepts but named so is opened as
  // this format anyway, so that a damaged file gets the parser's precise error, not "unknown".
  std::vector<std::string> extensions = {};
  // Writes this format from glTF-read animation (`animkit import --as NAME`); empty when the
  // format cannot be written from glTF. Throws animkit::Error when the animation does not fit.
  std::function<ImportResult(const ImportRequest& request)> import_gltf = nullptr;
  // A large container that maps the file itself (Asheron's Call's ac-dat): Registry::open then
  // hands open() only the first 64 KiB (the sniffed head), never the whole file.
  bool maps_file = false;
  // True when `head` is a cut prefix of this format: its identifying fields are there and what
  // can be seen matches, only the rest is missing. Asked only when no format's sniff accepts the
  // file (so a whole file of another format is never taken), so that open() reports the offset
  // where the bytes end rather than "not a format animkit recognises" (issue 31, item 4).
  std::function<bool(const std::filesystem::path& path, Bytes head)> sniff_cut = nullptr;
  // The writer's layout for the import bound (issue 32, item 5; gltf/import_budget.h): the bytes
  // it samples per animated joint per frame of the written clip (0: it keeps the glTF's keys and
  // samples nothing per frame), and the rate it samples at (0: --frame-rate, else the clip's).
  uint32_t import_joint_frame_bytes = 0;
  float import_frame_rate = 0;
};

// An option an engine adds to the shared verbs (info, dump, export, validate, view, plot),
// e.g. {"skeleton", "Monster Hunter skeleton file"}; its value reaches open_set / Format::open.
// A numeric option says so (issue 31, item 3): the command line then parses it with the one
// numeric rule every built-in option follows (NaN, +-inf and out-of-range values are usage errors
// naming the option, exit 2) and hands the engine the checked value as text.
struct EngineOption {
  enum class Kind {
    kText,     // any text (a path, a name, a list)
    kFlag,     // takes no value; given, its value is "1"
    kInteger,  // a whole number in [min, max]; the engine receives it in decimal
    kNumber,   // a finite number in [min, max]; the engine receives it in shortest round-trip form
  };
  std::string name;
  std::string help;
  Kind kind = Kind::kText;
  // The range of a kInteger or kNumber option (inclusive); an integer's bounds default to int32's
  // (the engines read them as int).
  std::optional<double> min = std::nullopt;
  std::optional<double> max = std::nullopt;
};

struct PlayOptions {
  bool json = false;
  int threads = 0;     // 0: the engine's default
  bool pose = false;   // --pose: each update's pose in the trace (engines that trace one)
  bool force = false;  // --force: play clips with error findings
};

// What `animkit demo` hands each engine: where to write and how to report.
struct DemoContext {
  std::filesystem::path out_dir;  // e.g. demo-out/
  std::ostream& out;              // a few lines of what was done
};

struct Engine {
  std::string name;  // the module folder name, e.g. "warriors"; "engine" in a play scenario
  std::vector<Format> formats;
  std::vector<EngineOption> options;
  // Opens a document built from several files named by options (e.g. --skeleton + --pack);
  // returns nullptr when the options do not concern this engine.
  std::function<std::unique_ptr<Document>(const Options& options)> open_set;
  // Runs a scenario (`animkit play`): writes the trace to `out`, returns the exit code; throws
  // animkit::Error on invalid input. `base` is the scenario's folder.
  std::function<int(const Json& scenario, const std::filesystem::path& base,
                    const PlayOptions& options, std::ostream& out)>
      play;
  // This engine's part of `animkit demo`.
  std::function<void(DemoContext& context)> demo;
};

class Registry {
 public:
  void add(Engine engine);
  const std::vector<Engine>& engines() const { return engines_; }
  const Engine* engine(const std::string& name) const;
  const Format* format(const std::string& name) const;
  // The first format whose sniff accepts the file, or nullptr.
  const Format* detect(const std::filesystem::path& path, Bytes head) const;
  // The format that claims the file's extension (lower-cased), or nullptr.
  const Format* by_extension(const std::filesystem::path& path) const;
  // Reads and opens a file: the forced format (options["format"]), else the detected one, else
  // the one that claims the file's extension.
  // Throws animkit::Error naming the file on any failure.
  std::unique_ptr<Document> open(const std::filesystem::path& path, const Options& options,
                                 const Format** used = nullptr) const;

 private:
  // The maps_file format that is forced or that sniffs the file's head, or nullptr.
  const Format* mapping_format(const std::filesystem::path& path, const Options& options) const;
  std::vector<Engine> engines_;
};

// Reads a whole file; throws animkit::Error naming it when it cannot be read.
std::vector<uint8_t> read_file(const std::filesystem::path& path);
// Reads at most the first n bytes of a file.
std::vector<uint8_t> read_head(const std::filesystem::path& path, size_t n);
void write_file(const std::filesystem::path& path, std::span<const uint8_t> bytes);
void write_text(const std::filesystem::path& path, const std::string& text);
// Parses JSON text; throws animkit::Error with the byte offset of a syntax error.
Json parse_json(std::string_view text, const std::string& file = {});

}  // namespace animkit
