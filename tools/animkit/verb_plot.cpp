// `animkit plot FILE [--clip NAME] [--joint NAME] -o out.svg` (issue 8): one panel per animated
// channel of the chosen joints: the keys as dots, the curve as the engine evaluates it between
// them (Document::curves() when the engine provides it, else the neutral clip's tracks through
// the core's sampling), the time axis in seconds (below) and frames (above), events as markers.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "animkit/core/sampling_job.h"
#include "cli.h"
#include "svg.h"

namespace animkit::cli {

namespace {

// The neutral clip's tracks as curves: one per component of each non-empty track.
ClipCurves neutral_curves(const Skeleton& sk, const Clip& clip) {
  ClipCurves out;
  out.clip = clip.name;
  out.duration = clip.duration;
  out.frame_rate = clip.frame_rate;
  out.events = clip.events;
  static const char* kAxes[] = {"x", "y", "z", "w"};
  auto add_vec3 = [&](const std::string& joint, const char* what, const Track<Vec3>* track) {
    if (track->empty()) return;
    for (int c = 0; c < 3; ++c) {
      Curve curve{joint,
                  fmt::format("{}.{}", what, kAxes[c]),
                  to_string(track->interpolation),
                  track->times,
                  {},
                  {}};
      auto pick = [c](Vec3 v) { return c == 0 ? v.x : c == 1 ? v.y : v.z; };
      for (const Vec3& v : track->values) curve.key_values.push_back(pick(v));
      curve.evaluate = [track, pick](float t) {
        return pick(evaluate(*track, t, find_key(track->times, t, 0)));
      };
      out.curves.push_back(std::move(curve));
    }
  };
  for (size_t j = 0; j < clip.joints.size() && j < sk.num_joints(); ++j) {
    const JointTracks& jt = clip.joints[j];
    add_vec3(sk.names[j], "translation", &jt.translation);
    if (!jt.rotation.empty()) {
      const Track<Quat>* track = &jt.rotation;
      for (int c = 0; c < 4; ++c) {
        Curve curve{sk.names[j],
                    fmt::format("rotation.{}", kAxes[c]),
                    fmt::format("quat, {}", to_string(track->interpolation)),
                    track->times,
                    {},
                    {}};
        auto pick = [c](Quat q) { return c == 0 ? q.x : c == 1 ? q.y : c == 2 ? q.z : q.w; };
        for (const Quat& q : track->values) curve.key_values.push_back(pick(q));
        curve.evaluate = [track, pick](float t) {
          return pick(evaluate(*track, t, find_key(track->times, t, 0)));
        };
        out.curves.push_back(std::move(curve));
      }
    }
    add_vec3(sk.names[j], "scale", &jt.scale);
  }
  return out;
}

// A round step (1, 2 or 5 times a power of ten) giving about `count` intervals over `range`.
double nice_step(double range, int count) {
  if (!(range > 0)) return 1;
  const double raw = range / count;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0}) {
    if (m * p >= raw) return m * p;
  }
  return 10 * p;
}

std::string number(double v) {
  if (std::abs(v) < 1e-12) return "0";
  std::string s = fmt::format("{:.4g}", v);
  return s;
}

constexpr double kPanelW = 380, kPanelH = 150;                      // one panel, axes included
constexpr double kLeft = 58, kRight = 12, kTop = 34, kBottom = 30;  // axes inside a panel
constexpr int kColumns = 3;
constexpr double kMargin = 16, kJointHeader = 26;

const char* kCss =
    "text{font:11px sans-serif;fill:#333}.title{font:bold 15px sans-serif}"
    ".joint{font:bold 13px sans-serif}.chan{font:bold 11px sans-serif}.dim{fill:#888}"
    ".ev{fill:#c0392b}.frame{fill:none;stroke:#bbb}.grid{stroke:#eee}.zero{stroke:#ccc}"
    ".curve{fill:none;stroke:#1f6fb2;stroke-width:1.5}.key{fill:#222}"
    ".event{stroke:#c0392b;stroke-dasharray:4 3}";

