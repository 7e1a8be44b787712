// The generator blocks and transforms of a scenario: the new keys parse into the specs, bad
// values are reported word for word at their JSON pointers, ids of blocks may not collide,
// BuildWorkload generates every block and applies the transforms in order with notes, and the
// example scenarios still build the workloads recorded before blocks and transforms existed.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <variant>

#include "fleetsim/scenario/scenario.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

LoadResult Parse(const std::string& text, bool strict = false) {
  return ParseScenario(text, "s.json", BuiltinPolicies(), {.strict = strict});
}

std::string Messages(const LoadResult& result) {
  return result.file_status.ok() ? result.diagnostics.Format("s.json")
                                 : result.file_status.message();
}

// A scenario with `sections` (JSON members, comma-separated) after a fleet of 8 GPUs.
std::string With(const std::string& sections) {
  return R"({"format_version": 1, "name": "t", "fleet": {"gpus": 8}, )" + sections + "}";
}

constexpr const char* kBlock =
    R"("jobs": 4, "mean_interarrival_s": 60, "duration_s": {"median": 600, "sigma": 1},
       "gpus": {"values": [1, 2], "weights": [1, 1]})";

std::string Block(const std::string& extra = "") {
  return std::string("{") + kBlock + (extra.empty() ? "" : ", " + extra) + "}";
}

// Fingerprints of the example scenarios' workloads (their own seeds), as recorded in
// summary.json by fleetsim before generator blocks and transforms existed.
TEST(WorkloadSectionsTest, ExampleScenariosBuildTheWorkloadsRecordedBefore) {
  const std::map<std::string, std::string> recorded = {
      {"mixed-fleet.json", "fnv1a64:366e60276d3db305"},
      {"mixed-until.json", "fnv1a64:e8a464a759c07ff7"},
      {"poisson-64.json", "fnv1a64:378de9545dd47550"},
      {"tiny-contended.json", "fnv1a64:d9db4fac186a6c87"},
  };
  for (const auto& [file, fingerprint] : recorded) {
    const LoadResult r = LoadScenarioFile(testing::SourcePath("scenarios/examples/" + file),
                                          BuiltinPolicies(), LoadOptions{});
    ASSERT_TRUE(r.scenario) << file << "\n" << Messages(r);
    EXPECT_EQ(WorkloadFingerprint(BuildWorkload(*r.scenario, r.scenario->seed)), fingerprint)
        << file;
  }
}

TEST(WorkloadSectionsTest, AGeneratorObjectIsAOneBlockGeneratorsArray) {
  const LoadResult single = Parse(With(R"("generator": )" + Block()));
  const LoadResult array = Parse(With(R"("generators": [)" + Block() + "]"));
  ASSERT_TRUE(single.scenario) << Messages(single);
  ASSERT_TRUE(array.scenario) << Messages(array);
  EXPECT_EQ(array.scenario->generators.size(), 1U);
  EXPECT_EQ(WorkloadFingerprint(BuildWorkload(*single.scenario, 3)),
            WorkloadFingerprint(BuildWorkload(*array.scenario, 3)));
}

TEST(WorkloadSectionsTest, EveryBlockGeneratesFromItsOwnStreams) {
  const LoadResult r = Parse(With(R"("generator": )" + Block(R"("id_prefix": "a")") +
                                  R"(, "generators": [)" + Block(R"("id_prefix": "b")") + "]"));
  ASSERT_TRUE(r.scenario) << Messages(r);
  const Workload w = BuildWorkload(*r.scenario, 1);
  ASSERT_EQ(w.jobs.size(), 8U);
  std::map<char, std::vector<SimDuration>> durations;
  for (const Job& job : w.jobs) {
    durations[job.request.id[0]].push_back(job.truth.duration);
  }
  ASSERT_EQ(durations['a'].size(), 4U);
  EXPECT_NE(durations['a'], durations['b']);
}

