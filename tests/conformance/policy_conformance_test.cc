// The conformance suite every registered policy must pass — with its default parameters and with
// each value of each of its choice parameters — run on random workloads:
//  - plain whole-GPU jobs on a bare 32-GPU fleet, and rich jobs (GPU-model lists, size ranges,
//    power-of-two blocks, NVLink locality, MIG and fractional sharing, host CPU and memory,
//    CPU-only jobs, spot eligibility, durations and work) on a mixed fleet (dynamic- and
//    static-MIG pools, a spot pool, an NVL72 rack, a pool without MIG, limited host CPU), with
//    preemptible and checkpointing jobs, walltime estimates and real-time services, while its
//    spot node is reclaimed and its GB200 and B200 nodes fail;
//  - every decision is legal (the engine checks each one; a run must end ok);
//  - never over-allocates: an independent model of every GPU and node, replayed from the start,
//    resize, preemption and finish events, holds no GPU twice, no more than 1000 milli-GPU, no
//    overlapping MIG instances, and no more CPU or memory than a node has;
//  - never breaks a constraint: each start and resize is re-checked here against the job's
//    request (submitted already, GPU count, sharing, models, spot, NVLink domain, aligned block,
//    MIG memory, host split, no node that is announced for reclaim or down); only preemptible
//    jobs are preempted by a policy;
//  - progress: the run ends ok (the engine reports a deadlock when a policy leaves admitted jobs
//    queued on an idle fleet with nothing left to happen — a do-nothing policy shows it) and no
//    job is left queued;
//  - determinism: the same workload gives the same schedule, job by job.
// A new policy is covered by registering it; nothing here names a policy. In a build with Python
// the example Python policies (python/examples/policies.py) are held to it too
// (testutil/policies.h).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/ledger/placement_rules.h"
#include "fleetsim/metrics/job_log.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/sim/simulation.h"
#include "fleetsim/workload/generator.h"
#include "testutil/fleets.h"
#include "testutil/policies.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

// The rich fleet (testutil's MixedFleet, 76 GPUs in five pools) with interruptions: its spot
// node is reclaimed about every ten hours (AWS notice), and the GB200 rack's trays and the B200
// node fail now and then.
FleetSpec MixedFleet() {
  FleetSpec fleet = testing::MixedFleet();
  fleet.pools[2].spot = {.per_node_hour = 0.1, .notice = 120'000, .replacement_delay = 600'000};
  fleet.pools[3].failures = {.per_gpu_hour = 0.002, .repair = 3'600'000};
  fleet.pools[4].failures = {.per_gpu_hour = 0.002, .repair = 3'600'000};
  return fleet;
}

// An independent model of what the fleet holds, replayed from the events.
class CapacityModel final : public SimulationObserver {
 public:
  explicit CapacityModel(const FleetSpec& fleet) : gpus_(static_cast<std::size_t>(fleet.gpus)) {
    for (const PoolSpec& pool : fleet.pools) {
      for (std::int64_t n = 0; n < pool.nodes; ++n) {
        node_cpu_capacity_.push_back(pool.cpu_cores.value_or(1e18));
        node_memory_capacity_.push_back(pool.memory_gb.value_or(1e18));
      }
    }
    if (fleet.pools.empty()) {
      node_cpu_capacity_ = {1e18};
      node_memory_capacity_ = {1e18};
    }
    node_cpu_.assign(node_cpu_capacity_.size(), 0);
    node_memory_.assign(node_memory_capacity_.size(), 0);
  }

  void OnJobStarted(const JobStarted& e) override {
    held_[e.job] = e.placement;
    Apply(e.placement, +1, e.request.id);
  }
  void OnJobFinished(const JobFinished& e) override {
    Apply(held_.at(e.job), -1, e.request.id);
    held_.erase(e.job);
  }
  void OnJobPreempted(const JobPreempted& e) override {
    Apply(held_.at(e.job), -1, e.request.id);
    held_.erase(e.job);
  }
  void OnJobResized(const JobResized& e) override {
    Apply(held_.at(e.job), -1, e.request.id);
    held_[e.job] = e.placement;
    Apply(e.placement, +1, e.request.id);
  }