// The curve's value at a time: the engine's evaluation, or (when a module gave none) the key in
// force.
double value_at(const Curve& c, float t) {
  if (c.evaluate) return c.evaluate(t);
  if (c.key_values.empty()) return NAN;
  size_t k = 0;
  while (k + 1 < c.key_times.size() && k + 1 < c.key_values.size() && c.key_times[k + 1] <= t) ++k;
  return c.key_values[k];
}

struct Panel {
  const Curve* curve;
  double x, y;
};

void draw_panel(Svg& svg, const Panel& p, const ClipCurves& cc, double t_end) {
  const Curve& c = *p.curve;
  const double x0 = p.x + kLeft, x1 = p.x + kPanelW - kRight;
  const double y0 = p.y + kTop, y1 = p.y + kPanelH - kBottom;
  // The curve: two samples per pixel, plus each key time and the instant before it (so steps
  // show as steps).
  std::vector<double> times;
  const int n = static_cast<int>((x1 - x0) * 2);
  for (int i = 0; i <= n; ++i) times.push_back(t_end * i / n);
  for (const float k : c.key_times) {
    if (k < 0 || k > t_end) continue;
    times.push_back(k);
    times.push_back(std::max(0.0, k - t_end * 1e-5));
  }
  std::sort(times.begin(), times.end());
  std::vector<double> values;
  double lo = INFINITY, hi = -INFINITY;
  for (const double t : times) {
    const double v = value_at(c, static_cast<float>(t));
    values.push_back(v);
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  }
  for (const float v : c.key_values) {
    if (std::isfinite(v)) lo = std::min<double>(lo, v), hi = std::max<double>(hi, v);
  }
  if (!(lo <= hi)) lo = -1, hi = 1;
  if (hi - lo < 1e-9) lo -= 1, hi += 1;
  const double pad = (hi - lo) * 0.08;
  lo -= pad, hi += pad;
  auto X = [&](double t) { return x0 + (x1 - x0) * t / t_end; };
  auto Y = [&](double v) { return y1 - (y1 - y0) * (v - lo) / (hi - lo); };

  svg.rect(x0, y0, x1 - x0, y1 - y0, "frame");
  const std::string title = c.unit.empty() ? c.channel : fmt::format("{} ({})", c.channel, c.unit);
  svg.text(p.x + 4, p.y + 12, title, "chan");
  // Value axis: round steps, labelled on the left.
  const double vs = nice_step(hi - lo, 4);
  for (double v = std::ceil(lo / vs) * vs; v <= hi; v += vs) {
    svg.line(x0, Y(v), x1, Y(v), std::abs(v) < vs * 1e-6 ? "zero" : "grid");
    svg.text(x0 - 4, Y(v) + 4, number(std::abs(v) < vs * 1e-6 ? 0 : v), "", "end");
  }
  // Time axis: seconds below, frames above.
  const double ts = nice_step(t_end, 5);
  for (double t = 0; t <= t_end * (1 + 1e-9); t += ts) {
    svg.line(X(t), y1, X(t), y1 + 4, "frame");
    svg.text(X(t), y1 + 15, number(t), "", "middle");
  }
  svg.text(x1, y1 + 27, "s", "dim", "end");
  if (cc.frame_rate > 0 && std::isfinite(cc.frame_rate)) {
    const double frames = t_end * cc.frame_rate;
    const double fs = std::max(1.0, nice_step(frames, 5));
    for (double f = 0; f <= frames * (1 + 1e-9); f += fs) {
      const double t = f / cc.frame_rate;
      svg.line(X(t), y0 - 3, X(t), y0, "frame");
      svg.text(X(t), y0 - 5, number(f), "dim", "middle");
    }
    svg.text(x1, p.y + 12, fmt::format("frames @ {} fps", number(cc.frame_rate)), "dim", "end");
  }
  for (const Event& e : cc.events) {
    if (e.time < 0 || e.time > t_end) continue;
    svg.begin_group(fmt::format("event '{}' at {} s {}", e.name, number(e.time), e.payload));
    svg.line(X(e.time), y0, X(e.time), y1, "event");
    svg.text(X(e.time) + 3, y0 + 11, e.name, "ev");
    svg.end_group();
  }
  std::vector<std::pair<double, double>> points;
  for (size_t i = 0; i < times.size(); ++i) {
    if (std::isfinite(values[i])) points.push_back({X(times[i]), Y(values[i])});
  }
  svg.polyline(points, "curve");
  for (size_t k = 0; k < c.key_times.size() && k < c.key_values.size(); ++k) {
    if (!std::isfinite(c.key_values[k]) || c.key_times[k] < 0 || c.key_times[k] > t_end) continue;
    svg.begin_group(
        fmt::format("key {}: t={} s, {}", k, number(c.key_times[k]), number(c.key_values[k])));
    svg.circle(X(c.key_times[k]), Y(c.key_values[k]), 2.6, "key");
    svg.end_group();
  }
}

