// The runtime (spec: "The runtime", "Ragdolls"): clip tables, trackers, the pose job and its
// operation table, worker threads, behaviour states, the ring of eight, the brain, the rest test
// and the death settings.
#include <gtest/gtest.h>

#include <sstream>

#include "animkit/core/error.h"
#include "animkit/core/sampling_job.h"
#include "animkit/shadow_of_war/anix_document.h"
#include "animkit/shadow_of_war/character.h"
#include "animkit/shadow_of_war/demo.h"
#include "animkit/shadow_of_war/keyword.h"
#include "animkit/shadow_of_war/scenario.h"
#include "fixtures.h"

namespace animkit::shadow_of_war {
namespace {

std::shared_ptr<AnimObject> file(const std::string& path, std::vector<std::string> clips,
                                 const Skeleton& sk) {
  auto o = std::make_shared<AnimObject>();
  o->path = path;
  for (const std::string& c : clips) o->clips.push_back(synthetic_clip(c, sk, 1.f, true, 0.3f, 1));
  return o;
}

// Spec, "Which characters can play a clip".
TEST(ClipTable, RegistersOnlyListedPathsAndShares) {
  const Skeleton sk = synthetic_skeleton(4);
  ClipTable orc("orc", {"anims/orc/orc_deathtaunts.anix", "anims/orc/orc_walk.anix"});
  ClipTable gondor("gondorian", {"anims/orc/orc_deathtaunts.anix"});
  ClipTable olog("olog", {"anims/olog/olog_walk.anix"});
  auto taunts = file("anims/orc/orc_deathtaunts.anix", {"taunt_a", "taunt_b"}, sk);
  auto unlisted = file("anims/orc/orc_unlisted.anix", {"secret"}, sk);  // in a listed folder
  Bundle bundle{{taunts, unlisted}};
  ClipTable* tables[] = {&orc, &gondor, &olog};
  EXPECT_EQ(load_bundle(bundle, tables), 2u);
  EXPECT_EQ(orc.find("secret"), nullptr);
  EXPECT_EQ(olog.find("taunt_a"), nullptr);
  ASSERT_NE(orc.find("taunt_a"), nullptr);
  EXPECT_EQ(orc.find("TAUNT_A"), gondor.find("taunt_a"));  // one anim object in both
  EXPECT_EQ(orc.object_of(keyword_hash("taunt_b")), taunts.get());
  EXPECT_EQ(orc.entries()[1].loaded, nullptr);  // a listed path not loaded: an unused slot
  EXPECT_EQ(unload_bundle(bundle, tables), 2u);
  EXPECT_EQ(orc.find("taunt_a"), nullptr);
  EXPECT_EQ(gondor.clip_count(), 0u);
}

// Spec, "Per frame" step 1.
TEST(Tracker, WrapHoldAndFlags) {
  Clip c;
  c.duration = 1.f;
  Tracker t;
  t.clip = &c;
  t.rate = 1;
  t.flags = kTrackerAdvance | kTrackerLoop;
  t.time = 0.75f;
  advance(t, 0.5f);
  EXPECT_FLOAT_EQ(t.time, 0.25f);  // a looping clip wraps
  t.flags = kTrackerAdvance;
  t.time = 0.75f;
  advance(t, 0.5f);
  EXPECT_EQ(t.time, 1.f);  // holds the last key
  t.flags = kTrackerLoop;  // no flag bit 0: not advanced
  t.time = 0.3f;
  advance(t, 0.5f);
  EXPECT_EQ(t.time, 0.3f);
  t.flags = kTrackerAdvance;
  t.rate = 0;  // rate 0: the time is written from outside
  t.time = 0.6f;
  advance(t, 0.5f);
  EXPECT_EQ(t.time, 0.6f);
  t.rate = 2;
  t.time = 0;
  advance(t, 0.25f);
  EXPECT_EQ(t.time, 0.5f);
}

struct PoseFixture : ::testing::Test {
  Skeleton sk = synthetic_skeleton(6);
  Clip a = synthetic_clip("a", sk, 1.f, true, 0.5f, 1);
  Clip b = synthetic_clip("b", sk, 1.f, true, -0.7f, 2);
  KeyCursor ca, cb, cc;
  std::vector<Transform> out = std::vector<Transform>(6);
  PoseJob job;
  std::vector<std::string> run(const std::vector<BlendEntry>& entries,
                               const OperationTable& table = default_operation_table()) {
    job.skeleton = &sk;
    job.prepare(entries.size());
    job.entries = entries;
    job.output = out;
    job.run(table);
    std::vector<std::string> ops;
    for (const Operation& op : job.operations)
      ops.push_back(std::string(operation_name(op.code)) +
                    (op.entry >= 0 ? std::to_string(op.entry) : ""));
    return ops;
  }
  using V = std::vector<std::string>;
};

// Spec, pose job: first non-zero weight -> SAMPLE, later -> BLEND, no clip -> REFERENCE POSE,
// end -> OUTPUT.
TEST_F(PoseFixture, OperationSequences) {
  EXPECT_EQ(run({{1, 0.2f, {}, &a, &ca}}), (V{"SAMPLE0", "OUTPUT"}));
  EXPECT_EQ(run({{1, 0, {}, nullptr, &ca}, {1, 0.2f, {}, &a, &cb}}),
            (V{"REFERENCE_POSE0", "BLEND1", "OUTPUT"}));
  EXPECT_EQ(run({{0, 0, {}, &a, &ca}, {1, 0.2f, {}, &a, &cb}, {0.5f, 0.1f, {}, &b, &cc}}),
            (V{"SAMPLE1", "BLEND2", "OUTPUT"}));
  EXPECT_EQ(run({{0, 0, {}, &a, &ca}, {0, 0, {}, &b, &cb}}), (V{"REFERENCE_POSE", "OUTPUT"}));
  EXPECT_EQ(run({}), (V{"REFERENCE_POSE", "OUTPUT"}));
  EXPECT_EQ(run({{1, 0.2f, {}, &a, &ca}, {0.5f, 0, {}, nullptr, &cb}}),
            (V{"SAMPLE0", "REFERENCE_POSE1", "OUTPUT"}));
}

// A later entry without a clip layers the reference pose by its weight.
TEST_F(PoseFixture, LaterReferencePoseIsLayeredByWeight) {
  std::vector<Transform> sa(6);
  SamplingCursor c1;
  SamplingJob{&a, 0.3f, &c1, sk.rest, sa, {}}.run();
  run({{1, 0.3f, {}, &a, &ca}, {0.5f, 0, {}, nullptr, &cb}});
  const Quat half = nlerp(sa[2].rotation, sk.rest[2].rotation, 0.5f);
  EXPECT_NEAR(std::abs(dot(out[2].rotation, half)), 1.f, 1e-4f);
  run({{1, 0.3f, {}, &a, &ca}, {1, 0, {}, nullptr, &cb}});
  for (size_t j = 0; j < 6; ++j)
    EXPECT_NEAR(std::abs(dot(out[j].rotation, sk.rest[j].rotation)), 1.f, 1e-5f);
}

TEST_F(PoseFixture, SampleBlendAndWeightSetValues) {
  std::vector<Transform> sa(6), sb(6);
  SamplingCursor c1, c2;
  SamplingJob{&a, 0.3f, &c1, sk.rest, sa, {}}.run();
  SamplingJob{&b, 0.3f, &c2, sk.rest, sb, {}}.run();
  run({{1, 0.3f, {}, &a, &ca}});
  for (size_t j = 0; j < 6; ++j) EXPECT_EQ(out[j].rotation, sa[j].rotation);
  run({{1, 0.3f, {}, &a, &ca}, {1, 0.3f, {}, &b, &cb}});  // a later layer at weight 1 replaces
  for (size_t j = 0; j < 6; ++j) EXPECT_NEAR(dot(out[j].rotation, sb[j].rotation), 1.f, 1e-5f);
  const std::vector<float> upper = {0, 0, 0, 1, 1, 1};
  run({{1, 0.3f, {}, &a, &ca}, {1, 0.3f, upper, &b, &cb}});  // per body part
  for (size_t j = 0; j < 3; ++j) EXPECT_NEAR(dot(out[j].rotation, sa[j].rotation), 1.f, 1e-5f);
  for (size_t j = 3; j < 6; ++j) EXPECT_NEAR(dot(out[j].rotation, sb[j].rotation), 1.f, 1e-5f);
  run({{1, 0.3f, {}, &a, &ca}, {0.5f, 0.3f, {}, &b, &cb}});
  const Quat half = nlerp(sa[2].rotation, sb[2].rotation, 0.5f);
  EXPECT_NEAR(std::abs(dot(out[2].rotation, half)), 1.f, 1e-4f);
}

// Spec: the dispatcher asserts "Animation Operation not registered" for a missing one.
TEST_F(PoseFixture, MissingOperation) {
  OperationTable table;
  table.register_operation(kOpSample, [](PoseJob&, const Operation&) {});
  table.register_operation(kOpOutput, [](PoseJob&, const Operation&) {});
  EXPECT_NO_THROW(run({{1, 0.2f, {}, &a, &ca}}, table));
  try {
    run({{1, 0.2f, {}, &a, &ca}, {1, 0.2f, {}, &b, &cb}}, table);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "Animation Operation not registered");
  }
  EXPECT_THROW(table.register_operation(16, nullptr), Error);  // a table of 16
}

// Results must not depend on the worker count.
TEST(Workers, IdenticalPosesWith0_1And3Workers) {
  const Json s = crowd_scenario(12, 150);
  std::vector<std::vector<Transform>> poses[3];
  const int counts[] = {0, 1, 3};
  for (int k = 0; k < 3; ++k) {
    Scene scene = scene_from_json(s, ".", counts[k]);
    EXPECT_EQ(scene.crowd->workers(), counts[k]);
    for (int f = 0; f < 150; ++f) {
      for (const Json& e : s["script"])
        if (e["frame"] == f)
          for (auto& c : scene.crowd->characters())
            if (c->name() == e["character"])
              c->set_value("speed", e["values"]["speed"].get<float>());
      scene.crowd->frame(1.f / 60);
      for (auto& c : scene.crowd->characters())
        poses[k].push_back(c->model().output.transforms());
    }
  }
  EXPECT_EQ(poses[0], poses[1]);
  EXPECT_EQ(poses[1], poses[2]);
}

TEST(Workers, PlayTraceDoesNotDependOnThreads) {
  const Json s = crowd_scenario(5, 100);
  std::ostringstream one, three;
  PlayOptions o;
  o.json = true;
  o.threads = 1;
  play(s, ".", o, one);
  o.threads = 3;
  play(s, ".", o, three);
  EXPECT_EQ(one.str(), three.str());
  std::istringstream lines(one.str());
  std::string first;
  std::getline(lines, first);
  const Json j = Json::parse(first);
  EXPECT_EQ(j["frame"], 0);
  EXPECT_EQ(j["characters"][0]["state"], "Idle");
  EXPECT_EQ(j["characters"][0]["operations"][0]["op"], "SAMPLE");  // tracker 0: the base clip
  EXPECT_EQ(j["characters"][0]["trackers"][0]["clip"], "base");
  EXPECT_EQ(j["characters"][0]["trackers"][1]["clip"], "orc_idle");
}

const char* kGraph = R"({
  "name": "g", "start": "Idle",
  "states": [
    {"name": "Idle", "clip": "idle", "DefaultBlendTime": 0.5, "Links": ["ToRun"]},
    {"name": "Run", "clip": "run", "DefaultBlendTime": 0.2, "Rate": 1.0, "StartPct": 0.5,
     "Links": [{"name": "ToIdle", "target": "Idle", "predicate": {"Not": {"value": "speed", "op": ">", "than": 1}}}]}
  ],
  "transitions": [
    {"name": "ToRun", "target": "Run", "predicate": {"And": [{"value": "speed", "op": ">", "than": 1}, {"Or": [{"value": "tired", "op": "==", "than": 0}, {"value": "speed", "op": ">=", "than": 5}]}]}}
  ]})";

