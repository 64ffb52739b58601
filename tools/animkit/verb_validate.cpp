// `animkit validate FILE`: the engine's rules for the file, one line per finding; exit 1 on any
// error.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli.h"
#include "naming_file.h"

namespace animkit::cli {

void add_validate_verb(CLI::App& app, Cli& cli) {
  auto* verb = app.add_subcommand("validate", "check a file against its engine's rules");
  static std::vector<std::string> files;
  static Options options;
  verb->add_option("files", files, "files to check");
  verb->add_flag("--json", cli.json, "one JSON document");
  add_engine_options(*verb, cli, options);
  verb->callback([&cli] {
    int errors = 0, warnings = 0;
    Json all = Json::array();
    std::string text;
    std::string first_file, first_error;  // the error line names the first error (issue 31, item 4)
    const auto docs = open_documents(cli, files, options);
    for (size_t i = 0; i < docs.size(); ++i) {
      const std::string name = i < files.size() ? files[i] : "input";
      const std::vector<Finding> findings = naming_file(files, i, [&] { return docs[i]->validate(); });
      int e = 0, w = 0;
      for (const Finding& f : findings) {
        e += f.level == Finding::Level::kError;
        w += f.level == Finding::Level::kWarning;
        std::string line = docs[i]->finding_line(f);
        if (line.empty()) {
          line = fmt::format("{}: {}", name, to_string(f.level));
          if (!f.code.empty()) line += " " + f.code;
          line += ": ";
          if (!f.where.empty()) line += f.where + ": ";
          line += f.message;
          if (!f.fix.empty()) line += " (fix: " + f.fix + ")";
        }
        text += line + "\n";
        if (f.level == Finding::Level::kError && first_file.empty()) {
          first_file = name;
          first_error = f.where.empty() ? f.message : f.where + ": " + f.message;
        }
        all.push_back({{"file", name}, {"level", to_string(f.level)}, {"code", f.code},
                       {"where", f.where}, {"message", f.message}, {"fix", f.fix}});
      }
      std::string summary = docs[i]->validate_summary(findings);
      if (summary.empty()) summary = fmt::format("{} errors, {} warnings", e, w);
      text += docs[i]->own_line_form() ? summary + "\n" : fmt::format("{}: {}\n", name, summary);
      errors += e;
      warnings += w;
    }
    if (cli.json) {
      cli.out << dump_json(Json{{"findings", all}, {"errors", errors}, {"warnings", warnings}}) << "\n";
    } else {
      cli.out << text;
    }
    if (errors > 0) {  // the file and place of the first error, then the counts
      cli.fail(first_file, fmt::format("{} ({} errors, {} warnings)", first_error, errors, warnings));
    }
  });
}

}  // namespace animkit::cli
