// The Documents the shared verbs use: a skeleton, a pack, or both (--skeleton S --pack P).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "animkit/core/mesh.h"
#include "animkit/core/registry.h"
#include "animkit/monster_hunter/pac.h"
#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/pmo.h"
#include "animkit/monster_hunter/playback.h"
#include "animkit/monster_hunter/skeleton.h"
#include "animkit/monster_hunter/tmh.h"

namespace animkit::monster_hunter {

struct DocumentOptions {
  std::optional<Game> game;  // --game: forces the clip encoding of a pack
  float rate = 30;        // --rate: frames per second of the neutral clips (a clip frame is 1/30 s)
  std::optional<int> em;  // --em: the species (entry count, MHP3rd record offset and skip)
  bool strict = false;    // --strict: also EMPTY_TRACK (not a rule of the reference tool)
  // --max-bytes: the most animation data an export may write (issue 11, item 5).
  uint64_t max_bytes = uint64_t{512} << 20;
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
  // MHFU: each part's own clip, with its own end and loop (each part is its own player, so a
  // shorter looping part loops inside the entry); empty for MHP3rd.
  struct Part {
    int id = 0;
    std::vector<int> joints;
    Motion motion;
  };
  std::vector<Part> parts;
  // The frames the entry lasts: its longest part (MHFU), the clip's end (MHP3rd).
  int end() const;
};
// MHFU: one entry's parts (nullopt when no part holds a clip for it).
std::optional<Playable> entry_playable(const Skeleton& skeleton, const AnimPack& pack, int entry);
// MHFU: every entry under the capacity that some part holds; MHP3rd: every distinct clip, named
// by the first id that plays it.
std::vector<Playable> playables(const Skeleton& skeleton, const AnimPack& pack,
                                const DocumentOptions& options);
// The MHP3rd track -> bone map of a clip with `records` tracks.
std::vector<int> record_joints(int records, int bones, std::optional<int> em);
// The MHP3rd playable for one clip id (throws when the slot is empty).
Playable mhp3rd_clip(const Skeleton& skeleton, const AnimPack& pack, int id,
                     const DocumentOptions& options);

// MHFU: why entries are not exported ("entries 100..122 dropped: part 1 has no slot ..."): the
// capacity is capped by the entries every animated part has a slot for. Empty when none are.
std::vector<std::string> dropped_entries(const Skeleton& skeleton, const AnimPack& pack,
                                         const DocumentOptions& options);

// The neutral skeleton export writes: MHP3rd names when present and unique, else bone_NN; the
// bind offsets as rest translations (the bind rotation, zero on monsters, is ignored). Throws on
// a parent after its child (PARENT_ORDER).
animkit::Skeleton neutral_skeleton(const Skeleton& skeleton);

// Skeleton (bind pose) and every playable resampled at options.rate; each MHFU part plays its
// own clip (a shorter looping part loops, a shorter one-shot holds), the entry lasting as long as
// its longest part. Throws animkit::Error before sampling past options.max_bytes.
Animated to_animated(const Skeleton& skeleton, const AnimPack* pack,
                     const DocumentOptions& options);

// A model PAC opened (notes 4, "PAC"): its entries, what each holds, and which entry gave the
// skeleton, the PMO and the anim pack (MHFU: 0, 1 and 3; otherwise the first of each kind).
struct PacView {
  Pac pac;
  std::vector<PacSpan> table;
  std::vector<std::string> kinds;  // pac_entry_kind per entry
  std::optional<int> skeleton_entry, model_entry, pack_entry, texture_entry;
  std::string model_error;  // why the PMO's groups could not be read (its rules then skipped)
  std::string texture_error;  // why the TMH bank could not be read
};

// The game of a pack's clip encoding (monster-hunter.txt, "Animation pack"; notes 4 "Sniff"):
// --game when given, else the first clip's word, else (all slots empty) the skeleton's magic;
// with neither, an error asking for --game. nullopt: the bytes are not a well-formed pack (the
// parser then reports where).
std::optional<Game> pack_game(Bytes pack, std::optional<Game> forced, const Skeleton* skeleton);

// Reads a model PAC's entries: the skeleton, PMO (its groups) and anim pack, with errors at
// their file offsets. `forced` is --game.
struct ModelPac {
  PacView view;
  std::optional<Skeleton> skeleton;
  std::optional<AnimPack> pack;
  std::optional<PmoModel> model;
  std::optional<TmhBank> textures;
};
ModelPac read_model_pac(Bytes bytes, std::optional<Game> forced);

// model.md 6: the PAC's PMO (its model_entry) and TMH bank as neutral meshes skinned to
// `skeleton`. Throws animkit::Error at the PAC's file offset on geometry that cannot be read.
MeshSet model_mesh_set(const PacView& pac, const PmoModel& model, const TmhBank* textures,
                       const Skeleton& skeleton, std::vector<std::string>& notes);

class MonsterDocument : public Document {
 public:
  MonsterDocument(std::optional<Skeleton> skeleton, std::optional<AnimPack> pack,
                  std::optional<Skeleton> species, DocumentOptions options);
  Json info() const override;
  Json dump() const override;
  std::vector<Finding> validate() const override;
  std::string validate_summary(const std::vector<Finding>& findings) const override;
  std::optional<Animated> to_neutral() const override;
  // A model PAC's PMO meshes and TMH images skinned to the skeleton (model.md 6); notes say what
  // was left out. nullopt without a PAC, a skeleton or a readable PMO.
  std::optional<MeshSet> mesh_set(std::vector<std::string>& notes) const override;
  std::vector<ClipCurves> curves() const override;
  std::string finding_line(const Finding& finding) const override;
  bool own_line_form() const override { return true; }