struct BehaviourFixture : ::testing::Test {
  Skeleton sk = synthetic_skeleton(4);
  std::shared_ptr<AnimObject> obj = file("loco.anix", {"idle", "run"}, sk);
  ClipTable table{"orc", {"loco.anix"}};
  std::shared_ptr<BlendGraph> graph =
      std::make_shared<BlendGraph>(blend_graph_from_json(Json::parse(kGraph)));
  DeathSettings global;
  void SetUp() override { table.attach(obj); }
};

// Spec: the current state changes by the first passing link; the transition cross-fades over the
// blend time by driving tracker weights.
TEST_F(BehaviourFixture, TransitionsCrossFade) {
  Character c("orc", graph, &table, sk, global);
  c.update(0.1f);
  EXPECT_EQ(c.state()->name, "Idle");
  ASSERT_EQ(c.model().trackers.size(), 2u);
  c.set_value("speed", 2);
  c.set_value("tired", 1);
  c.update(0.1f);
  EXPECT_EQ(c.state()->name, "Idle");  // Or fails: tired and not fast enough
  c.set_value("tired", 0);
  c.update(0.1f);
  EXPECT_EQ(c.state()->name, "Run");
  ASSERT_EQ(c.model().trackers.size(), 3u);
  EXPECT_NEAR(c.model().trackers[2].weight, 0.1f / 0.2f, 1e-6f);  // Run's DefaultBlendTime
  EXPECT_NEAR(c.model().trackers[2].time, 0.5f + 0.1f, 1e-6f);    // StartPct, then advanced
  c.update(0.1f);
  EXPECT_EQ(c.model().trackers.size(), 2u);  // fade done: Idle's tracker removed
  EXPECT_EQ(c.model().trackers[1].clip->name, "run");
  EXPECT_EQ(c.model().trackers[1].weight, 1.f);
  c.set_value("speed", 0);
  c.update(0.1f);
  EXPECT_EQ(c.state()->name, "Idle");
  EXPECT_EQ(c.transition()->blend_time, 0.5f);
}

