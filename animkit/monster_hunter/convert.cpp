#include "animkit/monster_hunter/convert.h"

#include <fmt/format.h>

#include "animkit/monster_hunter/clip_p3rd.h"
#include "animkit/monster_hunter/records.h"

namespace animkit::monster_hunter {

Conversion convert_pack(const AnimPack& pack, Game to) {
  Conversion out;
  out.pack = pack;
  out.pack.game = to;
  if (pack.game == to) return out;
  std::vector<bool> drop(pack.clips.size(), false);
  for (size_t c = 0; c < pack.clips.size(); ++c) {
    const Clip& clip = pack.clips[c];
    if (to == Game::kMhp3rd) {
      if (std::string why = p3rd::check_clip(clip); !why.empty()) {
        drop[c] = true;
        out.report.push_back(fmt::format("clip {} not carried over: {}", c, why));
      }
    } else {
      int scale = 0;
      for (const Track& t : clip.tracks)
        for (const Channel& ch : t.channels) scale += (ch.bit & bits::kScale) != 0;
      if (scale > 0) {
        out.report.push_back(
            fmt::format("clip {}: {} scale channels carried; the MHFU engine crashes "
                        "on them (mh fix drops them)",
                        c, scale));
      }
    }
  }
  for (size_t s = 0; s < out.pack.streams.size(); ++s)
    for (size_t i = 0; i < out.pack.streams[s].size(); ++i) {
      int32_t& c = out.pack.streams[s][i];
      if (c >= 0 && drop[c]) {
        out.report.push_back(fmt::format("stream {} slot {} emptied", s, i));
        c = kNoClip;
      }
    }
  // Clips in first-use order again, unused ones gone.
  std::vector<int32_t> remap(out.pack.clips.size(), -1);
  std::vector<Clip> clips;
  for (auto& slots : out.pack.streams)
    for (int32_t& c : slots) {
      if (c < 0) continue;
      if (remap[c] < 0) {
        remap[c] = static_cast<int32_t>(clips.size());
        clips.push_back(out.pack.clips[c]);
      }
      c = remap[c];
    }
  out.pack.clips = std::move(clips);
  out.report.push_back(
      to == Game::kMhfu
          ? "tracks kept in record order: MHFU plays track i of stream 2k on part k's "
            "i-th joint (re-map with rig_from_records and put)"
          : "tracks kept in part order: MHP3rd maps records from a per-monster offset");
  return out;
}

Clip rig_from_records(const Clip& clip, int bones, std::optional<int> em) {
  Clip out;
  out.loop = clip.loop;
  out.loop_start = clip.loop_start;
  out.tracks.resize(std::max(bones, 0));
  for (const auto& [bone, record] : for_monster(em, static_cast<int>(clip.tracks.size()), bones))
    out.tracks[bone] = clip.tracks[record];
  return out;
}

}  // namespace animkit::monster_hunter
