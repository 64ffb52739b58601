#include "animkit/shadow_of_war/behavior.h"

#include <fmt/format.h>

#include <algorithm>

#include "animkit/core/error.h"

namespace animkit::shadow_of_war {

bool Predicate::evaluate(const std::vector<float>& values) const {
  switch (kind) {
    case Kind::kTrue:
      return true;
    case Kind::kAnd:
      return std::all_of(children.begin(), children.end(),
                         [&](const Predicate& p) { return p.evaluate(values); });
    case Kind::kOr:
      return std::any_of(children.begin(), children.end(),
                         [&](const Predicate& p) { return p.evaluate(values); });
    case Kind::kNot:
      return children.empty() || !children[0].evaluate(values);
    case Kind::kCompare: {
      const float v = value < values.size() ? values[value] : 0.f;
      switch (compare) {
        case Compare::kLess:
          return v < than;
        case Compare::kLessEqual:
          return v <= than;
        case Compare::kGreater:
          return v > than;
        case Compare::kGreaterEqual:
          return v >= than;
        case Compare::kEqual:
          return v == than;
        case Compare::kNotEqual:
          return v != than;
      }
    }
  }
  return false;
}

int32_t BlendGraph::find_state(std::string_view n) const {
  for (size_t i = 0; i < states.size(); ++i)
    if (states[i].name == n) return static_cast<int32_t>(i);
  return -1;
}

uint32_t BlendGraph::value_index(std::string_view n) const {
  for (size_t i = 0; i < value_names.size(); ++i)
    if (value_names[i] == n) return static_cast<uint32_t>(i);
  throw Error(fmt::format("graph '{}': no character value '{}'", name, n));
}

uint32_t BlendGraph::add_value(const std::string& n) {
  for (size_t i = 0; i < value_names.size(); ++i)
    if (value_names[i] == n) return static_cast<uint32_t>(i);
  value_names.push_back(n);
  return static_cast<uint32_t>(value_names.size() - 1);
}

int32_t BlendGraph::first_passing_link(int32_t state, const std::vector<float>& values) const {
  if (state < 0 || static_cast<size_t>(state) >= states.size()) return -1;
  for (int32_t link : states[state].Links) {
    const StateTransition& t = transitions[link];
    if (t.target >= 0 && t.predicate.evaluate(values)) return link;
  }
  return -1;
}

namespace {

struct Parser {
  BlendGraph& g;

  uint32_t value(const std::string& n) {
    auto it = std::find(g.value_names.begin(), g.value_names.end(), n);
    if (it != g.value_names.end()) return static_cast<uint32_t>(it - g.value_names.begin());
    g.value_names.push_back(n);
    return static_cast<uint32_t>(g.value_names.size() - 1);
  }

  Predicate predicate(const Json& j) {
    Predicate p;
    if (j.is_boolean()) {
      if (j.get<bool>()) return p;
      p.kind = Predicate::Kind::kNot;
      return p;
    }
    if (!j.is_object()) throw Error("predicate: expected an object, got " + j.dump());
    auto list = [&](const Json& a, Predicate::Kind k) {
      if (!a.is_array()) throw Error("predicate: And / Or take an array");
      p.kind = k;
      for (const Json& c : a) p.children.push_back(predicate(c));
    };
    if (j.contains("And")) {
      list(j["And"], Predicate::Kind::kAnd);
    } else if (j.contains("Or")) {
      list(j["Or"], Predicate::Kind::kOr);
    } else if (j.contains("Not")) {
      p.kind = Predicate::Kind::kNot;
      p.children.push_back(predicate(j["Not"]));
    } else if (j.contains("value")) {
      p.kind = Predicate::Kind::kCompare;
      if (!j["value"].is_string()) throw Error("predicate: 'value' names a character value");
      p.value = value(j["value"].get<std::string>());
      const std::string op = j.value("op", std::string(">"));
      static const std::pair<const char*, Predicate::Compare> ops[] = {
          {"<", Predicate::Compare::kLess},    {"<=", Predicate::Compare::kLessEqual},
          {">", Predicate::Compare::kGreater}, {">=", Predicate::Compare::kGreaterEqual},
          {"==", Predicate::Compare::kEqual},  {"!=", Predicate::Compare::kNotEqual}};
      bool found = false;
      for (const auto& [s, c] : ops)
        if (op == s) p.compare = c, found = true;
      if (!found) throw Error("predicate: unknown comparison '" + op + "'");
      if (!j.contains("than") || !j["than"].is_number())
        throw Error("predicate: a comparison needs a number 'than'");
      p.than = j["than"].get<float>();
    } else {
      throw Error("predicate: expected And, Or, Not or value, got " + j.dump());
    }
    return p;
  }