// Spec, "Clip keywords": the query walks the events of the clip the character is playing.
TEST_F(BehaviourFixture, PlayingClipCarriesKeyword) {
  EventDictionary d;
  d.strings = {"ragdoll 0.25", "footstep"};
  d.clips = {{"run", 30, 1000, {event_word(1, 10), event_word(0, 500)}},
             {"idle", 30, 1000, {event_word(1, 10)}}};
  obj->events = d;
  Character c("orc", graph, &table, sk, global);
  c.update(0.1f);
  EXPECT_FALSE(c.playing_clip_carries(keyword_hash("RAGDOLL")));
  c.set_value("speed", 2);
  c.update(0.1f);
  EXPECT_EQ(c.state()->name, "Run");
  EXPECT_TRUE(c.playing_clip_carries(keyword_hash("RAGDOLL")));
  EXPECT_FALSE(c.playing_clip_carries(keyword_hash("DESTROY")));
}

// Spec: state slots point into the graph's records; a record change reaches every character.
TEST_F(BehaviourFixture, SharedRecords) {
  Character a("a", graph, &table, sk, global), b("b", graph, &table, sk, global);
  EXPECT_EQ(a.state(), b.state());
  graph->states[0].Rate = 2.f;
  a.update(0.1f);
  b.update(0.1f);
  EXPECT_EQ(a.model().trackers[1].rate, 0.f);  // the graph writes the time
  EXPECT_NEAR(a.model().trackers[1].time, 0.2f, 1e-6f);
  EXPECT_NEAR(b.model().trackers[1].time, 0.2f, 1e-6f);
}