 private:
  struct Gpu {
    int whole = 0;
    int milli = 0;
    std::uint8_t memory_slices = 0;  // MIG instances' memory-slice mask
    int instances = 0;
  };

  void Apply(const Allocation& a, int sign, const std::string& id) {
    for (const Grant& g : a.gpus) {
      ASSERT_LT(g.gpu, gpus_.size()) << id;
      Gpu& gpu = gpus_[g.gpu];
      if (g.kind == Grant::Kind::kWhole) {
        gpu.whole += sign;
      } else if (g.kind == Grant::Kind::kFraction) {
        gpu.milli += sign * g.milli;
      } else {
        const auto mask =
            static_cast<std::uint8_t>(((1U << g.profile->memory_slices) - 1U) << g.start);
        if (sign > 0) {
          EXPECT_EQ(gpu.memory_slices & mask, 0)
              << id << ": MIG instances overlap on GPU " << g.gpu;
        }
        gpu.memory_slices = static_cast<std::uint8_t>(sign > 0 ? gpu.memory_slices | mask
                                                               : gpu.memory_slices & ~mask);
        gpu.instances += sign;
      }
      const int modes = (gpu.whole > 0) + (gpu.milli > 0) + (gpu.instances > 0);
      EXPECT_LE(gpu.whole, 1) << id << ": GPU " << g.gpu << " held whole twice";
      EXPECT_LE(gpu.milli, 1000) << id << ": GPU " << g.gpu << " shared beyond 1000 milli";
      EXPECT_LE(modes, 1) << id << ": GPU " << g.gpu << " held in two ways";
    }
    for (const NodeShare& s : a.nodes) {
      ASSERT_LT(s.node, node_cpu_.size()) << id;
      node_cpu_[s.node] += sign * s.cpu_cores;
      node_memory_[s.node] += sign * s.memory_gb;
      EXPECT_LE(node_cpu_[s.node], node_cpu_capacity_[s.node] + 1e-6) << id << ": node " << s.node;
      EXPECT_LE(node_memory_[s.node], node_memory_capacity_[s.node] + 1e-6)
          << id << ": node " << s.node;
    }
  }

  std::vector<Gpu> gpus_;
  std::vector<double> node_cpu_;
  std::vector<double> node_memory_;
  std::vector<double> node_cpu_capacity_;
  std::vector<double> node_memory_capacity_;
  std::map<JobIndex, Allocation> held_;
};

// Re-checks every start against the job's request, written independently of the engine.
class ConstraintChecker final : public SimulationObserver {
 public:
  explicit ConstraintChecker(const FleetSpec& fleet) : topology_(fleet) {
    for (const PoolSpec& pool : fleet.pools) {
      for (std::int64_t g = 0; g < pool.gpus(); ++g) {
        pool_of_gpu_.push_back(&pool);
      }
    }
    if (fleet.pools.empty()) {  // a bare fleet: GPUs without a model, on demand
      pool_of_gpu_.assign(static_cast<std::size_t>(fleet.gpus), &bare_pool_);
    }
  }

  void OnJobStarted(const JobStarted& e) override {
    EXPECT_GE(e.time, e.request.submit) << e.request.id << ": started before it was submitted";
    Check(e.request, e.placement);
  }
  void OnJobResized(const JobResized& e) override {
    EXPECT_TRUE(e.request.IsElastic()) << e.request.id << ": resized a fixed-size job";
    Check(e.request, e.placement);
  }
  // Nothing new may land on a node announced for reclaim or down.
  void OnNodeNoticed(const NodeNoticed& e) override { unavailable_.insert(e.node); }
  void OnNodeWentDown(const NodeWentDown& e) override { unavailable_.insert(e.node); }
  void OnNodeCameBack(const NodeCameBack& e) override { unavailable_.erase(e.node); }
  void OnJobPreempted(const JobPreempted& e) override {
    EXPECT_TRUE(e.request.preemptible || e.cause != StopCause::kPolicy)
        << e.request.id << ": preempted a non-preemptible job";
  }