bool constant(const Curve& c, float t_end) {
  if (c.key_values.empty()) return false;
  const float v0 = c.key_values.front();
  for (const float v : c.key_values) {
    if (std::abs(v - v0) > 1e-6f) return false;
  }
  for (int i = 0; i <= 64; ++i) {
    if (!(std::abs(value_at(c, t_end * i / 64) - v0) <= 1e-6)) return false;
  }
  return true;
}

std::string plot_svg(const ClipCurves& cc, const std::vector<std::string>& joints,
                     const std::string& source) {
  float t_end = cc.duration;
  for (const Curve& c : cc.curves) {
    if (!c.key_times.empty()) t_end = std::max(t_end, c.key_times.back());
  }
  if (!(t_end > 0) || !std::isfinite(t_end)) t_end = 1;
  // Joints in the order their curves come, filtered by --joint.
  std::vector<std::string> order;
  for (const Curve& c : cc.curves) {
    if (!joints.empty() && std::find(joints.begin(), joints.end(), c.joint) == joints.end())
      continue;
    if (std::find(order.begin(), order.end(), c.joint) == order.end()) order.push_back(c.joint);
  }
  struct Section {
    std::string joint;
    std::vector<const Curve*> shown;
    std::string constants;
  };
  std::vector<Section> sections;
  for (const std::string& j : order) {
    Section s{j, {}, {}};
    for (const Curve& c : cc.curves) {
      if (c.joint != j) continue;
      if (constant(c, t_end)) {
        s.constants += fmt::format("{}{} = {}", s.constants.empty() ? "" : ", ", c.channel,
                                   number(c.key_values.front()));
      } else {
        s.shown.push_back(&c);
      }
    }
    sections.push_back(std::move(s));
  }
  // Layout: a header per joint, then its panels in rows of kColumns.
  double y = kMargin + 44;
  std::vector<Panel> panels;
  std::vector<std::pair<double, const Section*>> headers;
  for (const Section& s : sections) {
    headers.push_back({y, &s});
    y += kJointHeader;
    for (size_t i = 0; i < s.shown.size(); ++i) {
      panels.push_back(
          {s.shown[i], kMargin + (i % kColumns) * kPanelW, y + (i / kColumns) * kPanelH});
    }
    y += ((s.shown.size() + kColumns - 1) / kColumns) * kPanelH + 6;
  }
  const double width = 2 * kMargin + kColumns * kPanelW;
  Svg svg(width, y + kMargin, kCss);
  svg.text(
      kMargin, kMargin + 14,
      fmt::format("{} — clip '{}': {} s, {} frames at {} fps", source, cc.clip, number(cc.duration),
                  number(cc.duration * cc.frame_rate), number(cc.frame_rate)),
      "title");
  std::string legend = "dots: keys · line: the engine's evaluation between them";
  if (!cc.events.empty()) legend += " · dashed red: events";
  svg.text(kMargin, kMargin + 32, legend, "dim");
  for (const auto& [hy, s] : headers) {
    svg.text(kMargin, hy + 16, "joint " + s->joint, "joint");
    std::string note = s->shown.empty() ? "no animated channel" : "";
    if (!s->constants.empty())
      note += (note.empty() ? "constant: " : "; constant: ") + s->constants;
    if (!note.empty()) svg.text(kMargin + 12 + 7.5 * (6 + s->joint.size()), hy + 16, note, "dim");
  }
  for (const Panel& p : panels) draw_panel(svg, p, cc, t_end);
  if (sections.empty()) svg.text(kMargin, y + 10, "no channel to plot", "dim");
  return svg.str();
}

}  // namespace