TEST_F(BehaviourFixture, BadGraphs) {
  EXPECT_THROW(blend_graph_from_json(Json::parse(R"({"states": []})")), Error);
  EXPECT_THROW(blend_graph_from_json(
                   Json::parse(R"({"states": [{"name": "A", "Links": [{"target": "B"}]}]})")),
               Error);
  EXPECT_THROW(
      blend_graph_from_json(Json::parse(
          R"({"states": [{"name": "A", "Links": [{"target": "A", "predicate": {"value": "x", "op": "~", "than": 1}}]}]})")),
      Error);
  const BlendGraph g = blend_graph_from_json(Json::parse(kGraph));
  EXPECT_EQ(blend_graph_from_json(to_json(g)).states.size(), 2u);
}

// Spec, "The ring of eight".
TEST(Ragdoll, RingOfEight) {
  RagdollRing ring;
  std::vector<RagdollController> c(10);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(ring.claim(c[i]), i);
  EXPECT_EQ(ring.cursor(), 0);  // modulo 8
  EXPECT_EQ(ring.claim(c[8]), 0);
  EXPECT_EQ(c[0].slot, -1);  // released
  EXPECT_EQ(c[8].slot, 0);
  EXPECT_EQ(ring.claim(c[9]), 1);
  EXPECT_EQ(c[1].slot, -1);
  EXPECT_EQ(ring.slots()[1], &c[9]);
  EXPECT_EQ(c[2].slot, 2);
}

