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
    Json results = Json::array();
    const auto docs = open_documents(cli, files, options);
    for (size_t i = 0; i < docs.size(); ++i) {
      results.push_back(naming_file(files, i, [&] { return docs[i]->dump(); }));
    }
    Json out = results.size() == 1 ? results[0] : results;
    cli.out << (cli.json ? dump_json(out, 1) + "\n" : to_text(out));
  });
}

}  // namespace animkit::cli
