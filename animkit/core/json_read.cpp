#include "animkit/core/json_read.h"

#include <fmt/format.h>

#include "animkit/core/error.h"

namespace animkit {

namespace {

// Thrown by the handler and caught below: the handler does not know the byte offset.
struct TooDeep {};

// nlohmann's own DOM builder (the one Json::parse uses, linear), with a depth count around it.
// The callback parser used before re-scanned each closed container's parent for discarded
// values: quadratic in the number of siblings (200,000 `{}` took 8.3 s).
class DepthLimitedBuilder {
 public:
  explicit DepthLimitedBuilder(Json& result) : dom_(result, true) {}

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(Json::number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(Json::number_float_t v, const std::string& s) { return dom_.number_float(v, s); }
  bool string(std::string& v) { return dom_.string(v); }
  bool binary(Json::binary_t& v) { return dom_.binary(v); }
  bool key(std::string& v) { return dom_.key(v); }
  bool start_object(size_t n) { return enter() && dom_.start_object(n); }
  bool start_array(size_t n) { return enter() && dom_.start_array(n); }
  bool end_object() { return --depth_, dom_.end_object(); }
  bool end_array() { return --depth_, dom_.end_array(); }
  template <class Exception>
  bool parse_error(size_t at, const std::string& token, const Exception& e) {
    return dom_.parse_error(at, token, e);  // throws e
  }

 private:
  bool enter() {
    if (++depth_ > kMaxJsonDepth) throw TooDeep{};
    return true;
  }
  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  int depth_ = 0;
};

// The offset of the bracket that opens level kMaxJsonDepth + 1, skipping strings (run only
// after the parser refused the text, so the common case pays nothing for it).
uint64_t too_deep_at(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return text.size();
}

}  // namespace

Json parse_json(std::string_view text, const std::string& file) {
  Json result;
  DepthLimitedBuilder builder(result);
  try {
    Json::sax_parse(text.begin(), text.end(), &builder);
  } catch (const TooDeep&) {
    throw Error(fmt::format("invalid JSON: nested deeper than {} levels", kMaxJsonDepth),
                too_deep_at(text), file);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann's byte position is 1-based and counts the byte it stopped at.
    const uint64_t at = e.byte > 0 ? e.byte - 1 : 0;
    std::string what = e.what();
    if (auto p = what.find("syntax error"); p != std::string::npos) what = what.substr(p);
    throw Error("invalid JSON: " + what, at, file);
  } catch (const nlohmann::json::exception& e) {  // e.g. a number too large for a double
    throw Error(std::string("invalid JSON: ") + e.what(), std::nullopt, file);
  }
  return result;
}

}  // namespace animkit
