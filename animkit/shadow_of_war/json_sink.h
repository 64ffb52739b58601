// A JSON document emitted piece by piece (issue 29): the same calls either build one Json value
// (JsonBuild: `to_json`) or print straight to a stream in exactly the layout `dump` prints a
// whole value — Json::dump(1) for --json, core to_text for text (JsonPrint) — so a file with a
// million events is printed without holding a million Json objects.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "animkit/core/json_util.h"

namespace animkit::shadow_of_war {

class JsonSink {
 public:
  virtual ~JsonSink() = default;
  // Opens an object or array under `key` (ignored inside an array). Printed containers choose
  // their text layout when they are opened: stream only objects and arrays of structured values
  // (an array of up to 16 plain values prints on one line in text, so pass it whole to value()).
  virtual void begin_object(std::string_view key) = 0;
  virtual void begin_array(std::string_view key) = 0;
  virtual void value(std::string_view key, const Json& v) = 0;
  virtual void end() = 0;  // closes the innermost container
};

class JsonBuild final : public JsonSink {
 public:
  void begin_object(std::string_view key) override { open_.push_back({std::string(key), Json::object()}); }
  void begin_array(std::string_view key) override { open_.push_back({std::string(key), Json::array()}); }
  void value(std::string_view key, const Json& v) override;
  void end() override;
  Json take() { return std::move(root_); }

 private:
  struct Open {
    std::string key;
    Json json;
  };
  std::vector<Open> open_;
  Json root_;
};

class JsonPrint final : public JsonSink {
 public:
  enum class Layout { kJson, kText };
  JsonPrint(std::ostream& out, Layout layout) : out_(out), layout_(layout) {}
  void begin_object(std::string_view key) override { open(key, false); }
  void begin_array(std::string_view key) override { open(key, true); }
  void value(std::string_view key, const Json& v) override;
  void end() override;

 private:
  struct Level {
    std::string label;     // how its parent names it: `"key": ` / `key`, or `[i]` in text
    bool first = false;    // its parent's first member
    bool array = false;
    bool printed = false;  // its opening line is out (only once it has a member)
    size_t members = 0;
  };
  void open(std::string_view key, bool array);
  Level child(std::string_view key);  // the label of the next member of the innermost level
  void print_pending();               // the opening lines of the containers not yet printed
  void print_member(const Level& as, const Json& v);  // a member of the innermost level

  std::ostream& out_;
  Layout layout_;
  std::vector<Level> open_;
};

}  // namespace animkit::shadow_of_war
