// `animkit dump FILE`: every decoded field (`--json` for the full structure).
#include "cli.h"
#include "naming_file.h"

namespace animkit::cli {

void add_dump_verb(CLI::App& app, Cli& cli) {
  auto* verb = app.add_subcommand("dump", "print every decoded field of a file");
  static std::vector<std::string> files;
  static Options options;
  verb->add_option("files", files, "files to dump");
  verb->add_flag("--json", cli.json, "one JSON document");
  add_engine_options(*verb, cli, options);
  verb->callback([&cli] {
    const auto documents = open_documents(cli, files, options);
    // One document streams its dump where it can (issue 29: a 1 M-event .anix in bounded memory).
    if (documents.size() == 1 &&
        naming_file(files, 0, [&] { return documents[0]->print_dump(cli.out, cli.json); }))
      return;
    Json results = Json::array();
    for (size_t i = 0; i < documents.size(); ++i) {
      results.push_back(naming_file(files, i, [&] { return documents[i]->dump(); }));
    }
    Json out = results.size() == 1 ? results[0] : results;
    cli.out << (cli.json ? dump_json(out, 1) + "\n" : to_text(out));
  });
}

}  // namespace animkit::cli
