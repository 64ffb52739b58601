// The `animkit sow ...` verbs of the shadow_of_war module: the keyword hash of words, the two
// keyword tables, and the events of an .anix with the keywords each clip carries
// (animkit/shadow_of_war/README.md).
#include <fmt/format.h>

#include "animkit/shadow_of_war/anix.h"
#include "animkit/shadow_of_war/anix_events.h"
#include "animkit/shadow_of_war/anix_layout.h"
#include "animkit/shadow_of_war/anix_json.h"
#include "animkit/shadow_of_war/keyword.h"
#include "cli.h"

namespace animkit::cli {

namespace {
using namespace animkit::shadow_of_war;

void add_hash(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("hash", "the keyword hash of each word (hex)");
  static std::vector<std::string> words;
  verb->add_option("words", words, "words to hash (any case gives the same hash)")->required();
  verb->add_flag("--json", cli.json, "one JSON document");
  verb->callback([&cli] {
    Json out = Json::array();
    for (const std::string& w : words) {
      const uint32_t h = keyword_hash(w);
      if (cli.json) {
        out.push_back({{"word", w}, {"hash", fmt::format("{:#010x}", h)}});
      } else {
        cli.out << fmt::format("{:#010x}  {}\n", h, w);
      }
    }
    if (cli.json) cli.out << dump_json(out, 1) << "\n";
  });
}

void add_keywords(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("keywords", "the ragdoll and sync-action keyword tables");
  verb->add_flag("--json", cli.json, "one JSON document");
  verb->callback([&cli] {
    Json out = Json::object();
    auto table = [&](const char* name, std::span<const Keyword> t) {
      Json list = Json::array();
      for (const Keyword& k : t) {
        list.push_back({{"hash", fmt::format("{:#010x}", k.hash)}, {"name", k.name}});
        if (!cli.json) cli.out << fmt::format("{:<12} {:#010x}  {}\n", name, k.hash, k.name);
      }
      out[name] = list;
    };
    table("ragdoll", kRagdollKeywords);
    table("sync_action", kSyncActionKeywords);
    if (cli.json) cli.out << dump_json(out, 1) << "\n";
  });
}

void add_events(CLI::App& group, Cli& cli) {
  auto* verb =
      group.add_subcommand("events", "an .anix's events and the keywords each clip carries");
  static std::string file;
  verb->add_option("file", file, "an .anix file")->required();
  verb->add_flag("--json", cli.json, "one JSON document");
  verb->callback([&cli] {
    const std::vector<uint8_t> bytes = read_file(file);
    try {
      print_events(parse_anix(bytes), cli.out, cli.json);  // clip by clip (anix_events.h)
    } catch (const Error& e) {
      throw e.with_file(file);
    }
  });
}

// `sow build DESC.json -o OUT.anix`: the JSON `dump --json` prints, written back as an .anix.
void add_build(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("build", "write an .anix from the JSON that dump --json prints");
  static std::string desc, output;
  verb->add_option("desc", desc, "DESC.json (dump --json of an .anix, edited or not)")->required();
  verb->add_option("-o,--output", output, "OUT.anix")->required();
  verb->callback([&cli] {
    const std::vector<uint8_t> text = read_file(desc);
    const Json j = parse_json(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()), desc);
    AnixFile f;
    std::vector<uint8_t> bytes;
    try {
      f = anix_from_json(j);
      bytes = write_anix_checked(f);  // the reader's bounds, then validate (anix_layout.h)
    } catch (const Error& e) {
      throw e.with_file(desc);
    }
    write_file(output, bytes);
    cli.out << fmt::format("wrote {} ({} bytes, {} clips)\n", output, bytes.size(),
                           f.anim_chunk.records.size());
  });
}

}  // namespace

void add_shadow_of_war_verbs(CLI::App& app, Cli& cli) {
  auto* group = app.add_subcommand("sow", "Shadow of War: keyword hash, keyword tables, events, build");
  group->require_subcommand(1);
  add_hash(*group, cli);
  add_keywords(*group, cli);
  add_events(*group, cli);
  add_build(*group, cli);
}

}  // namespace animkit::cli
