// animkit.monster_hunter: the pose of an MHFU entry or an MHP3rd clip at a frame, as
// `animkit mh sample --json` computes it (EntryPlayer for MHFU, the PoseJob for MHP3rd), with the
// per-joint values as NumPy arrays.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "animkit/monster_hunter/document.h"
#include "animkit/monster_hunter/entries.h"
#include "bindings.h"

namespace animkit::python {

namespace mh = animkit::monster_hunter;

namespace {

py::array_t<float> rows(const std::vector<float>& flat, size_t n, size_t width) {
  py::array_t<float> a({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(width)});
  std::copy(flat.begin(), flat.end(), a.mutable_data());
  return a;
}

}  // namespace

void bind_monster_hunter(py::module_& m) {
  py::module_ sub = m.def_submodule("monster_hunter", "Monster Hunter (MHFU / MHP3rd).");
  sub.def(
      "sample",
      [](const py::object& skeleton_path, const py::object& pack_path, float frame,
         std::optional<int> entry, std::optional<int> clip, const std::string& game,
         const std::vector<int>& parts, std::optional<int> em) {
        const std::string skel_file = path_arg(skeleton_path), pack_file = path_arg(pack_path);
        Json head;
        std::vector<float> euler, quat, trans, pos, rot;
        std::vector<int> parents;
        size_t n = 0;
        {
          py::gil_scoped_release release;
          mh::DocumentOptions o;
          if (!game.empty()) o.game = mh::parse_game(game);
          o.em = em;
          const mh::Skeleton skeleton = mh::load_skeleton(skel_file);
          const mh::AnimPack pack = mh::load_pack(pack_file, o.game);
          n = skeleton.bones.size();
          std::vector<mh::JointPose> local(n);
          std::vector<Mat4> world(n);
          head["game"] = mh::to_string(pack.game);
          if (pack.game == mh::Game::kMhfu) {
            if (!entry) throw Error("MHFU: name the entry with entry=E");
            mh::EntryPlayer player(pack, skeleton, em ? mh::known_entries(*em) : std::nullopt);
            player.play(*entry, parts);
            player.seek(frame);
            player.pose(local, world);
            head["entry"] = *entry;
            head["plays"] = mh::wrap_entry(*entry, player.capacity());
            head["entries"] = player.capacity();
            Json jparts = Json::array();
            for (const auto& [id, joints] : mh::part_joints(skeleton)) {
              const auto cur = player.current(id);
              if (!cur && static_cast<int64_t>(joints.front()) >= skeleton.animated()) continue;
              jparts.push_back({{"part", id},
                                {"joints", joints.size()},
                                {"stream", cur ? Json(cur->stream) : Json(nullptr)},
                                {"slot", cur ? Json(cur->slot) : Json(nullptr)}});
            }
            head["parts"] = jparts;
          } else {
            if (!clip) throw Error("MHP3rd: name the clip with clip=ID (stream * 100 + slot)");
            const mh::Playable p = mh::mhp3rd_clip(skeleton, pack, *clip, o);
            const mh::Rig rig = mh::make_rig(skeleton);
            mh::PoseJob{&rig, &p.motion, mh::clip_frame(p.motion, frame), nullptr, local, world}
                .run();
            head["clip"] = *clip;
            head["frames"] = p.motion.end;
          }
          for (size_t j = 0; j < n; ++j) {
            const Quat q = mh::euler_quat(local[j].euler);
            const Quat r = rotation_of(world[j]);
            const Vec3 p = world[j].translation();
            const Vec3 e = local[j].euler, t = local[j].translation;
            euler.insert(euler.end(), {e.x, e.y, e.z});
            quat.insert(quat.end(), {q.x, q.y, q.z, q.w});
            trans.insert(trans.end(), {t.x, t.y, t.z});
            pos.insert(pos.end(), {p.x, p.y, p.z});
            rot.insert(rot.end(), {r.x, r.y, r.z, r.w});
            parents.push_back(skeleton.bones[j].parent);
          }
        }
        py::object out = from_json(head);
        out["frame"] = frame;
        out["parent"] = py::array_t<int>(static_cast<py::ssize_t>(n), parents.data());
        out["euler"] = rows(euler, n, 3);
        out["quaternion"] = rows(quat, n, 4);
        out["translation"] = rows(trans, n, 3);
        out["position"] = rows(pos, n, 3);
        out["rotation"] = rows(rot, n, 4);
        return out;
      },
      py::arg("skeleton"), py::arg("pack"), py::arg("frame") = 0.0f, py::arg("entry") = py::none(),
      py::arg("clip") = py::none(), py::arg("game") = "", py::arg("parts") = std::vector<int>{},
      py::arg("em") = py::none(),
      "sample(skeleton, pack, frame=0, entry=None, clip=None, game='', parts=[], em=None)\n\n"
      "The pose at a clip frame (30 a second, fractions allowed) of an MHFU entry (entry=,\n"
      "on the given parts, default all) or an MHP3rd clip (clip=stream * 100 + slot), as\n"
      "`animkit mh sample --json`: game, entry / plays / entries / parts or clip / frames, and\n"
      "per joint (rows in bone order): parent, euler, quaternion, translation (local),\n"
      "position and rotation (model space).");
}

}  // namespace animkit::python