TEST(WorkloadSectionsTest, GeneratorsAloneMakeAScenario) {
  const LoadResult r = Parse(With(R"("generators": [])"));
  ASSERT_TRUE(r.scenario) << Messages(r);
  EXPECT_TRUE(BuildWorkload(*r.scenario, 1).jobs.empty());
}

TEST(WorkloadSectionsTest, NewGeneratorKeysFillTheSpec) {
  const LoadResult r = Parse(With(R"("generators": [{
      "jobs": 10, "mean_interarrival_s": 60,
      "arrival_profile": [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 2.5],
      "duration_s": {"values": [60, 3600], "weights": [2, 1]},
      "gpus": {"values": [8], "weights": [1]},
      "tenant": {"values": ["x"], "weights": [1]},
      "walltime_factor": 1.25,
      "demand": {"base_fraction": 0.5, "peak_hour": 20, "noise": 0.2, "swap_cap": 1}},
     {"jobs": 1, "mean_interarrival_s": 1, "duration_s": {"median": 1, "sigma": 0},
      "gpus": {"values": [1], "weights": [1]},
      "kind": {"values": ["quantization", "interactive"], "weights": [1, 0]},
      "id_prefix": "k"}])"));
  ASSERT_TRUE(r.scenario) << Messages(r);
  const GeneratorSpec& services = r.scenario->generators.at(0);
  ASSERT_EQ(services.arrival_profile.size(), 24U);
  EXPECT_EQ(services.arrival_profile[23], 2.5);
  EXPECT_EQ(services.duration_mix.values, (std::vector<double>{60, 3600}));
  EXPECT_EQ(services.tenant.values, std::vector<std::string>{"x"});
  EXPECT_EQ(services.walltime_factor, 1.25);
  ASSERT_TRUE(services.demand);
  EXPECT_EQ(services.demand->base_fraction, 0.5);
  EXPECT_EQ(services.demand->peak_hour, 20);
  EXPECT_EQ(services.demand->noise, 0.2);
  EXPECT_EQ(services.demand->swap_cap, 1);
  EXPECT_EQ(r.scenario->generators.at(1).kind.values,
            (std::vector<JobKind>{JobKind::kQuantization, JobKind::kInteractive}));
  for (const Job& job : BuildWorkload(*r.scenario, 1).jobs) {
    EXPECT_TRUE(ProblemsWith(job).empty()) << job.request.id;
  }
}

TEST(WorkloadSectionsTest, BadGeneratorValuesAreReportedAtTheirPointers) {
  const LoadResult r = Parse(With(R"("generators": [)" + Block(R"("arrival_profile": [1, 2, 3],
                                           "kind": {"values": ["fine-tunning"], "weights": [1]},
                                           "tenant": {"values": [""], "weights": [1]},
                                           "walltime_factor": 0,
                                           "demand": {"base_fraction": 1.5, "peak_hour": 24})") +
                                  R"(, 7, {"jobs": 1, "mean_interarrival_s": 1,
      "duration_s": {"median": 1, "sigma": 0, "values": [1], "weights": [1]},
      "gpus": {"values": [1], "weights": [1]}}])"));
  EXPECT_FALSE(r.scenario);
  EXPECT_EQ(Messages(r),
            "s.json: /generators/0/arrival_profile: error: expected 24 hourly rates, hour 0 "
            "first, found 3 values\n"
            "s.json: /generators/0/kind/values/0: error: expected one of 'unspecified', "
            "'pretraining', 'fine-tuning', 'batch-inference', 'realtime-inference', "
            "'quantization', 'interactive', found 'fine-tunning', did you mean 'fine-tuning'?\n"
            "s.json: /generators/0/tenant/values/0: error: expected a non-empty string, found "
            "\"\"\n"
            "s.json: /generators/0/walltime_factor: error: expected a number > 0 and ≤ 1000, "
            "found 0\n"
            "s.json: /generators/0/demand/base_fraction: error: expected a number ≥ 0 and ≤ 1, "
            "found 1.5\n"
            "s.json: /generators/0/demand/peak_hour: error: expected an integer ≤ 23, found 24\n"
            "s.json: /generators/0: error: expected 'demand' (services, all of kind "
            "'realtime-inference') or 'kind', found both\n"
            "s.json: /generators/1: error: expected a generator object, found 7\n"
            "s.json: /generators/2/duration_s: error: expected lognormal ('median', 'sigma', "
            "'max') or empirical ('values', 'weights') durations, found keys of both\n");
}