  StateTransition transition(const Json& j, size_t index) {
    if (!j.is_object()) throw Error("transition: expected an object");
    StateTransition t;
    t.name = j.value("name", fmt::format("transition{}", index));
    const std::string target = j.value("target", std::string());
    t.target = target.empty() ? -1 : g.find_state(target);
    if (!target.empty() && t.target < 0)
      throw Error(fmt::format("transition '{}': no state '{}'", t.name, target));
    t.BlendTime = j.value("BlendTime", -1.f);
    if (j.contains("predicate")) t.predicate = predicate(j["predicate"]);
    return t;
  }
};

}  // namespace

BlendGraph blend_graph_from_json(const Json& j) {
  if (!j.is_object() || !j.contains("states") || !j["states"].is_array() || j["states"].empty())
    throw Error("graph: expected an object with a non-empty 'states' array");
  BlendGraph g;
  g.name = j.value("name", std::string("graph"));
  g.value_names = {"state_time", "state_pct"};
  Parser p{g};
  try {
    for (const Json& s : j["states"]) {
      if (!s.is_object() || !s.contains("name"))
        throw Error("state: expected an object with a name");
      BlendState st;
      st.name = s["name"].get<std::string>();
      if (g.find_state(st.name) >= 0) throw Error("state '" + st.name + "' defined twice");
      st.Mirrored = s.value("Mirrored", false);
      st.Priority = s.value("Priority", 0);
      st.DefaultBlendTime = s.value("DefaultBlendTime", 0.2f);
      st.StartPct = s.value("StartPct", 0.f);
      st.Rate = s.value("Rate", 1.f);
      st.Gravity = s.value("Gravity", true);
      st.Looping = s.value("Looping", true);
      st.clip = s.value("clip", std::string());
      st.weight_set = s.value("WeightSet", std::string());
      st.Tags = s.value("Tags", std::vector<std::string>{});
      g.states.push_back(std::move(st));
    }
    if (j.contains("transitions")) {
      for (const Json& t : j["transitions"])
        g.transitions.push_back(p.transition(t, g.transitions.size()));
    }
    for (size_t i = 0; i < g.states.size(); ++i) {
      const Json& links = j["states"][i].value("Links", Json::array());
      for (const Json& l : links) {
        if (l.is_string()) {
          const std::string n = l.get<std::string>();
          auto it = std::find_if(g.transitions.begin(), g.transitions.end(),
                                 [&](const StateTransition& t) { return t.name == n; });
          if (it == g.transitions.end())
            throw Error(fmt::format("state '{}': no transition '{}'", g.states[i].name, n));
          g.states[i].Links.push_back(static_cast<int32_t>(it - g.transitions.begin()));
        } else {
          g.transitions.push_back(p.transition(l, g.transitions.size()));
          g.states[i].Links.push_back(static_cast<int32_t>(g.transitions.size() - 1));
        }
      }
    }
    if (j.contains("values"))
      for (const Json& v : j["values"]) g.add_value(v.get<std::string>());
    const std::string start = j.value("start", g.states[0].name);
    g.start = g.find_state(start);
    if (g.start < 0) throw Error("graph: no start state '" + start + "'");
  } catch (const Json::exception& e) {
    throw Error(std::string("graph: ") + e.what());
  }
  return g;
}

namespace {
Json predicate_json(const Predicate& p, const BlendGraph& g) {
  switch (p.kind) {
    case Predicate::Kind::kTrue:
      return true;
    case Predicate::Kind::kAnd:
    case Predicate::Kind::kOr: {
      Json a = Json::array();
      for (const Predicate& c : p.children) a.push_back(predicate_json(c, g));
      return {{p.kind == Predicate::Kind::kAnd ? "And" : "Or", a}};
    }
    case Predicate::Kind::kNot:
      return {{"Not", p.children.empty() ? Json(true) : predicate_json(p.children[0], g)}};
    case Predicate::Kind::kCompare: {
      static const char* ops[] = {"<", "<=", ">", ">=", "==", "!="};
      return {{"value", g.value_names[p.value]},
              {"op", ops[static_cast<int>(p.compare)]},
              {"than", json_float(p.than)}};
    }
  }
  return nullptr;
}
}  // namespace

Json to_json(const BlendGraph& g) {
  Json states = Json::array();
  for (const BlendState& s : g.states) {
    Json links = Json::array();
    for (int32_t l : s.Links) links.push_back(g.transitions[l].name);
    states.push_back({{"name", s.name},
                      {"Mirrored", s.Mirrored},
                      {"Priority", s.Priority},
                      {"DefaultBlendTime", json_float(s.DefaultBlendTime)},
                      {"StartPct", json_float(s.StartPct)},
                      {"Rate", json_float(s.Rate)},
                      {"Gravity", s.Gravity},
                      {"Looping", s.Looping},
                      {"Links", links},
                      {"clip", s.clip},
                      {"WeightSet", s.weight_set}});
  }
  Json transitions = Json::array();
  for (const StateTransition& t : g.transitions) {
    Json tj{{"name", t.name},
            {"target", t.target >= 0 ? Json(g.states[t.target].name) : Json(nullptr)},
            {"predicate", predicate_json(t.predicate, g)}};
    if (t.BlendTime >= 0) tj["BlendTime"] = json_float(t.BlendTime);
    transitions.push_back(tj);
  }
  return {{"name", g.name},
          {"start", g.states[g.start].name},
          {"states", states},
          {"transitions", transitions}};
}

}  // namespace animkit::shadow_of_war
