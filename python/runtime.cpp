// The core's runtime sampler and blender for Python (issue 34, item 7): animkit.RuntimeClip (a
// clip compiled once, runtime_clip.h) sampled at a batch of times per call through the SoA SIMD
// jobs, and animkit.blend (several runtime clips sampled, blended and optionally taken to model
// space at each time: the core's pipeline). Results are NumPy arrays (times, joints, ...).
// Animated.pose / local_pose stay on SamplingJob: compiling costs more than a bounded batch of
// times saves (animkit/core/README.md, "Where the CLI samples").
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "animkit/core/runtime_clip.h"
#include "animkit/core/soa_jobs.h"
#include "bindings.h"

namespace animkit::python {

namespace {

// A compiled clip and what it needs alive: the model (an exact clip points into its Clip; the
// skeleton is the blend's rest pose and hierarchy) and the rest clip when None was asked for.
struct PyRuntimeClip {
  std::shared_ptr<Animated> model;
  std::unique_ptr<Clip> rest;  // the empty clip of the rest pose (clip=None)
  std::string name;
  std::unique_ptr<RuntimeClip> clip;
};

std::vector<float> times_arg(const py::object& times) {
  if (py::isinstance<py::float_>(times) || py::isinstance<py::int_>(times)) return {times.cast<float>()};
  const auto a = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(times);
  if (!a || a.ndim() != 1) throw py::value_error("times: a number or a 1-D sequence of seconds");
  return std::vector<float>(a.data(), a.data() + a.size());
}

// The (T, N, 3) and (T, N, 4) output arrays and the copy of one SoA pose into row t.
struct Locals {
  Locals(size_t times, size_t joints)
      : n(joints),
        translations({static_cast<py::ssize_t>(times), static_cast<py::ssize_t>(joints), py::ssize_t{3}}),
        rotations({static_cast<py::ssize_t>(times), static_cast<py::ssize_t>(joints), py::ssize_t{4}}),
        scales({static_cast<py::ssize_t>(times), static_cast<py::ssize_t>(joints), py::ssize_t{3}}),
        tp(translations.mutable_data()), rp(rotations.mutable_data()), sp(scales.mutable_data()) {}
  void put(size_t t, const SoaPose& p) {
    for (int c = 0; c < kSoaComponents; ++c) {
      const float* from = p.component(c);
      float* to = c < kQx ? tp + t * n * 3 + c : c < kSx ? rp + t * n * 4 + (c - kQx) : sp + t * n * 3 + (c - kSx);
      const size_t step = c < kQx || c >= kSx ? 3 : 4;
      for (size_t j = 0; j < n; ++j) to[j * step] = from[j];
    }
  }
  size_t n;
  py::array_t<float> translations, rotations, scales;
  float *tp, *rp, *sp;
};

// (T, N, 3) positions and (T, N, 4) rotations of the model-space matrices.
struct Model {
  Model(size_t times, size_t joints)
      : n(joints),
        positions({static_cast<py::ssize_t>(times), static_cast<py::ssize_t>(joints), py::ssize_t{3}}),
        rotations({static_cast<py::ssize_t>(times), static_cast<py::ssize_t>(joints), py::ssize_t{4}}),
        pp(positions.mutable_data()), rp(rotations.mutable_data()) {}
  void put(size_t t, std::span<const Mat4> model) {
    for (size_t j = 0; j < n; ++j) {
      const Vec3 v = model[j].translation();
      const Quat q = rotation_of(model[j]);
      float* p = pp + (t * n + j) * 3;
      float* r = rp + (t * n + j) * 4;
      p[0] = v.x, p[1] = v.y, p[2] = v.z;
      r[0] = q.x, r[1] = q.y, r[2] = q.z, r[3] = q.w;
    }
  }
  size_t n;
  py::array_t<float> positions, rotations;
  float *pp, *rp;
};

py::dict sample(const PyRuntimeClip& rc, const py::object& times_obj) {
  const std::vector<float> times = times_arg(times_obj);
  const size_t n = rc.clip->num_joints();
  Locals out(times.size(), n);
  {
    py::gil_scoped_release release;
    RuntimeCursor cursor;  // one per call: forward reads when the times ascend, seeks otherwise
    SoaPose pose(n);
    for (size_t t = 0; t < times.size(); ++t) {
      SoaSamplingJob{rc.clip.get(), times[t], &cursor, &pose, {}}.run();
      out.put(t, pose);
    }
  }
  py::dict d;
  d["clip"] = text(rc.name);
  d["times"] = py::array_t<float>(static_cast<py::ssize_t>(times.size()), times.data());
  d["translations"] = out.translations;
  d["rotations"] = out.rotations;
  d["scales"] = out.scales;
  return d;
}

py::dict blend(const std::vector<const PyRuntimeClip*>& clips, const py::object& weights_obj,
               const py::object& times_obj, bool model_space, float threshold) {
  if (clips.empty()) throw py::value_error("blend: no clips");
  const std::vector<float> times = times_arg(times_obj);
  const size_t layers = clips.size(), T = times.size();
  const auto w = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(weights_obj);
  if (!w || !((w.ndim() == 1 && static_cast<size_t>(w.shape(0)) == layers) ||
              (w.ndim() == 2 && static_cast<size_t>(w.shape(0)) == layers &&
               static_cast<size_t>(w.shape(1)) == T))) {
    throw py::value_error("blend: weights of shape (clips,) or (clips, times)");
  }
  const bool per_time = w.ndim() == 2;
  const std::vector<float> weights(w.data(), w.data() + w.size());
  const std::shared_ptr<Animated>& model = clips[0]->model;
  for (const PyRuntimeClip* c : clips) {
    if (c->model != model) throw py::value_error("blend: the clips belong to different models");
  }
  const Skeleton& sk = model->skeleton;
  const size_t n = sk.num_joints();
  std::unique_ptr<Locals> locals;
  std::unique_ptr<Model> world;
  if (model_space) {
    world = std::make_unique<Model>(T, n);
  } else {
    locals = std::make_unique<Locals>(T, n);
  }
  {
    py::gil_scoped_release release;
    std::vector<RuntimeCursor> cursors(layers);
    std::vector<SoaPose> poses(layers, SoaPose(n));
    std::vector<SoaBlendingLayer> job_layers(layers);
    SoaPose rest(n), output(n);
    rest.assign(sk.rest);
    std::vector<Mat4> matrices(model_space ? n : 0);
    for (size_t t = 0; t < T; ++t) {
      for (size_t l = 0; l < layers; ++l) {
        SoaSamplingJob{clips[l]->clip.get(), times[t], &cursors[l], &poses[l], {}}.run();
        job_layers[l] = {&poses[l], per_time ? weights[l * T + t] : weights[l], {}};
      }
      SoaBlendingJob job;
      job.layers = job_layers;
      job.rest = &rest;
      job.threshold = threshold;
      job.output = &output;
      if (!job.run()) throw Error("blend: the blending job refused its input");
      if (model_space) {
        SoaLocalToModelJob{&sk, &output, nullptr, matrices}.run();
        world->put(t, matrices);
      } else {
        locals->put(t, output);
      }
    }
  }
  py::dict d;
  d["times"] = py::array_t<float>(static_cast<py::ssize_t>(T), times.data());
  if (model_space) {
    d["positions"] = world->positions;
    d["rotations"] = world->rotations;
  } else {
    d["translations"] = locals->translations;
    d["rotations"] = locals->rotations;
    d["scales"] = locals->scales;
  }
  return d;
}

}  // namespace

void bind_runtime(py::module_& m) {
  py::class_<PyRuntimeClip>(
      m, "RuntimeClip",
      "A clip compiled for playback (the core's RuntimeClip): sampled by the SIMD jobs at a batch\n"
      "of times per call. exact=False: int16 rotations, curves made linear within 5e-5 (the\n"
      "runtime's form); exact=True: bit-identical to Animated.local_pose. Compile once, sample\n"
      "many times: compiling costs about as much as sampling every key once.")
      .def(py::init([](std::shared_ptr<Animated> model, const py::object& clip, bool exact) {
             auto out = std::make_unique<PyRuntimeClip>();
             out->rest = std::make_unique<Clip>(Clip{"(rest)", 0, 30, false,
                                                     std::vector<JointTracks>(model->skeleton.num_joints()), {}});
             const Clip& c = pick_clip(*model, clip, *out->rest);
             out->name = c.name;
             out->model = std::move(model);
             py::gil_scoped_release release;
             out->clip = std::make_unique<RuntimeClip>(
                 c, out->model->skeleton.rest, exact ? RuntimePrecision::kExact : RuntimePrecision::kCompact);
             return out;
           }),
           py::arg("model"), py::arg("clip") = py::none(), py::arg("exact") = false,
           "Compiles a clip of `model` (name, index or Clip; None: the rest pose).")
      .def_property_readonly("name", [](const PyRuntimeClip& c) { return text(c.name); })
      .def_property_readonly("num_joints", [](const PyRuntimeClip& c) { return c.clip->num_joints(); })
      .def_property_readonly("duration", [](const PyRuntimeClip& c) { return c.clip->duration(); })
      .def_property_readonly("exact", [](const PyRuntimeClip& c) { return c.clip->exact(); })
      .def_property_readonly("size_bytes", [](const PyRuntimeClip& c) { return c.clip->size_bytes(); },
                             "The compiled form's size in bytes.")
      .def("sample", &sample, py::arg("times") = 0.0f,
           "The local transforms at each time (seconds): a dict with clip, times (T,),\n"
           "translations (T, joints, 3), rotations (T, joints, 4; x, y, z, w), scales (T, joints, 3).")
      .def("__repr__", [](const PyRuntimeClip& c) {
        return "<animkit.RuntimeClip '" + c.name + "' " + std::to_string(c.clip->num_joints()) + " joints, " +
               (c.clip->exact() ? "exact" : "compact") + ">";
      });
  m.def("blend", &blend, py::arg("clips"), py::arg("weights"), py::arg("times") = 0.0f,
        py::arg("model_space") = false, py::arg("threshold") = 0.1f,
        "Samples each runtime clip (all of one model) at each time, blends them with `weights`\n"
        "((clips,) or (clips, times)), the rest pose making up a total weight below `threshold`\n"
        "(the core's SoaBlendingJob), and with model_space=True takes the result to model space.\n"
        "Returns a dict: times, and translations / rotations / scales (T, joints, ...), or\n"
        "positions (T, joints, 3) and rotations (T, joints, 4) in model space.");
}

}  // namespace animkit::python