TEST(WorkloadSectionsTest, AllZeroArrivalProfileIsRefused) {
  const LoadResult r = Parse(
      With(R"("generator": )" +
           Block(R"("arrival_profile": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                    0, 0, 0, 0])")));
  EXPECT_EQ(Messages(r),
            "s.json: /generator/arrival_profile: error: expected at least one rate > 0, found "
            "all 0\n");
}

TEST(WorkloadSectionsTest, BlocksThatCouldGenerateTheSameIdAreRefused) {
  const LoadResult same = Parse(With(R"("generator": )" + Block() + R"(, "generators": [)" +
                                     Block(R"("id_prefix": "h")") + ", " + Block() + "]"));
  EXPECT_EQ(Messages(same),
            "s.json: /generators/1/id_prefix: error: ids generated here collide with those of "
            "/generator (both generate 'g000001'); choose another id_prefix\n");
  // "g1" + "000001" is job 1000001 of the block with prefix "g" once it has that many jobs.
  const std::string big = R"({"jobs": 1000001, "mean_interarrival_s": 1,
      "duration_s": {"median": 1, "sigma": 0}, "gpus": {"values": [1], "weights": [1]}})";
  const LoadResult nested =
      Parse(With(R"("generators": [)" + big + ", " + Block(R"("id_prefix": "g1")") + "]"));
  EXPECT_EQ(Messages(nested),
            "s.json: /generators/1/id_prefix: error: ids generated here collide with those of "
            "/generators/0 (both generate 'g1000001'); choose another id_prefix\n");
  const LoadResult fewer = Parse(With(R"("generators": [)" + Block(R"("jobs": 999999)") + ", " +
                                      Block(R"("id_prefix": "g1")") + "]"));
  EXPECT_TRUE(fewer.scenario) << Messages(fewer);
}

TEST(WorkloadSectionsTest, GeneratedIdsMayNotEqualListedOnes) {
  const LoadResult r =
      Parse(With(R"("jobs": [{"id": "b000003", "submit_s": 0, "gpus": 1,
      "duration_s": 1}], "generators": [)" +
                 Block(R"("id_prefix": "a")") + ", " + Block(R"("id_prefix": "b")") + "]"));
  EXPECT_EQ(Messages(r),
            "s.json: /generators/1/id_prefix: error: generated id 'b000003' collides with "
            "/jobs/0/id; choose another id_prefix\n");
}