 private:
  void Check(const JobRequest& r, const Allocation& a) {
    const std::string& id = r.id;
    if (r.IsCpuOnly()) {
      EXPECT_TRUE(a.gpus.empty()) << id;
      ASSERT_EQ(a.nodes.size(), 1U) << id;
      EXPECT_NEAR(a.nodes[0].cpu_cores, static_cast<double>(r.cpu_milli) / 1000, 1e-9) << id;
      return;
    }
    for (const NodeShare& share : a.nodes) {
      EXPECT_EQ(unavailable_.count(share.node), 0U) << id << ": placed on unavailable node";
    }
    std::vector<GpuId> gpus;
    for (const Grant& g : a.gpus) {
      gpus.push_back(g.gpu);
      CheckGpu(r, g);
      EXPECT_EQ(unavailable_.count(topology_.NodeOf(g.gpu)), 0U)
          << id << ": GPU " << g.gpu << " is on an unavailable node";
    }
    std::sort(gpus.begin(), gpus.end());
    if (r.sharing == GpuSharing::kNone) {
      EXPECT_GE(static_cast<std::int64_t>(gpus.size()), r.gpus) << id;
      EXPECT_LE(static_cast<std::int64_t>(gpus.size()), r.MaxGpus()) << id;
    } else {
      EXPECT_EQ(gpus.size(), 1U) << id;
    }
    if (r.nvlink == NvlinkLocality::kRequired || r.pow2_block) {
      EXPECT_EQ(topology_.SpreadOf(gpus).domains, 1) << id;
    }
    if (r.pow2_block) {
      EXPECT_TRUE(std::has_single_bit(gpus.size())) << id;
      EXPECT_EQ(gpus.back() - gpus.front() + 1, gpus.size()) << id << ": block not contiguous";
      const GpuId domain_start = topology_.DomainGpus(topology_.DomainOf(gpus.front())).front();
      EXPECT_EQ((gpus.front() - domain_start) % gpus.size(), 0U) << id << ": block not aligned";
    }
    double cpu = 0;
    for (const NodeShare& s : a.nodes) {
      cpu += s.cpu_cores;
    }
    EXPECT_NEAR(cpu, static_cast<double>(r.cpu_milli) / 1000, 1e-6) << id;
  }

  void CheckGpu(const JobRequest& r, const Grant& g) {
    const PoolSpec& pool = *pool_of_gpu_.at(g.gpu);
    const std::string& id = r.id;
    if (!r.gpu_models.empty()) {
      const auto& names = r.gpu_models;
      const bool named =
          std::find(names.begin(), names.end(), pool.gpu.name) != names.end() ||
          std::any_of(pool.gpu.aliases.begin(), pool.gpu.aliases.end(),
                      [&](const std::string& alias) {
                        return std::find(names.begin(), names.end(), alias) != names.end();
                      });
      EXPECT_TRUE(named) << id << ": GPU " << g.gpu << " is a " << pool.gpu.name;
    }
    if (!r.spot_eligible) {
      EXPECT_NE(pool.tier, PriceTier::kSpot) << id;
    }
    switch (r.sharing) {
      case GpuSharing::kNone:
        EXPECT_EQ(g.kind, Grant::Kind::kWhole) << id;
        break;
      case GpuSharing::kMig:
        ASSERT_EQ(g.kind, Grant::Kind::kMig) << id;
        EXPECT_GE(g.profile->memory_gb, r.gpu_memory_gb) << id;
        break;
      case GpuSharing::kFraction:
        ASSERT_EQ(g.kind, Grant::Kind::kFraction) << id;
        EXPECT_EQ(g.milli, r.gpu_milli) << id;
        break;
    }
  }

  Topology topology_;
  PoolSpec bare_pool_;
  std::vector<const PoolSpec*> pool_of_gpu_;
  std::set<NodeId> unavailable_;
};

// Every start, in order: the job, its time and the GPUs it got.
class ScheduleRecorder final : public SimulationObserver {
 public:
  struct Start {
    JobIndex job;
    SimTime time;
    std::vector<GpuId> gpus;
    double gpu_share;
    bool operator==(const Start&) const = default;
  };
  void OnJobStarted(const JobStarted& e) override {
    starts.push_back({e.job, e.time, e.summary.gpus, e.summary.gpu_share});
  }
  std::vector<Start> starts;
};

