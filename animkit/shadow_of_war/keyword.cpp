#include "animkit/shadow_of_war/keyword.h"

namespace animkit::shadow_of_war {

std::string_view event_keyword(std::string_view text) {
  size_t end = 0;
  while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != '(' &&
         text[end] != ':' && text[end] != '=')
    ++end;
  return text.substr(0, end);
}

std::string_view event_argument(std::string_view text) {
  std::string_view rest = text.substr(event_keyword(text).size());
  auto separator = [](char c) { return c == ' ' || c == '\t' || c == '(' || c == ':' || c == '='; };
  while (!rest.empty() && separator(rest.front())) rest.remove_prefix(1);
  while (!rest.empty() && (rest.back() == ')' || rest.back() == ' ' || rest.back() == '\t'))
    rest.remove_suffix(1);
  return rest;
}

std::string_view keyword_name(uint32_t hash) {
  for (const Keyword& k : kRagdollKeywords)
    if (k.hash == hash) return k.name;
  for (const Keyword& k : kSyncActionKeywords)
    if (k.hash == hash) return k.name;
  return {};
}

}  // namespace animkit::shadow_of_war