TEST(WorkloadSectionsTest, TransformsParseInOrder) {
  const LoadResult r = Parse(With(R"("generator": )" + Block() + R"(, "transforms": [
      {"window": {"from_s": 10, "to_s": 20.5, "shift": true}},
      {"scale_arrivals": {"factor": 4}},
      {"sample": {"jobs": 3, "seed": 5}},
      {"shuffle": {}},
      {"assign": {"rules": [{"when": {"gpus": {"max": 2}, "duration_s": {"min": 60},
                                      "tenant": "default", "priority_class": "",
                                      "kind": "unspecified"},
                             "set": {"tenant": "t", "priority_class": "c", "priority": 3,
                                     "kind": "interactive"}},
                            {"set": {}}],
                  "mix": {"priority": {"values": [2], "weights": [1]}}}},
      {"fit_to_nodes": {"gpus_per_node": 4, "small_jobs": "keep", "max_gpus": 16,
                        "above_max": "clamp"}}])"));
  ASSERT_TRUE(r.scenario) << Messages(r);
  const std::vector<TransformSpec>& t = r.scenario->transforms;
  ASSERT_EQ(t.size(), 6U);
  const auto& window = std::get<TimeWindow>(t[0]);
  EXPECT_EQ(window.from, 10'000);
  EXPECT_EQ(window.to, 20'500);
  EXPECT_TRUE(window.shift);
  EXPECT_EQ(std::get<ScaleArrivals>(t[1]).factor, 4);
  EXPECT_EQ(std::get<SampleJobs>(t[2]).jobs, 3);
  EXPECT_EQ(std::get<SampleJobs>(t[2]).seed, 5U);
  EXPECT_FALSE(std::get<ShuffleArrivals>(t[3]).seed);
  const auto& assign = std::get<AssignFields>(t[4]);
  ASSERT_EQ(assign.rules.size(), 2U);
  const JobPredicate& when = assign.rules[0].when;
  EXPECT_EQ(when.gpus->min, 0);
  EXPECT_EQ(when.gpus->max, 2);
  EXPECT_EQ(when.duration->min, 60'000);
  EXPECT_EQ(when.duration->max, kTimeNever);
  EXPECT_EQ(when.kind, JobKind::kUnspecified);
  EXPECT_EQ(assign.rules[0].set.kind, JobKind::kInteractive);
  EXPECT_EQ(assign.rules[0].set.priority, 3);
  EXPECT_FALSE(assign.rules[1].when.gpus);
  EXPECT_FALSE(assign.rules[1].set.tenant);
  EXPECT_EQ(assign.mix.priority.values, std::vector<std::int64_t>{2});
  const auto& fit = std::get<FitToNodes>(t[5]);
  EXPECT_EQ(fit.gpus_per_node, 4);
  EXPECT_FALSE(fit.round_small_to_pow2);
  EXPECT_EQ(fit.max_gpus, 16);
  EXPECT_FALSE(fit.drop_above_max);
}

TEST(WorkloadSectionsTest, BadTransformsAreReportedAtTheirPointers) {
  const LoadResult r = Parse(With(R"("jobs": [], "transforms": [
      "window", {}, {"window": {}, "shuffle": {}}, {"sample": 3},
      {"scale_arrivals": {"factor": 0}},
      {"window": {"from_s": -1, "shift": "yes"}},
      {"assign": {"rules": [{"when": {"kind": "training"}, "set": {"tenant": ""}}, 5, {}],
                  "mix": {"kind": {"values": ["pretraining"], "weights": [0]}}, "seed": -1}},
      {"fit_to_nodes": {"gpus_per_node": 0, "small_jobs": "pow3", "above_max": 1}}])"));
  EXPECT_FALSE(r.scenario);
  EXPECT_EQ(
      Messages(r),
      "s.json: /transforms/0: error: expected a transform object such as {\"window\": {...}}, "
      "found \"window\"\n"
      "s.json: /transforms/1: error: expected exactly one of 'window', 'scale_arrivals', "
      "'sample', 'shuffle', 'assign', 'fit_to_nodes', 'replicate', 'walltime_model', found none\n"
      "s.json: /transforms/2: error: expected exactly one of 'window', 'scale_arrivals', "
      "'sample', 'shuffle', 'assign', 'fit_to_nodes', 'replicate', 'walltime_model', found "
      "'window', 'shuffle'\n"
      "s.json: /transforms/3/sample: error: expected an object, found 3\n"
      "s.json: /transforms/4/scale_arrivals/factor: error: expected a number > 0 and ≤ 1000000, "
      "found 0\n"
      "s.json: /transforms/5/window/from_s: error: expected a number ≥ 0 and ≤ 3155760000, "
      "found -1\n"
      "s.json: /transforms/5/window/shift: error: expected true or false, found \"yes\"\n"
      "s.json: /transforms/6/assign/rules/0/when/kind: error: expected one of 'unspecified', "
      "'pretraining', 'fine-tuning', 'batch-inference', 'realtime-inference', 'quantization', "
      "'interactive', found 'training'\n"
      "s.json: /transforms/6/assign/rules/0/set/tenant: error: expected a non-empty string, "
      "found \"\"\n"
      "s.json: /transforms/6/assign/rules/1: error: expected a rule object {\"when\": {...}, "
      "\"set\": {...}}, found 5\n"
      "s.json: /transforms/6/assign/rules/2: error: missing required key 'set'\n"
      "s.json: /transforms/6/assign/mix/kind/weights: error: expected at least one weight > 0, "
      "found all 0\n"
      "s.json: /transforms/6/assign/seed: error: expected an integer in [0, "
      "18446744073709551615], found -1\n"
      "s.json: /transforms/7/fit_to_nodes/gpus_per_node: error: expected an integer ≥ 1, found "
      "0\n"
      "s.json: /transforms/7/fit_to_nodes/small_jobs: error: expected one of 'pow2', 'keep', "
      "found 'pow3', did you mean 'pow2'?\n"
      "s.json: /transforms/7/fit_to_nodes/above_max: error: expected one of 'drop', 'clamp', "
      "found 1\n");
}

TEST(WorkloadSectionsTest, UnknownTransformKeysAreWarnedWithASuggestion) {
  const LoadResult r = Parse(With(R"("jobs": [], "transforms": [
      {"window": {"form_s": 1}, "shufle": {}}])"));
  EXPECT_EQ(Messages(r),
            "s.json: /transforms/0/shufle: warning: unknown key 'shufle', did you mean "
            "'shuffle'?\n"
            "s.json: /transforms/0/window/form_s: warning: unknown key 'form_s', did you mean "
            "'from_s'?\n");
  EXPECT_TRUE(r.scenario);
}

TEST(BuildWorkloadTest, TransformsApplyInOrderWithNotes) {
  const LoadResult r = Parse(With(R"("jobs": [
      {"id": "a", "submit_s": 0, "gpus": 3, "duration_s": 60},
      {"id": "b", "submit_s": 100, "gpus": 12, "duration_s": 60},
      {"id": "c", "submit_s": 200, "gpus": 1, "duration_s": 60},
      {"id": "d", "submit_s": 300, "gpus": 40, "duration_s": 60}],
    "transforms": [
      {"window": {"from_s": 100, "shift": true}},
      {"scale_arrivals": {"factor": 2}},
      {"fit_to_nodes": {"gpus_per_node": 8, "max_gpus": 32}},
      {"assign": {"mix": {"tenant": {"values": ["x"], "weights": [1]}}}}])"));
  ASSERT_TRUE(r.scenario) << Messages(r);
  const BuiltWorkload built = BuildWorkloadWithNotes(*r.scenario, 1);
  ASSERT_EQ(built.workload.jobs.size(), 2U);
  EXPECT_EQ(built.workload.jobs[0].request.id, "b");
  EXPECT_EQ(built.workload.jobs[0].request.submit, 0);
  EXPECT_EQ(built.workload.jobs[0].request.gpus, 16);
  EXPECT_EQ(built.workload.jobs[0].request.tenant, "x");
  EXPECT_EQ(built.workload.jobs[1].request.id, "c");
  EXPECT_EQ(built.workload.jobs[1].request.submit, 50'000);
  EXPECT_EQ(built.notes,
            (std::vector<std::string>{
                "/transforms/0 (window): kept 3 of 4 jobs submitted in [100 s, no end), moved "
                "100 s earlier",
                "/transforms/1 (scale_arrivals): divided the submit times of 3 jobs by 2",
                "/transforms/2 (fit_to_nodes): resized 1 of 3 jobs for 8-GPU nodes; dropped 1 "
                "needing more than 32 GPUs (largest asked for 40)",
                "/transforms/3 (assign): the mix set 2 others"}));
  EXPECT_EQ(WorkloadFingerprint(built.workload),
            WorkloadFingerprint(BuildWorkload(*r.scenario, 1)));
}

TEST(BuildWorkloadTest, ShuffledTraceKeepsItsArrivalInstants) {
  const LoadResult r = Parse(With(R"("generator": )" + Block(R"("jobs": 50)") +
                                  R"(, "transforms": [{"shuffle": {"seed": 3}}])"));
  ASSERT_TRUE(r.scenario) << Messages(r);
  LoadResult plain_result = Parse(With(R"("generator": )" + Block(R"("jobs": 50)")));
  ASSERT_TRUE(plain_result.scenario);
  const Workload plain = BuildWorkload(*plain_result.scenario, 1);
  const Workload shuffled = BuildWorkload(*r.scenario, 1);
  std::vector<SimTime> a;
  std::vector<SimTime> b;
  int moved = 0;
  for (std::size_t i = 0; i < plain.jobs.size(); ++i) {
    a.push_back(plain.jobs[i].request.submit);
    b.push_back(shuffled.jobs[i].request.submit);
    moved += plain.jobs[i].request.id != shuffled.jobs[i].request.id ? 1 : 0;
  }
  EXPECT_EQ(a, b);
  EXPECT_GT(moved, 40);
}

}  // namespace
}  // namespace fleetsim

namespace fleetsim {
namespace {

TEST(WorkloadSectionsTest, AssignRulesSetTheJobLifeCycle) {
  const LoadResult r = Parse(With(R"("jobs": [
      {"id": "big", "gpus": 8, "duration_s": 7200},
      {"id": "small", "gpus": 1, "duration_s": 600}],
    "transforms": [{"assign": {"rules": [
      {"when": {"gpus": {"min": 8}},
       "set": {"checkpoint_interval_s": 1800, "checkpoint_cost_s": 30, "checkpoint_sharded": false,
               "restart_cost_s": 90, "preemptible": true}},
      {"set": {"spot_eligible": false}}]}}])"));
  ASSERT_TRUE(r.scenario) << Messages(r);
  const Workload w = BuildWorkload(*r.scenario, 1);
  const JobRequest& big = w.jobs[0].request;
  EXPECT_EQ(big.checkpoint_interval, SecondsToTime(1800));
  EXPECT_EQ(big.checkpoint_cost, SecondsToTime(30));
  EXPECT_FALSE(big.checkpoint_sharded);
  EXPECT_EQ(big.restart_cost, SecondsToTime(90));
  EXPECT_TRUE(big.preemptible);
  EXPECT_TRUE(big.spot_eligible);  // the first matching rule wins
  const JobRequest& small = w.jobs[1].request;
  EXPECT_EQ(small.checkpoint_interval, 0);
  EXPECT_FALSE(small.spot_eligible);
}

TEST(WorkloadSectionsTest, BadLifeCycleValuesAreReportedAndACostWithoutIntervalIsDropped) {
  const LoadResult bad = Parse(With(R"("jobs": [], "transforms": [{"assign": {"rules": [
      {"set": {"restart_cost_s": -1, "preemptible": 1}}]}}])"));
  EXPECT_FALSE(bad.scenario);
  EXPECT_EQ(Messages(bad),
            "s.json: /transforms/0/assign/rules/0/set/restart_cost_s: error: expected a number ≥ "
            "0 and ≤ 3155760000, found -1\n"
            "s.json: /transforms/0/assign/rules/0/set/preemptible: error: expected true or false, "
            "found 1\n");
  const LoadResult r = Parse(With(R"("jobs": [{"id": "a", "duration_s": 60}],
      "transforms": [{"assign": {"rules": [{"set": {"checkpoint_cost_s": 30}}]}}])"));
  ASSERT_TRUE(r.scenario) << Messages(r);
  EXPECT_EQ(BuildWorkload(*r.scenario, 1).jobs[0].request.checkpoint_cost, 0);
}

}  // namespace
}  // namespace fleetsim
