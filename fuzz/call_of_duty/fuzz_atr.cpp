// Any bytes -> a loaded tree (with diagnostics), never a crash. The first byte picks the settings
// (com_animCheck, --keep-going, a reference set taken from the text) so every path is reached.
#include <cstddef>
#include <cstdint>
#include <string>

#include "animkit/call_of_duty/loader.h"
#include "animkit/call_of_duty/xanim_queries.h"
#include "animkit/core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit::call_of_duty;
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  LoadOptions o;
  o.tree_name = "fuzz";
  o.anim_check = mode & 1;
  o.keep_going = mode & 2;
  if (mode & 4) {
    // Every other word of the text is referenced.
    std::string word;
    bool take = true;
    for (char c : text) {
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') {
        word += c;
      } else if (!word.empty()) {
        if (take) o.references.push_back({word, "f.gsc", 1, 1, 0});
        take = !take;
        word.clear();
      }
    }
  }
  AssetResolver assets;
  assets.add("a", {true, 1.0f});
  assets.add("b", {false, 2.0f});
  if (mode & 8) o.assets = &assets;
  const LoadResult r = load_anim_tree(text, o);
  if (r.anim) {
    for (int32_t i = 0; i < static_cast<int32_t>(r.anim->entries.size()); ++i) {
      (void)XAnimIsPrimitive(*r.anim, i);
      (void)XAnimHasTime(*r.anim, i);
      (void)XAnimIsLooped(*r.anim, i);
      (void)XAnimGetAnimName(*r.anim, i);
      (void)XAnimGetNumChildren(*r.anim, i);
      try {
        (void)XAnimGetLength(*r.anim, i);
      } catch (const animkit::Error&) {
      }
    }
  }
  return 0;
}