// Spec, "The brain".
TEST(Ragdoll, BrainTakesTheFirstPassingController) {
  const Brain brain = brain_from_json(Json::parse(R"({
    "name": "Orc_Base", "OnGround": [-1000, 30], "Stationary": [0, 15],
    "BehaviorControllers": [
      {"name": "DieHeadSeveredController", "HeadSevered": true},
      {"name": "FallingBraceImpactController", "Height": [100, 100000]},
      {"name": "WritheOnGroundController", "TimeOnGround": [1, 1000], "PriorController": "DieController"},
      {"name": "DieController", "TimeTotal": [0, 1000]},
      {"name": "FallbackController"}]})"));
  RagdollController c;
  c.brain = &brain;
  BrainSample s;
  EXPECT_FALSE(c.step(s, 0.1f));  // no slot: the brain does not run
  EXPECT_EQ(c.timers.total, 0.f);
  RagdollRing ring;
  ring.claim(c);
  s.height = 200;
  EXPECT_TRUE(c.step(s, 0.1f));
  EXPECT_STREQ(c.current_name(), "FallingBraceImpactController");
  EXPECT_EQ(c.timers.in_air, 0.1f);
  s.height = 0;
  EXPECT_TRUE(c.step(s, 0.5f));
  EXPECT_STREQ(c.current_name(), "DieController");
  EXPECT_EQ(c.timers.in_behavior, 0.f);  // reset on a change
  EXPECT_EQ(c.prior, 1);
  EXPECT_FALSE(c.step(s, 0.6f));  // on ground 1.1 s, but the prior is not DieController
  EXPECT_FALSE(c.step(s, 0.5f));
  EXPECT_EQ(c.timers.in_behavior, 1.1f);
  s.head_severed = true;
  EXPECT_TRUE(c.step(s, 0.1f));
  EXPECT_STREQ(c.current_name(), "DieHeadSeveredController");
}

TEST(Ragdoll, PriorControllerCondition) {
  const Brain brain = brain_from_json(Json::parse(R"({
    "BehaviorControllers": [
      {"name": "Writhe", "TimeOnGround": [1, 1000], "CurrentController": "Die"},
      {"name": "Die"}]})"));
  RagdollController c;
  c.brain = &brain;
  c.slot = 0;
  BrainSample s;
  EXPECT_TRUE(c.step(s, 0.5f));
  EXPECT_STREQ(c.current_name(), "Die");
  EXPECT_TRUE(c.step(s, 0.6f));  // on the ground 1.1 s while Die is current
  EXPECT_STREQ(c.current_name(), "Writhe");
  EXPECT_EQ(c.prior, 1);
}

// Spec, "The dead-body step" 4: at rest after 15 s, or after 3 s once the speed is below
// AtRestSpeed (15 cm/s without a record), counted in world time from the state's time stamp.
TEST(Ragdoll, RestTest) {
  EXPECT_FALSE(at_rest(14.9, 100));
  EXPECT_TRUE(at_rest(15.0, 100));
  EXPECT_FALSE(at_rest(2.9, 1));
  EXPECT_TRUE(at_rest(3.0, 14.9));
  EXPECT_FALSE(at_rest(3.0, 15.0));  // "falls below": 15 is not below 15
  float summed = 0;  // a float sum of 0.1f lands beside 3.0; the tolerance takes either side
  for (int i = 0; i < 30; ++i) summed += 0.1f;
  EXPECT_NE(summed, 3.0f);
  EXPECT_TRUE(at_rest(summed, 0));
  EXPECT_FALSE(at_rest(3.0 - 1e-5, 0));  // but not a real shortfall
  EXPECT_TRUE(at_rest(180 * 0.016666666, 0));  // 1/60 printed short of its value
  RestSettings troll;
  troll.AtRestSpeed = 1000000;  // BodyCleanup Troll / Fellbeast
  EXPECT_TRUE(at_rest(3.0, 5000, troll));
  EXPECT_FALSE(at_rest(2.0, 5000, troll));
  EXPECT_FALSE(at_rest(3.0, 5000));
  EXPECT_EQ(RestSettings{}.AtRestSpeed, 15.0);
  EXPECT_EQ(RestSettings{}.rest_time, 15.0);       // [base+0x26736A4]
  EXPECT_EQ(RestSettings{}.slow_rest_time, 3.0);   // [base+0x26736B0]
  RestSettings no_slow;
  no_slow.slow_rest_enabled = false;
  EXPECT_FALSE(at_rest(14.0, 0, no_slow));
  EXPECT_TRUE(at_rest(15.0, 0, no_slow));
}

