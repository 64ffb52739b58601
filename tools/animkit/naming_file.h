// A helper of the verbs that read documents after opening them (issue 31, item 4).
#pragma once

#include <string>
#include <vector>

#include "animkit/core/error.h"

namespace animkit::cli {

// Runs `read` on the i-th document (a later read of a lazily read file, e.g. an Asheron's Call
// dat); an error it throws names files[i] (issue 31: the error line names the file).
template <class F>
auto naming_file(const std::vector<std::string>& files, size_t i, F read) {
  try {
    return read();
  } catch (const Error& e) {
    throw e.with_file(i < files.size() ? files[i] : std::string());
  }
}

}  // namespace animkit::cli
