// Ticks per second for 1,000 and 10,000 remote characters, each running a cycle with a modifier (the
// humanoid table's RunForward + SideStepRight, reached by a wire message), and the cost of the
// inbound path itself.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/dat.h"
#include "animkit/asherons_call/dat_writer.h"
#include "animkit/core/registry.h"
#include "animkit/asherons_call/synthetic.h"
#include "animkit/asherons_call/wire.h"

namespace animkit::asherons_call {
namespace {

struct Crowd {
  AnimationStore store;
  std::shared_ptr<const CMotionTable> table;
  std::vector<std::unique_ptr<PhysicsObj>> objects;

  explicit Crowd(int n) {
    for (Animation& a : humanoid_animations()) store.add(std::move(a));
    table = std::make_shared<const CMotionTable>(humanoid_table());
    MovementMessage m;
    m.movement_sequence = 1;
    InterpretedMotionState s;
    s.forward_command = motion::kRunForward;
    s.sidestep_command = motion::kSideStepRight;
    m.state = wire_state_from(s);
    for (int i = 0; i < n; ++i) {
      auto o = std::make_unique<PhysicsObj>(table, &store);
      o->enter_default_state();
      dispatch_movement(*o, m);
      // stagger the phases so the crowd does not cross frames in lockstep
      o->update_object(0.5 + 0.37 * (i % 17));
      objects.push_back(std::move(o));
    }
  }
};

void BM_TickCrowd(benchmark::State& state) {
  Crowd crowd(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    for (auto& o : crowd.objects) {
      o->begin_tick();
      o->update_object(1.0 / 60.0);
    }
    benchmark::DoNotOptimize(crowd.objects.front()->position);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));  // character-ticks
  state.counters["crowd_ticks_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TickCrowd)->Arg(1000)->Arg(10000);

// One inbound walk <-> run message per character (parse + gates + interpreter + table), then
// its tick (so the queues drain as they do in play).
void BM_WireCrowd(benchmark::State& state) {
  Crowd crowd(static_cast<int>(state.range(0)));
  std::vector<std::vector<uint8_t>> messages;
  for (uint32_t forward : {motion::kWalkForward, motion::kRunForward}) {
    MovementMessage m;
    InterpretedMotionState s;
    s.forward_command = forward;
    s.sidestep_command = motion::kSideStepRight;
    m.state = wire_state_from(s);
    messages.push_back(write_movement_message(m));
  }
  uint16_t seq = 2;
  for (auto _ : state) {
    for (auto& o : crowd.objects) {
      MovementMessage m = read_movement_message(messages[seq & 1]);
      m.movement_sequence = seq;
      dispatch_movement(*o, m);
      o->begin_tick();
      o->update_object(1.0 / 60.0);
    }
    ++seq;
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_WireCrowd)->Arg(1000);

// Issue 13 item 6: open a synthetic dat of 10,000 objects (written once to a temp file) through
// its memory map and list its directory (target: under 50 ms).
void BM_OpenAndListDat(benchmark::State& state) {
  const auto n = static_cast<uint32_t>(state.range(0));
  std::vector<DatObject> objects;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t id = (i % 3 == 0 ? 0x09000000u : i % 3 == 1 ? 0x03000000u : 0x02000000u) + i;
    objects.push_back({id, std::vector<uint8_t>(64 + (i * 37) % 3000, static_cast<uint8_t>(i))});
  }
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("bench_ac_" + std::to_string(::getpid()) + ".dat");
  write_file(path, write_dat(std::move(objects)));
  size_t listed = 0;
  for (auto _ : state) {
    const DatFile dat = DatFile::open(path);
    listed = dat.list().size();
    benchmark::DoNotOptimize(listed);
  }
  std::filesystem::remove(path);
  state.counters["entries"] = static_cast<double>(listed);
}
BENCHMARK(BM_OpenAndListDat)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace animkit::asherons_call

BENCHMARK_MAIN();
