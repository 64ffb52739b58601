// The neutral model (DESIGN.md, "The house": Skeleton + Clips) as Python objects whose keys are
// NumPy arrays viewing the C++ vectors: no copy, and the arrays keep the model alive (each
// nested object holds its parent through pybind11's reference_internal).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstddef>

#include "animkit/core/local_to_model_job.h"
#include "animkit/core/neutral_json.h"
#include "animkit/core/sampling_job.h"
#include "animkit/gltf/export.h"
#include "bindings.h"

namespace animkit::python {

namespace {

static_assert(sizeof(Vec3) == 3 * sizeof(float) && sizeof(Quat) == 4 * sizeof(float));
static_assert(sizeof(Transform) == 10 * sizeof(float) && offsetof(Transform, rotation) == 12 &&
              offsetof(Transform, scale) == 28);

// An (n,) or (n, components) float32 view of `count` records of `stride` bytes at `data`.
py::array float_view(void* data, size_t count, size_t components, size_t stride, py::handle base) {
  std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(count)};
  std::vector<py::ssize_t> strides{static_cast<py::ssize_t>(stride)};
  if (components > 1) {
    shape.push_back(static_cast<py::ssize_t>(components));
    strides.push_back(sizeof(float));
  }
  if (count == 0) return py::array_t<float>(shape);  // vector::data() may be null
  return py::array_t<float>(shape, strides, static_cast<float*>(data), base);
}

template <class T>
py::array values_view(std::vector<T>& v, py::handle base) {
  return float_view(v.data(), v.size(), sizeof(T) / sizeof(float), sizeof(T), base);
}

template <class T>
void bind_track(py::module_& m, const char* name, const char* what) {
  using Tr = Track<T>;
  py::class_<Tr>(m, name,
                 (std::string("One channel's keys (") + what +
                  "), structure of arrays. The arrays are float32 views of the library's own "
                  "storage (no copy); editing them edits the model.")
                     .c_str())
      .def_property_readonly(
          "interpolation", [](const Tr& t) { return std::string(to_string(t.interpolation)); },
          "'step', 'linear', 'nlerp', 'slerp' or 'hermite'.")
      .def_property_readonly(
          "times",
          [](py::object self) {
            Tr& t = self.cast<Tr&>();
            return float_view(t.times.data(), t.times.size(), 1, sizeof(float), self);
          },
          "Key times in seconds, ascending: shape (keys,).")
      .def_property_readonly(
          "values", [](py::object self) { return values_view(self.cast<Tr&>().values, self); },
          "Key values: shape (keys, 3) for translation / scale, (keys, 4) x, y, z, w for "
          "rotation.")
      .def_property_readonly(
          "in_slopes", [](py::object self) { return values_view(self.cast<Tr&>().in_slopes, self); },
          "Hermite only: the incoming slope of each key (units per second); else empty.")
      .def_property_readonly(
          "out_slopes",
          [](py::object self) { return values_view(self.cast<Tr&>().out_slopes, self); },
          "Hermite only: the outgoing slope of each key (units per second); else empty.")
      .def("__len__", &Tr::size)
      .def("__repr__", [name](const Tr& t) {
        return "<animkit." + std::string(name) + " " + to_string(t.interpolation) + ", " +
               std::to_string(t.size()) + " keys>";
      });
}

// A list of references to the elements of `items`, each keeping `self` alive.
template <class T>
py::list element_list(std::vector<T>& items, py::handle self) {
  py::list out;
  for (T& item : items) out.append(py::cast(&item, py::return_value_policy::reference_internal, self));
  return out;
}

}  // namespace

const Clip& pick_clip(const Animated& a, const py::object& which, Clip& rest) {
  if (which.is_none()) return rest;
  if (py::isinstance<py::str>(which)) {
    const std::string name = which.cast<std::string>();
    for (const Clip& c : a.clips) {
      if (c.name == name) return c;
    }
    throw py::key_error("no clip named '" + name + "'");
  }
  if (py::isinstance<py::int_>(which)) {
    const auto i = which.cast<py::ssize_t>();
    const auto n = static_cast<py::ssize_t>(a.clips.size());
    if (i < -n || i >= n) throw py::index_error("clip index out of range");
    return a.clips[static_cast<size_t>(i < 0 ? i + n : i)];
  }
  const Clip& c = which.cast<const Clip&>();
  for (const Clip& own : a.clips) {
    if (&own == &c) return c;
  }
  throw py::value_error("the clip belongs to another model");
}