// Spec, "The dead-body step": settings copied from Global at creation.
TEST_F(BehaviourFixture, DeathSettingsCopiedAtCreation) {
  const DeathSettings shipped;
  EXPECT_TRUE(shipped.BodyRagdoll);
  EXPECT_EQ(shipped.BodyDeathDirMinY, 0.4f);
  EXPECT_EQ(shipped.BodyDeathForceScale, 0.5f);
  EXPECT_EQ(shipped.BodyDirDeathForceScale, 1.5f);
  EXPECT_EQ(shipped.BodyStickDist, 400.f);
  EXPECT_EQ(shipped.BodyStickTime, 0.3f);
  EXPECT_EQ(shipped.BodyDeathScaleVelocity, 1.0f);
  EXPECT_EQ(shipped.BodyDeathClampVelocityMax, 800.f);
  Character early("early", graph, &table, sk, global);
  global.BodyStickDist = 10;
  Character late("late", graph, &table, sk, global);
  EXPECT_EQ(early.death_settings().BodyStickDist, 400.f);
  EXPECT_EQ(late.death_settings().BodyStickDist, 10.f);
}

TEST(Keywords, TheClipPlayingCarriesAKeyword) {
  const Skeleton sk = synthetic_skeleton(2);
  auto obj = file("deaths.anix", {"death_a", "death_b"}, sk);
  EventDictionary d;
  d.strings = {"ResumeRagdoll", "destroy"};
  d.clips = {{"death_a", 30, 1000, {event_word(0, 100)}},
             {"death_b", 30, 1000, {event_word(1, 10)}}};
  obj->events = d;
  const ClipEvents* a = obj->events_of(obj->clips[0]);
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(obj->events->carries_keyword(*a, kRagdollKeywords[2].hash));  // RESUMERAGDOLL
  EXPECT_FALSE(obj->events->carries_keyword(*a, kRagdollKeywords[1].hash));
  EXPECT_TRUE(
      obj->events->carries_keyword(*obj->events_of(obj->clips[1]), kRagdollKeywords[1].hash));
}

}  // namespace
}  // namespace animkit::shadow_of_war

