// Shared pieces of the scenario fuzzers (issue 19, "Scenario fuzzers"): the fuzzer's bytes read
// as choices (`Gen`), a scratch folder for the tables and clips a scenario names, a stream that
// throws the trace away, and the dump of a generated case so a finding can be replayed with
// `animkit play`.
//
// Each player's fuzzer builds a *valid* scenario from the bytes (known keys, known clip ids, the
// module's own writers for its files) so the bytes steer the player's state, not the JSON parser.
// Numbers come mostly from a palette of edge values (0, negative, tiny, huge) the players must
// survive in bounded time and memory.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <ostream>
#include <span>
#include <streambuf>
#include <string>
#include <system_error>

#include "animkit/core/json_util.h"
#include "animkit/core/limits.h"
#include "animkit/core/registry.h"

namespace animkit::fuzz {

class Gen {
 public:
  Gen(const uint8_t* data, size_t size) : p_(data, size) {}

  bool empty() { return p_.remaining_bytes() == 0; }
  bool coin() { return p_.ConsumeBool(); }
  // 1 in `n` (false once the bytes run out).
  bool rarely(int n = 8) { return !empty() && p_.ConsumeIntegralInRange<int>(0, n - 1) == 0; }
  int range(int lo, int hi) { return p_.ConsumeIntegralInRange<int>(lo, hi); }
  uint8_t u8() { return p_.ConsumeIntegral<uint8_t>(); }
  uint16_t u16() { return p_.ConsumeIntegral<uint16_t>(); }
  uint32_t u32() { return p_.ConsumeIntegral<uint32_t>(); }
  template <class T>
  T pick(std::initializer_list<T> values) {
    return *(values.begin() + range(0, static_cast<int>(values.size()) - 1));
  }
  template <class T>
  const T& pick(std::span<const T> values) {
    return values[range(0, static_cast<int>(values.size()) - 1)];
  }
  // A count: mostly 0..typical, sometimes up to `max`.
  int count(int typical, int max) { return rarely(16) ? range(0, max) : range(0, typical); }
  // A number a user may write in a scenario's JSON (finite): mostly near `usual`, often an edge.
  double number(double usual = 1.0) {
    switch (range(0, 15)) {
      case 0: return 0.0;
      case 1: return -usual;
      case 2: return usual * 1e-7;
      case 3: return 1e7;
      case 4: return 1e30;
      case 5: return pick({1e300, -1e300, 5e-324, 1e38, -1e38, 3.4028235e38, 1e-45});
      case 6: return static_cast<double>(p_.ConsumeIntegral<int32_t>());
      case 7: return p_.ConsumeFloatingPointInRange<double>(-1e6, 1e6);
      default: return usual * p_.ConsumeFloatingPointInRange<double>(0.0, 4.0);
    }
  }
  // A float as a binary table stores it: any bit pattern now and then (NaN, infinities).
  float binary_float(float usual = 1.f) {
    if (rarely(10)) {
      const uint32_t bits = pick<uint32_t>({0x7fc00000u, 0x7f800000u, 0xff800000u, 0x00000001u,
                                            0x7f7fffffu, u32()});
      float f;
      static_assert(sizeof f == sizeof bits);
      __builtin_memcpy(&f, &bits, sizeof f);
      return f;
    }
    return static_cast<float>(number(usual));
  }
  std::string name(std::initializer_list<const char*> known) {
    if (rarely(12)) return p_.ConsumeRandomLengthString(12);
    return pick(known);
  }

 private:
  FuzzedDataProvider p_;
};

// A folder private to this process for the files a scenario names (rewritten by every run),
// removed at exit.
inline const std::filesystem::path& scratch_dir(const std::string& engine) {
  static const std::filesystem::path dir = [&] {
    std::filesystem::path d = std::filesystem::temp_directory_path() /
                              ("animkit-fuzz-" + engine + "-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    static const std::filesystem::path removed_at_exit = d;
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(removed_at_exit, ec);
    });
    return d;
  }();
  return dir;
}

// Discards the trace (the players' output is not what is under test; its cost is).
class NullStream : public std::ostream {
 public:
  NullStream() : std::ostream(&buffer_) {}

 private:
  struct Buffer : std::streambuf {
    int overflow(int c) override { return traits_type::not_eof(c); }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
  } buffer_;
};

// With ANIMKIT_FUZZ_DUMP=DIR in the environment (replaying one input: `fuzz_X crash-file`), the
// generated scenario and its files are copied to DIR, ready for `animkit play DIR/scenario.json`.
inline void dump_case(const Json& scenario, const std::filesystem::path& files) {
  const char* out = std::getenv("ANIMKIT_FUZZ_DUMP");
  if (!out) return;
  const std::filesystem::path dir = out;
  std::filesystem::create_directories(dir);
  std::filesystem::copy(files, dir,
                        std::filesystem::copy_options::recursive |
                            std::filesystem::copy_options::overwrite_existing);
  std::ofstream(dir / "scenario.json") << scenario.dump(1) << "\n";
}

// With ANIMKIT_FUZZ_SEED=DIR, LLVMFuzzerInitialize writes the fuzzer's seed inputs there and the
// process exits (`make fuzz` seeds its corpora this way).
inline bool write_seeds(std::initializer_list<std::string_view> seeds) {
  const char* out = std::getenv("ANIMKIT_FUZZ_SEED");
  if (!out) return false;
  std::filesystem::create_directories(out);
  int i = 0;
  for (std::string_view s : seeds) {
    std::ofstream(std::filesystem::path(out) / ("seed-" + std::to_string(i++)), std::ios::binary)
        .write(s.data(), static_cast<std::streamsize>(s.size()));
  }
  return true;
}

// LLVMFuzzerInitialize of every scenario fuzzer. With ANIMKIT_FUZZ_SEED set, writes the seeds they
// start from (runs of 0x00, 0x5a, 0x01, 0xa7: each a different walk through the generator) and
// exits. Otherwise sets --max-steps to a tenth of its default and --max-memory to a quarter: the
// sanitizers run about ten times slower than a release build (Shadow of War's 740 MB of clip keys,
// within the 1 GiB default, took the campaign over 10 s to build), and the budgets' errors, not
// their defaults, are under test.
inline void init_scenario_fuzzer() {
  if (write_seeds({std::string(64, '\0'), std::string(300, '\x5a'), std::string(1000, '\x01'),
                   std::string(2000, '\xa7')})) {
    std::exit(0);
  }
  Limits l = limits();
  l.max_steps = Limits::kDefaultMaxSteps / 10;
  l.max_memory = Limits::kDefaultMaxMemory / 4;
  set_limits(l);
}

// The tail of every scenario fuzzer: the case dumped (ANIMKIT_FUZZ_DUMP), then `play(out)` on a
// stream that throws the trace away. An exception is what the CLI reports as "error:" (exit 1),
// not a finding; a signal, a time-out or 2 GB is. Returns LLVMFuzzerTestOneInput's 0.
template <class Play>
int play_case(const Json& scenario, const std::filesystem::path& files, Play&& play) {
  dump_case(scenario, files);
  try {
    NullStream out;
    play(out);
  } catch (const std::exception&) {
  }
  return 0;
}

}  // namespace animkit::fuzz