  void set_pac(PacView view) { pac_ = std::move(view); }
  void set_model(std::optional<PmoModel> model) { model_ = std::move(model); }
  void set_textures(std::optional<TmhBank> textures) { textures_ = std::move(textures); }
  const std::optional<PacView>& pac() const { return pac_; }

  const std::optional<Skeleton>& skeleton() const { return skeleton_; }
  const std::optional<AnimPack>& pack() const { return pack_; }

 private:
  std::optional<Skeleton> skeleton_;
  std::optional<AnimPack> pack_;
  std::optional<Skeleton> species_;
  DocumentOptions options_;
  std::optional<PacView> pac_;
  std::optional<PmoModel> model_;
  std::optional<TmhBank> textures_;
};

// notes 1/4: a species' native MHFU model PAC is file_0{em + 6110} (em 75 -> "file_06185").
std::string species_pac_name(int em);
// `name` under `dir`: dir/name, else the first file below dir whose name without extension is it.
std::optional<std::filesystem::path> find_game_file(const std::filesystem::path& dir,
                                                    const std::string& name);

// --template's file: the value itself when it is a file or not a number, else the species EM's
// native model PAC file_0{EM + 6110} found under --data (notes 1).
std::filesystem::path template_file(const std::string& value, const Options& options);

// Reads a file; errors name it.
Skeleton load_skeleton(const std::string& path);
// The pack's game as pack_game decides it (`skeleton` settles an all-empty pack).
AnimPack load_pack(const std::string& path, std::optional<Game> game,
                   const Skeleton* skeleton = nullptr);

// Format::open of mh-skeleton and mh-pack, and Engine::open_set (nullptr when neither --skeleton
// nor --pack is given).
std::unique_ptr<Document> open_skeleton(const std::filesystem::path& path, Bytes bytes,
                                        const Options& options);
std::unique_ptr<Document> open_pack(const std::filesystem::path& path, Bytes bytes,
                                    const Options& options);
// Format::open of mh-pac: a model PAC (notes 4).
std::unique_ptr<Document> open_pac(const std::filesystem::path& path, Bytes bytes,
                                   const Options& options);
std::unique_ptr<Document> open_set(const Options& options);

}  // namespace animkit::monster_hunter
