#include "animkit/call_of_duty/file_walk.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <utility>

namespace animkit::call_of_duty {

namespace {

using FolderId = std::pair<dev_t, ino_t>;

class Walker {
 public:
  Walker(std::vector<WalkedFile>& out, std::vector<Diagnostic>& diagnostics)
      : out_(out), diagnostics_(diagnostics) {}

  void walk(const std::filesystem::path& dir, const std::filesystem::path& relative) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) return;
    const FolderId id{st.st_dev, st.st_ino};
    if (std::find(chain_.begin(), chain_.end(), id) != chain_.end()) {
      Diagnostic d;
      d.level = Diagnostic::Level::kWarning;
      d.file = dir.string();
      d.message = "symbolic link loop: this folder leads back to one that contains it; not followed";
      diagnostics_.push_back(std::move(d));
      return;
    }
    chain_.push_back(id);
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::filesystem::path& p = it->path();
      std::error_code e2;
      const auto status = std::filesystem::status(p, e2);  // follows links
      if (e2) continue;                                    // a dangling link
      if (std::filesystem::is_directory(status)) {
        walk(p, relative / p.filename());
      } else if (std::filesystem::is_regular_file(status)) {
        out_.push_back({p, relative / p.filename()});
      }
    }
    chain_.pop_back();
  }

 private:
  std::vector<WalkedFile>& out_;
  std::vector<Diagnostic>& diagnostics_;
  std::vector<FolderId> chain_;  // the folders being walked, outermost first
};

}  // namespace

std::vector<WalkedFile> walk_files(const std::filesystem::path& dir,
                                   std::vector<Diagnostic>& diagnostics) {
  std::vector<WalkedFile> out;
  Walker(out, diagnostics).walk(dir, {});
  std::sort(out.begin(), out.end(),
            [](const WalkedFile& a, const WalkedFile& b) { return a.relative < b.relative; });
  return out;
}

}  // namespace animkit::call_of_duty