namespace animkit::shadow_of_war {
namespace {

// Spec, "The ring of eight" and "The dead-body step", through `animkit play`: ten deaths, at most
// eight powered ragdolls; the brain runs only while its controller holds a slot; a fast body
// rests 15 s after its death, brain or not, and the body cleanup releases its slot.
TEST(Play, DeathsClaimTheRingOfEight) {
  Json s = Json::parse(R"({"engine": "shadow_of_war", "joints": 4, "frames": 250, "dt": 0.1,
    "files": [{"path": "a.anix", "clips": [{"name": "idle", "duration": 1}]}],
    "graph": {"states": [{"name": "Idle", "clip": "idle"}]},
    "brain": {"name": "Orc_Base", "BehaviorControllers": [
      {"name": "WritheOnGroundController", "TimeOnGround": [2, 1000]},
      {"name": "DieController"}]},
    "characters": [{"name": "orc", "count": 10, "values": {"height": 0, "velocity": 100}}],
    "script": []})");
  for (int i = 0; i < 10; ++i)
    s["script"].push_back({{"frame", i}, {"character", "orc_" + std::to_string(i)}, {"die", true}});
  const std::vector<Json> frames = testing::play_frames(s);
  ASSERT_EQ(frames.size(), 250u);
  const Json& f10 = frames[10]["characters"];
  EXPECT_EQ(f10[0]["ragdoll"]["slot"], -1);  // released by the ninth claim
  EXPECT_EQ(f10[1]["ragdoll"]["slot"], -1);
  EXPECT_EQ(f10[8]["ragdoll"]["slot"], 0);
  EXPECT_EQ(f10[9]["ragdoll"]["slot"], 1);
  EXPECT_EQ(f10[9]["ragdoll"]["controller"], "DieController");
  EXPECT_EQ(frames[10]["ragdolls"]["held_slots"], 8);
  EXPECT_EQ(frames[40]["characters"][9]["ragdoll"]["controller"], "WritheOnGroundController");
  EXPECT_EQ(frames[40]["characters"][9]["ragdoll"]["prior"], "DieController");
  // orc_9 died at frame 9: 150 later frames make 15.0 s (at frame 159), while it holds slot 1
  // and its brain runs.
  EXPECT_FALSE(frames[158]["characters"][9]["ragdoll"]["at_rest"].get<bool>());
  EXPECT_EQ(frames[158]["characters"][9]["ragdoll"]["slot"], 1);
  EXPECT_EQ(frames[158]["ragdolls"]["held_slots"], 1);
  const Json& rest = frames[159]["characters"][9]["ragdoll"];
  EXPECT_TRUE(rest["at_rest"].get<bool>());
  EXPECT_EQ(rest["rest_at"].get<double>(), 15.0);
  EXPECT_EQ(rest["slot"], -1);  // the body cleanup released it
  EXPECT_EQ(frames[159]["ragdolls"]["held_slots"], 0);
  EXPECT_EQ(frames[159]["ragdolls"]["corpses"], 10);  // no BodyCleanup Lifetime: they stay
  // orc_0 died at frame 0: at rest at frame 150 exactly.
  EXPECT_FALSE(frames[149]["characters"][0]["ragdoll"]["at_rest"].get<bool>());
  EXPECT_TRUE(frames[150]["characters"][0]["ragdoll"]["at_rest"].get<bool>());
}

// Spec, "The dead-body step": on the frame of death the step is called once (steps 1-3: slot,
// brain start); step 4, the brain and the rest test, runs "on every later frame". So on the death
// frame the brain has not stepped and the rest count is 0; one frame later it has stepped once.
TEST(Play, DeathFrameClaimsTheSlotBrainStepsOnLaterFrames) {
  Json s = Json::parse(R"({"engine": "shadow_of_war", "joints": 4, "frames": 4, "dt": 0.5,
    "files": [{"path": "a.anix", "clips": [{"name": "idle", "duration": 1}]}],
    "graph": {"states": [{"name": "Idle", "clip": "idle"}]},
    "brain": {"name": "Orc_Base", "BehaviorControllers": [{"name": "DieController"}]},
    "characters": [{"name": "orc", "values": {"height": 0, "velocity": 100}}],
    "script": [{"frame": 1, "character": "orc", "die": true}]})");
  const std::vector<Json> frames = testing::play_frames(s);
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_FALSE(frames[0]["characters"][0].contains("ragdoll"));
  const Json& death = frames[1]["characters"][0]["ragdoll"];
  EXPECT_EQ(death["slot"], 0);
  EXPECT_EQ(death["controller"], "");  // the brain has not stepped yet
  EXPECT_EQ(death["time"].get<double>(), 0.0);
  const Json& next = frames[2]["characters"][0]["ragdoll"];
  EXPECT_EQ(next["controller"], "DieController");
  EXPECT_EQ(next["time"].get<double>(), 0.5);
  EXPECT_EQ(frames[3]["characters"][0]["ragdoll"]["time"].get<double>(), 1.0);
}

TEST(AnixText, InvalidUtf8NamesDumpAsEscapes) {
  AnixBuild b = testing::one_clip();
  b.clips[0].name = "bad\xff\xfe";
  const AnixFile f = build_anix(b);
  const Json j = to_json(f);
  EXPECT_EQ(j["anim_chunk"]["records"][0]["name"], "bad\\xff\\xfe");
  EXPECT_NO_THROW(j.dump());
}

}  // namespace
}  // namespace animkit::shadow_of_war