enum class Fleet { kBare32, kMixed };

struct Case {
  std::string policy;
  std::string param;  // a choice parameter set to `value`; "" for the defaults
  std::string value;
  Fleet fleet;
  std::uint64_t seed;
};

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  std::string name = c.policy + (c.param.empty() ? "" : "_" + c.param + "_" + c.value);
  std::replace_if(
      name.begin(), name.end(), [](char ch) { return std::isalnum(ch) == 0; }, '_');
  return fmt::format("{}_{}_seed{}", name, c.fleet == Fleet::kMixed ? "mixed" : "bare", c.seed);
}

// Every policy with its defaults, and with each other value of each choice parameter.
std::vector<Case> AllCases() {
  std::vector<Case> cases;
  const PolicyRegistry& registry = testing::EveryPolicy();
  for (const PolicyInfo& info : registry.policies()) {
    std::vector<std::pair<std::string, std::string>> variants = {{"", ""}};
    for (const ParamSpec& spec : info.params) {
      for (const std::string& choice : spec.choices) {
        if (ParamValue{choice} != spec.default_value) {
          variants.emplace_back(spec.name, choice);
        }
      }
    }
    for (const auto& [param, value] : variants) {
      for (const Fleet fleet : {Fleet::kBare32, Fleet::kMixed}) {
        for (const std::uint64_t seed : {1U, 2U, 3U}) {
          cases.push_back({info.name, param, value, fleet, seed});
        }
      }
    }
  }
  return cases;
}

Workload PlainWorkload(std::uint64_t seed) {
  GeneratorSpec spec;
  spec.jobs = 300;
  spec.mean_interarrival_s = 120;
  spec.duration_median_s = 1800;
  spec.duration_sigma = 1.2;
  spec.gpus = {{1, 2, 3, 4, 8, 16, 40}, {30, 20, 5, 15, 15, 10, 1}};  // 40 > fleet: rejected
  spec.priority = {{1, 2, 3}, {5, 3, 1}};
  Workload w;
  GenerateJobs(spec, RandomStreams(seed, 0), w);
  SortBySubmit(w);
  return w;
}

FleetSpec FleetFor(const Case& c) {
  return c.fleet == Fleet::kMixed ? MixedFleet() : FleetSpec{.gpus = 32, .pools = {}};
}

Workload WorkloadFor(const Case& c) {
  return c.fleet == Fleet::kMixed ? testing::RichWorkload(c.seed, 400, /*lifecycle=*/true)
                                  : PlainWorkload(c.seed);
}

SimulationOptions Options(std::uint64_t seed) {
  return {.reference_gpu = *BuiltinCatalog().FindGpu("H100-SXM"),
          .speed = {},
          .organization = {},
          .seed = seed};
}

std::vector<JobRecordRow> RunWithParams(const Case& c, const PolicyParams& params,
                                        const Workload& w, bool check,
                                        ScheduleRecorder* schedule = nullptr) {
  const PolicyRegistry& registry = testing::EveryPolicy();
  const PolicyInfo* info = registry.Find(c.policy);
  const FleetSpec fleet = FleetFor(c);
  Simulation sim(fleet, w, info->make(params), c.policy, Options(c.seed));
  JobLog log;
  CapacityModel capacity(fleet);
  ConstraintChecker constraints(fleet);
  sim.AddObserver(&log);
  if (schedule != nullptr) {
    sim.AddObserver(schedule);
  }
  if (check) {
    sim.AddObserver(&capacity);
    sim.AddObserver(&constraints);
  }
  const Status status = sim.RunUntilIdle();
  EXPECT_TRUE(status.ok()) << status.message();
  sim.Finish();
  return log.rows();
}

std::vector<JobRecordRow> RunPolicy(const Case& c, const Workload& w, bool check,
                                    ScheduleRecorder* schedule = nullptr) {
  PolicyParams params = DefaultParams(*testing::EveryPolicy().Find(c.policy));
  if (!c.param.empty()) {
    params[c.param] = c.value;
  }
  return RunWithParams(c, params, w, check, schedule);
}