namespace {

// Samples `clip` at each time (SamplingJob), then model space (LocalToModelJob): what
// `animkit pose` computes, as (times, joints, ...) arrays.
py::dict sample_pose(const Animated& a, const py::object& which, const std::vector<float>& times,
                     bool model_space) {
  const Skeleton& sk = a.skeleton;
  const size_t n = sk.num_joints();
  Clip rest{"(rest)", 0, 30, false, std::vector<JointTracks>(n), {}};
  const Clip& clip = pick_clip(a, which, rest);
  if (std::string e = clip.validate(n); !e.empty()) throw Error("clip '" + clip.name + "': " + e);
  const auto T = static_cast<py::ssize_t>(times.size());
  const auto N = static_cast<py::ssize_t>(n);
  py::array_t<float> first({T, N, py::ssize_t{3}}), rot({T, N, py::ssize_t{4}}),
      scale({T, N, py::ssize_t{3}});
  float* p = first.mutable_data();
  float* r = rot.mutable_data();
  float* s = scale.mutable_data();
  {
    py::gil_scoped_release release;
    std::vector<Transform> locals(n);
    std::vector<Mat4> model(n);
    SamplingCursor cursor;
    for (size_t t = 0; t < times.size(); ++t) {
      SamplingJob{&clip, times[t], &cursor, sk.rest, locals, {}}.run();
      if (model_space) LocalToModelJob{&sk, locals, nullptr, model}.run();
      for (size_t j = 0; j < n; ++j) {
        const Vec3 v = model_space ? model[j].translation() : locals[j].translation;
        const Quat q = model_space ? rotation_of(model[j]) : locals[j].rotation;
        const Vec3 sc = locals[j].scale;
        const size_t k = t * n + j;
        p[k * 3 + 0] = v.x, p[k * 3 + 1] = v.y, p[k * 3 + 2] = v.z;
        r[k * 4 + 0] = q.x, r[k * 4 + 1] = q.y, r[k * 4 + 2] = q.z, r[k * 4 + 3] = q.w;
        s[k * 3 + 0] = sc.x, s[k * 3 + 1] = sc.y, s[k * 3 + 2] = sc.z;
      }
    }
  }
  py::dict out;
  out["clip"] = text(clip.name);
  out["times"] = py::array_t<float>(static_cast<py::ssize_t>(times.size()), times.data());
  if (model_space) {
    out["positions"] = first;
    out["rotations"] = rot;
  } else {
    out["translations"] = first;
    out["rotations"] = rot;
    out["scales"] = scale;
  }
  return out;
}

}  // namespace

