// The Documents the shared verbs use: a skeleton, a pack, or both (--skeleton S --pack P).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "animkit/core/registry.h"
#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/playback.h"
#include "animkit/monster_hunter/skeleton.h"

namespace animkit::monster_hunter {

struct DocumentOptions {
  std::optional<Game> game;  // --game: forces the clip encoding of a pack
  float rate = 30;        // --rate: frames per second of the neutral clips (a clip frame is 1/30 s)
  std::optional<int> em;  // --em: the species (entry count, MHP3rd record offset and skip)
};
// Reads game, rate and em from the verbs' options; throws animkit::Error on a bad value.
DocumentOptions document_options(const Options& options);

// One playable clip over the whole rig: an MHFU entry (its rig_clip) or an MHP3rd clip id (its
// records mapped to bones).
struct Playable {
  std::string name;
  int id = 0;  // the entry or the clip id
  Clip clip;   // the whole-rig clip (MHFU) or the stored clip (MHP3rd)
  Motion motion;
};
// MHFU: every entry under the capacity that some part holds; MHP3rd: every distinct clip, named
// by the first id that plays it.
std::vector<Playable> playables(const Skeleton& skeleton, const AnimPack& pack,
                                const DocumentOptions& options);
// The MHP3rd track -> bone map of a clip with `records` tracks.
std::vector<int> record_joints(int records, int bones, std::optional<int> em);
// The MHP3rd playable for one clip id (throws when the slot is empty).
Playable mhp3rd_clip(const Skeleton& skeleton, const AnimPack& pack, int id,
                     const DocumentOptions& options);

// Skeleton (bind pose) and every playable resampled at options.rate.
Animated to_animated(const Skeleton& skeleton, const AnimPack* pack,
                     const DocumentOptions& options);

class MonsterDocument : public Document {
 public:
  MonsterDocument(std::optional<Skeleton> skeleton, std::optional<AnimPack> pack,
                  std::optional<Skeleton> species, DocumentOptions options);
  Json info() const override;
  Json dump() const override;
  std::vector<Finding> validate() const override;
  std::string validate_summary(const std::vector<Finding>& findings) const override;
  std::optional<Animated> to_neutral() const override;
  std::vector<ClipCurves> curves() const override;

  const std::optional<Skeleton>& skeleton() const { return skeleton_; }
  const std::optional<AnimPack>& pack() const { return pack_; }

 private:
  std::optional<Skeleton> skeleton_;
  std::optional<AnimPack> pack_;
  std::optional<Skeleton> species_;
  DocumentOptions options_;
};

// Reads a file; errors name it.
Skeleton load_skeleton(const std::string& path);
AnimPack load_pack(const std::string& path, std::optional<Game> game);

// Format::open of mh-skeleton and mh-pack, and Engine::open_set (nullptr when neither --skeleton
// nor --pack is given).
std::unique_ptr<Document> open_skeleton(const std::filesystem::path& path, Bytes bytes,
                                        const Options& options);
std::unique_ptr<Document> open_pack(const std::filesystem::path& path, Bytes bytes,
                                    const Options& options);
std::unique_ptr<Document> open_set(const Options& options);

}  // namespace animkit::monster_hunter
