// The `cod-atr` format of the registry: `animkit info/dump/validate/survey` on .atr files.
#pragma once

#include <filesystem>
#include <memory>

#include "animkit/core/registry.h"

namespace animkit::call_of_duty {

// The engine options the shared verbs pass on: cod-refs (a,b,c), cod-anim-check (0/1),
// cod-assets (folder), cod-manifest (JSON file).
std::vector<EngineOption> atr_options();

// True for a `.atr` file, or for text that parses as a tree with at least one group (the content
// test is strict so it does not claim other engines' files).
bool sniff_atr(const std::filesystem::path& path, Bytes head);

// Opens a tree. Diagnostics do not throw: `validate` lists them as findings. Without cod-refs the
// document is loaded with com_animCheck 1 (every node kept), with --keep-going.
std::unique_ptr<Document> open_atr(const std::filesystem::path& path, Bytes bytes,
                                   const Options& options);

}  // namespace animkit::call_of_duty