void add_plot_verb(CLI::App& app, Cli& cli) {
  auto* verb = app.add_subcommand(
      "plot", "draw a clip's channels as SVG: keys as dots, the engine's curve between them");
  static std::vector<std::string> files;
  static Options options;
  static std::string clip_name, out_path;
  static std::vector<std::string> joints;
  verb->add_option("files", files, "files to read (one skeleton, any number of clips)");
  verb->add_option("--clip", clip_name, "the clip (default: the first)");
  verb->add_option("--joint", joints, "a joint to plot (repeatable; default: every animated one)")
      ->allow_extra_args(false);
  verb->add_option("-o,--output", out_path, "OUT.svg")->required();
  verb->add_flag("--json", cli.json, "report as JSON");
  add_engine_options(*verb, cli, options);
  verb->callback([&cli] {
    const auto docs = open_documents(cli, files, options);
    // The engine's own curves when a document has them, else the neutral clips.
    std::optional<ClipCurves> chosen;
    std::vector<std::string> names;
    for (const auto& doc : docs) {
      for (ClipCurves& cc : doc->curves()) {
        names.push_back(cc.clip);
        if (!chosen && (clip_name.empty() || cc.clip == clip_name)) chosen = std::move(cc);
      }
    }
    std::optional<Animated> neutral;
    if (!chosen) {
      neutral = merge_neutral(docs, files);
      for (const Clip& c : neutral->clips) {
        names.push_back(c.name);
        if (!chosen && (clip_name.empty() || c.name == clip_name)) {
          chosen = neutral_curves(neutral->skeleton, c);
        }
      }
    }
    if (!chosen) {
      std::string all;
      for (const std::string& n : names) all += (all.empty() ? "" : ", ") + n;
      throw Error(clip_name.empty() ? std::string("no clip to plot")
                                    : fmt::format("no clip named '{}' (clips: {})", clip_name,
                                                  all.empty() ? "none" : all));
    }
    std::set<std::string> known;
    for (const Curve& c : chosen->curves) known.insert(c.joint);
    if (neutral) known.insert(neutral->skeleton.names.begin(), neutral->skeleton.names.end());
    for (const std::string& j : joints) {
      if (!known.count(j))
        throw Error(fmt::format("clip '{}' has no joint named '{}'", chosen->clip, j));
    }
    std::string source;
    for (const std::string& f : files)
      source += (source.empty() ? "" : ", ") + std::filesystem::path(f).filename().string();
    write_text(out_path, plot_svg(*chosen, joints, source.empty() ? "animkit" : source));
    size_t panels = 0;
    for (const Curve& c : chosen->curves) {
      panels += joints.empty() || std::find(joints.begin(), joints.end(), c.joint) != joints.end();
    }
    if (cli.json) {
      cli.out << dump_json(Json{{"output", out_path}, {"clip", chosen->clip}, {"channels", panels}})
              << "\n";
    } else {
      cli.out << fmt::format("{}: clip '{}', {} channels\n", out_path, chosen->clip, panels);
    }
  });
}

}  // namespace animkit::cli
