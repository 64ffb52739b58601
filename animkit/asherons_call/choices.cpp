#include "animkit/asherons_call/choices.h"

#include <fmt/format.h>

#include <array>
#include <utility>

#include "animkit/core/error.h"

namespace animkit::asherons_call {

namespace {

template <class E, size_t N>
struct Option {
  const char* name;
  E Choices::*member;
  std::array<const char*, N> values;
};

template <class E, size_t N>
void put(Json& j, const Choices& c, const Option<E, N>& o) {
  j[o.name] = o.values[static_cast<size_t>(c.*(o.member))];
}

template <class E, size_t N>
bool get(const Json& j, Choices& c, const Option<E, N>& o) {
  auto it = j.find(o.name);
  if (it == j.end()) return false;
  for (size_t i = 0; i < N; ++i) {
    if (it->is_string() && it->template get<std::string>() == o.values[i]) {
      c.*(o.member) = static_cast<E>(i);
      return true;
    }
  }
  throw Error(fmt::format("choice \"{}\": unknown value {}", o.name, it->dump()));
}

template <class F>
void each(F&& f) {
  f(Option<Choices::EndingFrame, 2>{"ending_frame", &Choices::ending_frame, {"epsilon", "bare"}});
  f(Option<Choices::LinkNegation, 2>{
      "link_negation", &Choices::link_negation, {"old_negative", "signs_differ"}});
  f(Option<Choices::CycleSpeed, 2>{"cycle_speed", &Choices::cycle_speed, {"ports", "motion_spec"}});
  f(Option<Choices::ReModify, 2>{
      "re_modify", &Choices::re_modify, {"head_n_times", "each_modifier"}});
  f(Option<Choices::RedundantLinks, 2>{
      "redundant_links", &Choices::redundant_links, {"stop_at_blocker", "keep_scanning"}});
  f(Option<Choices::DataAnimDone, 2>{"data_anim_done", &Choices::data_anim_done, {"drop", "fire"}});
  f(Option<Choices::JumpBlock, 2>{"jump_block", &Choices::jump_block, {"fallen", "falling"}});
  f(Option<Choices::AbsentStyle, 2>{
      "absent_style", &Choices::absent_style, {"header_style", "non_combat"}});
  f(Option<Choices::ActionPad, 2>{"action_pad", &Choices::action_pad, {"align4", "none"}});
}

}  // namespace

Json to_json(const Choices& c) {
  Json j = Json::object();
  each([&](const auto& o) { put(j, c, o); });
  return j;
}

Choices choices_from_json(const Json& j) {
  if (!j.is_object()) throw Error("\"choices\": expected an object");
  Choices c;
  size_t used = 0;
  each([&](const auto& o) { used += get(j, c, o) ? 1 : 0; });
  if (used != j.size()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!to_json(Choices{}).contains(it.key()))
        throw Error(fmt::format("unknown choice \"{}\"", it.key()));
    }
  }
  return c;
}

}  // namespace animkit::asherons_call