class PolicyConformanceTest : public ::testing::TestWithParam<Case> {};

TEST_P(PolicyConformanceTest, LegalExclusiveWithinConstraintsAndLive) {
  const Workload w = WorkloadFor(GetParam());
  const std::vector<JobRecordRow> rows = RunPolicy(GetParam(), w, true);
  std::int64_t completed = 0;
  for (const JobRecordRow& row : rows) {
    EXPECT_TRUE(row.state == FinalState::kCompleted || row.state == FinalState::kRejected)
        << row.id << ": " << FinalStateName(row.state) << " " << row.reason;
    if (row.state == FinalState::kCompleted) {
      ++completed;
      EXPECT_GE(row.start, row.submit) << row.id;
    }
    if (GetParam().fleet == Fleet::kBare32) {
      EXPECT_EQ(row.state == FinalState::kRejected, row.gpus > 32) << row.id;
    }
  }
  EXPECT_GT(completed, static_cast<std::int64_t>(rows.size()) / 2);
}

TEST_P(PolicyConformanceTest, Deterministic) {
  const Workload w = WorkloadFor(GetParam());
  ScheduleRecorder first;
  ScheduleRecorder second;
  const std::vector<JobRecordRow> a = RunPolicy(GetParam(), w, false, &first);
  const std::vector<JobRecordRow> b = RunPolicy(GetParam(), w, false, &second);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].end, b[i].end) << a[i].id;
    EXPECT_EQ(a[i].state, b[i].state) << a[i].id;
  }
  EXPECT_TRUE(first.starts == second.starts);
}

INSTANTIATE_TEST_SUITE_P(AllPolicies, PolicyConformanceTest, ::testing::ValuesIn(AllCases()),
                         CaseName);

// first-fit without a lookahead scans the queue grouped by placement shape and skips a shape once
// it failed in a call (policy/queue_groups.h); with a lookahead too large to bind it tries every
// queued job. On every kind of request, with preemptions, the two must decide alike.
TEST(QueueGroupsTest, FirstFitByShapeDecidesAsThePlainScan) {
  for (const Fleet fleet : {Fleet::kMixed, Fleet::kBare32}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const Case c{.policy = "first-fit", .param = "", .value = "", .fleet = fleet, .seed = seed};
      const Workload w = WorkloadFor(c);
      PolicyParams by_shape = DefaultParams(*testing::EveryPolicy().Find("first-fit"));
      PolicyParams plain = by_shape;
      plain["lookahead"] = std::int64_t{1'000'000'000};
      ScheduleRecorder shape_schedule;
      ScheduleRecorder plain_schedule;
      const std::vector<JobRecordRow> a = RunWithParams(c, by_shape, w, false, &shape_schedule);
      const std::vector<JobRecordRow> b = RunWithParams(c, plain, w, false, &plain_schedule);
      ASSERT_EQ(a.size(), b.size());
      for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].start, b[i].start) << a[i].id << " seed " << seed;
        EXPECT_EQ(a[i].end, b[i].end) << a[i].id << " seed " << seed;
      }
      EXPECT_TRUE(shape_schedule.starts == plain_schedule.starts) << "seed " << seed;
      EXPECT_GT(shape_schedule.starts.size(), 100U);
    }
  }
}

// The progress property's own check: a policy that never starts anything, on a feasible queue.
class DoNothingPolicy final : public Policy {
 public:
  std::vector<Decision> Decide(const ClusterView& /*view*/,
                               PlacementPlanner& /*planner*/) override {
    return {};
  }
};

TEST(PolicyProgressTest, APolicyThatNeverStartsAnythingIsReportedAsADeadlock) {
  const Workload w = PlainWorkload(1);
  Simulation sim(FleetSpec{.gpus = 32, .pools = {}}, w, std::make_unique<DoNothingPolicy>(),
                 "do-nothing");
  const Status status = sim.RunUntilIdle();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message().rfind("policy 'do-nothing' left ", 0), 0U) << status.message();
  EXPECT_NE(status.message().find("(deadlock)"), std::string::npos) << status.message();
}

}  // namespace
}  // namespace fleetsim