void bind_animated(py::module_& m) {
  bind_track<Vec3>(m, "Vec3Track", "translation or scale");
  bind_track<Quat>(m, "QuatTrack", "rotation");

  py::class_<Skeleton>(m, "Skeleton",
                       "Joint names, parents (-1 for a root; parents come before children) and "
                       "the rest (bind) local transform of each joint, as views of the library's "
                       "storage.")
      .def_property_readonly(
          "names",
          [](const Skeleton& s) {
            py::list out;
            for (const std::string& n : s.names) out.append(text(n));
            return out;
          },
          "Joint names (a list of str; bytes that are not UTF-8 kept as surrogates).")
      .def_property_readonly(
          "parents",
          [](py::object self) {
            Skeleton& s = self.cast<Skeleton&>();
            if (s.parents.empty()) return py::array(py::array_t<int16_t>(0));
            return py::array(py::array_t<int16_t>(static_cast<py::ssize_t>(s.parents.size()),
                                                  s.parents.data(), self));
          },
          "Parent index of each joint, int16, -1 for a root: shape (joints,).")
      .def_property_readonly(
          "rest_translations",
          [](py::object self) {
            Skeleton& s = self.cast<Skeleton&>();
            return float_view(s.rest.data(), s.rest.size(), 3, sizeof(Transform), self);
          },
          "Rest local translation of each joint: shape (joints, 3).")
      .def_property_readonly(
          "rest_rotations",
          [](py::object self) {
            Skeleton& s = self.cast<Skeleton&>();
            return float_view(reinterpret_cast<char*>(s.rest.data()) + offsetof(Transform, rotation),
                              s.rest.size(), 4, sizeof(Transform), self);
          },
          "Rest local rotation of each joint, x, y, z, w: shape (joints, 4).")
      .def_property_readonly(
          "rest_scales",
          [](py::object self) {
            Skeleton& s = self.cast<Skeleton&>();
            return float_view(reinterpret_cast<char*>(s.rest.data()) + offsetof(Transform, scale),
                              s.rest.size(), 3, sizeof(Transform), self);
          },
          "Rest local scale of each joint: shape (joints, 3).")
      .def("find", &Skeleton::find, py::arg("name"), "The index of the joint named so, or None.")
      .def("__len__", &Skeleton::num_joints)
      .def("__repr__", [](const Skeleton& s) {
        return "<animkit.Skeleton " + std::to_string(s.num_joints()) + " joints>";
      });

  py::class_<JointTracks>(m, "JointTracks",
                          "One joint's tracks in a clip; an empty track holds the rest pose.")
      .def_property_readonly(
          "translation",
          [](py::object self) {
            return py::cast(&self.cast<JointTracks&>().translation,
                            py::return_value_policy::reference_internal, self);
          })
      .def_property_readonly(
          "rotation",
          [](py::object self) {
            return py::cast(&self.cast<JointTracks&>().rotation,
                            py::return_value_policy::reference_internal, self);
          })
      .def_property_readonly("scale", [](py::object self) {
        return py::cast(&self.cast<JointTracks&>().scale,
                        py::return_value_policy::reference_internal, self);
      });

  py::class_<Clip>(m, "Clip", "A neutral clip: per joint, translation / rotation / scale keys.")
      .def_property_readonly("name", [](const Clip& c) { return text(c.name); })
      .def_readonly("duration", &Clip::duration, "Seconds.")
      .def_readonly("frame_rate", &Clip::frame_rate, "The engine's key rate (frames a second).")
      .def_readonly("looping", &Clip::looping)
      .def_property_readonly(
          "joints", [](py::object self) { return element_list(self.cast<Clip&>().joints, self); },
          "One JointTracks per skeleton joint, in skeleton order.")
      .def_property_readonly(
          "events",
          [](const Clip& c) {
            py::list out;
            for (const Event& e : c.events) {
              py::dict d;
              d["time"] = e.time;
              d["name"] = text(e.name);
              d["payload"] = from_json(parse_json(e.payload.empty() ? "{}" : e.payload));
              out.append(d);
            }
            return out;
          },
          "Events: dicts with time (seconds), name and payload (a dict).")
      .def("__repr__", [](const Clip& c) {
        return "<animkit.Clip '" + c.name + "' " + std::to_string(c.duration) + " s, " +
               std::to_string(c.events.size()) + " events>";
      });

  py::class_<Animated, std::shared_ptr<Animated>>(
      m, "Animated",
      "A skeleton and its clips in neutral form (what export and the viewer read), from\n"
      "Document.animated() or Animated.from_json(). Keys are NumPy views of this object.")
      .def_static(
          "from_json",
          [](const py::object& model) {
            const std::string text =
                py::str(py::module_::import("json").attr("dumps")(model)).cast<std::string>();
            return std::make_shared<Animated>(animated_from_json(parse_json(text)));
          },
          py::arg("model"),
          "Builds a model from the neutral JSON form (a dict, as core.json of the demo holds);\n"
          "raises animkit.Error on a wrong shape or an ill-formed model.")
      .def_property_readonly(
          "skeleton",
          [](py::object self) {
            return py::cast(&self.cast<Animated&>().skeleton,
                            py::return_value_policy::reference_internal, self);
          })
      .def_property_readonly(
          "clips", [](py::object self) { return element_list(self.cast<Animated&>().clips, self); },
          "The clips (a list of Clip).")
      .def_readonly("notes", &Animated::notes, "What the engine says about the conversion.")
      .def("clip", [](py::object self, const std::string& name) -> py::object {
            Animated& a = self.cast<Animated&>();
            for (Clip& c : a.clips) {
              if (c.name == name) return py::cast(&c, py::return_value_policy::reference_internal, self);
            }
            throw py::key_error("no clip named '" + name + "'");
          }, py::arg("name"), "The clip named so (KeyError when none is).")
      .def(
          "pose",
          [](const Animated& a, const py::object& clip, const py::object& times) {
            std::vector<float> ts = py::isinstance<py::float_>(times) || py::isinstance<py::int_>(times)
                                        ? std::vector<float>{times.cast<float>()}
                                        : times.cast<std::vector<float>>();
            return sample_pose(a, clip, ts, true);
          },
          py::arg("clip") = py::none(), py::arg("times") = 0.0f,
          "Every joint's model-space pose at the given times (seconds) of a clip (name, index\n"
          "or Clip; None: the rest pose), as `animkit pose` computes it. Returns a dict: clip,\n"
          "times (T,), positions (T, joints, 3), rotations (T, joints, 4; x, y, z, w).")
      .def(
          "local_pose",
          [](const Animated& a, const py::object& clip, const py::object& times) {
            std::vector<float> ts = py::isinstance<py::float_>(times) || py::isinstance<py::int_>(times)
                                        ? std::vector<float>{times.cast<float>()}
                                        : times.cast<std::vector<float>>();
            return sample_pose(a, clip, ts, false);
          },
          py::arg("clip") = py::none(), py::arg("times") = 0.0f,
          "The sampled local transforms (before the hierarchy): a dict with clip, times,\n"
          "translations (T, joints, 3), rotations (T, joints, 4), scales (T, joints, 3).")
      .def(
          "to_json", [](const Animated& a) { return from_json(to_json(a)); },
          "The neutral JSON form (a dict; Animated.from_json reads it back).")
      .def(
          "export",
          [](const Animated& a, const py::object& path, float rate) {
            const std::string p = path_arg(path);
            gltf::ExportOptions eo;
            eo.binary = std::filesystem::path(p).extension() != ".gltf";
            eo.resample_rate = rate;
            py::gil_scoped_release release;
            gltf::write(a, p, eo);
          },
          py::arg("path"), py::arg("rate") = 0.0f,
          "Writes glTF 2.0: .glb, or .gltf with the buffer embedded. `rate` resamples Hermite\n"
          "tracks (0: each clip's frame rate).")
      .def("__repr__", [](const Animated& a) {
        return "<animkit.Animated " + std::to_string(a.skeleton.num_joints()) + " joints, " +
               std::to_string(a.clips.size()) + " clips>";
      });
}

}  // namespace animkit::python
