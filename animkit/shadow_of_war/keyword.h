// The clip keywords (spec: "Clip keywords"): the multiply-by-31 string hash over upper-cased,
// sign-extended bytes, the two keyword tables as data, and the query "does the clip carry K".
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace animkit::shadow_of_war {

// Spec, "Clip keywords": seed = the upper-cased first character, then seed * 31 + c for each
// following upper-cased character, bytes sign-extended, 32-bit (0x569FF8). "" hashes to 0.
constexpr uint32_t keyword_hash(std::string_view s) {
  auto upper = [](char ch) -> uint32_t {
    if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
    return static_cast<uint32_t>(static_cast<int32_t>(static_cast<signed char>(ch)));
  };
  if (s.empty()) return 0;
  uint32_t h = upper(s[0]);
  for (size_t i = 1; i < s.size(); ++i) h = h * 31u + upper(s[i]);
  return h;
}

struct Keyword {
  uint32_t hash;
  std::string_view name;
};

namespace detail {
constexpr Keyword kw(std::string_view name) { return {keyword_hash(name), name}; }
}  // namespace detail

// The ragdoll-control table at 0x1E658B0 (14 entries).
inline constexpr std::array<Keyword, 14> kRagdollKeywords = {
    detail::kw("RAGDOLL"),
    detail::kw("DESTROY"),
    detail::kw("RESUMERAGDOLL"),
    detail::kw("DISALLOWRAGDOLL"),
    detail::kw("ALLOWRAGDOLL"),
    detail::kw("DELAYRAGDOLL"),
    detail::kw("COLLISION_CHECK_NONE"),
    detail::kw("COLLISION_CHECK_WORLD_ONLY"),
    detail::kw("COLLISION_CHECK_ALL"),
    detail::kw("GROUNDCHECK"),
    detail::kw("RAGDOLL_STIFFNESS"),
    detail::kw("NEVER_RAGDOLL"),
    detail::kw("FREEZERAGDOLL"),
    detail::kw("BEHAVIOR_HINT")};

// The sync-action table at 0x1F9FC40 (7 entries, no terminator).
inline constexpr std::array<Keyword, 7> kSyncActionKeywords = {detail::kw("SYNCACTION_ALLOWDEATH"),
                                                               detail::kw("SYNCACTION_DELAYDEATH"),
                                                               detail::kw("RESUMERAGDOLL"),
                                                               detail::kw("ALLOWRAGDOLL"),
                                                               detail::kw("RAGDOLL"),
                                                               detail::kw("DELAYRAGDOLL"),
                                                               detail::kw("STOP_ALIGN")};

// The keyword of an event string: its text up to the first blank, '(' or ':' ("RAGDOLL 0.25"
// carries RAGDOLL). README, Choices.
std::string_view event_keyword(std::string_view event_text);

// The argument of an event after its keyword ("BEHAVIOR_HINT Writhe", "BEHAVIOR_HINT(Writhe)"
// -> "Writhe"): separators and a closing ')' trimmed. README, Choices 8.
std::string_view event_argument(std::string_view event_text);

// The name of a known keyword hash (either table), or "" when none.
std::string_view keyword_name(uint32_t hash);

}  // namespace animkit::shadow_of_war
