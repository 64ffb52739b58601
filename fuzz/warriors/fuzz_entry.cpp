// Any bytes -> a parsed pack / resource (and its clips, tables, document views) or an
// animkit::Error; never a crash.
#include <cstddef>
#include <cstdint>

#include "animkit/warriors/document.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit::warriors;
  const animkit::Bytes bytes(data, size);
  for (FileKind kind : {FileKind::kPack, FileKind::kCharacter, FileKind::kAnm}) {
    try {
      auto doc = open_document("fuzz", bytes, kind);
      (void)doc->info();
      (void)doc->dump();
      (void)doc->validate();
      (void)doc->to_neutral();
    } catch (const animkit::Error&) {
    }
  }
  (void)sniff_pack(bytes);
  (void)sniff_anm(bytes);
  (void)sniff_character(bytes);
  return 0;
}
