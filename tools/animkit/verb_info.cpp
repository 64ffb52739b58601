// `animkit info FILE...`: the detected format and a summary; `--formats` lists the formats.
#include "cli.h"
#include "naming_file.h"

namespace animkit::cli {

void add_info_verb(CLI::App& app, Cli& cli) {
  auto* verb = app.add_subcommand("info", "detect the format of each file and summarise it");
  static std::vector<std::string> files;
  static Options options;
  static bool list_formats = false;
  verb->add_option("files", files, "files to look at");
  verb->add_flag("--formats", list_formats, "list every format animkit reads");
  verb->add_flag("--json", cli.json, "machine-readable output");
  add_engine_options(*verb, cli, options);
  verb->callback([&cli] {
    if (list_formats) {
      Json all = Json::array();
      for (const Engine& e : cli.registry.engines()) {
        for (const Format& f : e.formats) {
          all.push_back({{"name", f.name}, {"engine", f.engine}, {"description", f.description}});
        }
      }
      cli.out << (cli.json ? dump_json(all) + "\n" : to_text(all));
      return;
    }
    Json results = Json::array();
    const auto docs = open_documents(cli, files, options);
    for (size_t i = 0; i < docs.size(); ++i) {
      results.push_back(naming_file(files, i, [&] { return docs[i]->info(); }));
    }
    Json out = results.size() == 1 ? results[0] : results;
    cli.out << (cli.json ? dump_json(out) + "\n" : to_text(out));
  });
}

}  // namespace animkit::cli
