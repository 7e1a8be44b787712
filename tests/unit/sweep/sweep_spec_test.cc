// Sweep specs: loading (every problem at once, at its JSON pointer, with "did you mean") and
// expansion (products, zip groups, exclusions, parameters that do not apply, variants and
// pointers applied to the document, each point checked by the scenario loader). Specs written by
// a test are in a MemoryFileSystem ("work/"); the data files are read from the disk.
#include "fleetsim/sweep/sweep_spec.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "fleetsim/core/file_system.h"
#include "fleetsim/scenario/scenario.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

using testing::DataPath;

class SweepSpecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string base;
    ASSERT_TRUE(DiskFileSystem().ReadFile(DataPath("sweep/base.json"), base).ok());
    ASSERT_TRUE(files_.CreateDirectories(dir_).ok());
    ASSERT_TRUE(files_.WriteFile(dir_ + "/base.json", base).ok());
  }

  // Writes work/spec.json.
  std::string WriteSpec(const std::string& text) {
    const std::string path = dir_ + "/spec.json";
    EXPECT_TRUE(files_.WriteFile(path, text).ok());
    return path;
  }

  // A spec over base.json with these axes (and any extra top-level members).
  SweepLoad Load(const std::string& axes, const std::string& extra = "") {
    const std::string path = WriteSpec(
        R"({"format_version": 1, "kind": "sweep", "name": "t", "base": "base.json", "axes": )" +
        axes + extra + "}");
    return LoadSweepSpec(files_, path, registry_, false);
  }

  // Expands a spec, reading its bases from the file system it was loaded from.
  SweepExpansion Expand(const SweepLoad& load) {
    EXPECT_TRUE(load.spec) << load.diagnostics.Format("spec") << load.file_status;
    return ExpandSweep(*load.spec, registry_, {});
  }

  std::string Problems(const SweepLoad& load) { return load.diagnostics.Format("spec"); }

  MemoryFileSystem files_;
  std::string dir_ = "work";
  PolicyRegistry registry_ = BuiltinPolicies();
};

// Replaces `from` with `to` in work/base.json.
void EditBase(MemoryFileSystem& files, const std::string& from, const std::string& to) {
  std::string base;
  ASSERT_TRUE(files.ReadFile("work/base.json", base).ok());
  ASSERT_NE(base.find(from), std::string::npos) << from;
  base.replace(base.find(from), from.size(), to);
  ASSERT_TRUE(files.WriteFile("work/base.json", base).ok());
}

TEST_F(SweepSpecTest, TheGridFixtureExpandsAsDocumented) {
  const SweepLoad load =
      LoadSweepSpec(DiskFileSystem(), DataPath("sweep/grid.json"), registry_, true);
  const SweepExpansion e = Expand(load);
  // 3 policies x 2 decays x 2 node counts x 2 fleets x 3 seeds = 72; backfill on b200 excluded
  // (12); fifo and backfill have no decay, so half their combinations repeat a run (12 + 6).
  EXPECT_EQ(e.excluded, 12U);
  EXPECT_EQ(e.duplicates, 18U);
  ASSERT_EQ(e.points.size(), 42U);
  EXPECT_TRUE(e.errors.empty());
  const SweepPoint& first = e.points.front();
  EXPECT_EQ(first.policy, "fifo");
  EXPECT_EQ(first.seed, 1U);
  EXPECT_EQ(first.labels, (std::vector<std::string>{"fifo", "", "1", "h100", "1"}));
  ASSERT_NE(first.scenario_loaded, nullptr) << first.error;
  EXPECT_EQ(first.scenario_loaded->fleet.pools.at(0).nodes, 1);
  EXPECT_EQ(first.scenario_loaded->policy.params.count("decay"), 0U)
      << "fifo has no decay (loading it would have failed: fifo declares none)";
  const SweepPoint& last = e.points.back();
  EXPECT_EQ(last.policy, "constraint-aware");
  EXPECT_EQ(last.labels, (std::vector<std::string>{"constraint-aware", "0.95", "2", "b200", "3"}));
  ASSERT_NE(last.scenario_loaded, nullptr) << last.error;
  EXPECT_EQ(last.scenario_loaded->fleet.pools.at(0).nodes, 2);
  EXPECT_EQ(last.scenario_loaded->fleet.pools.at(0).name, "b200");
  EXPECT_EQ(std::get<double>(last.scenario_loaded->policy.params.at("decay")), 0.95);
}

TEST_F(SweepSpecTest, IdsAreStableAndDistinct) {
  const SweepExpansion a =
      Expand(LoadSweepSpec(DiskFileSystem(), DataPath("sweep/grid.json"), registry_, false));
  const SweepExpansion b =
      Expand(LoadSweepSpec(DiskFileSystem(), DataPath("sweep/grid.json"), registry_, false));
  std::set<std::string> ids;
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    EXPECT_EQ(a.points[i].id, b.points[i].id);
    EXPECT_EQ(a.points[i].id.size(), 16U);
    ids.insert(a.points[i].id);
  }
  EXPECT_EQ(ids.size(), a.points.size());
}

TEST_F(SweepSpecTest, ZippedAxesMoveTogether) {
  const SweepExpansion e = Expand(Load(
      R"([{"name": "nodes", "pointer": "/fleet/pools/0/nodes", "values": [1, 2, 3]},
          {"name": "jobs", "pointer": "/generator/jobs", "values": [10, 20, 30]}])",
      R"(, "zip": [["nodes", "jobs"]])"));
  ASSERT_EQ(e.points.size(), 3U);
  EXPECT_EQ(e.points[2].labels, (std::vector<std::string>{"3", "30"}));
}

TEST_F(SweepSpecTest, WithoutASeedAxisThePointRunsTheScenariosSeed) {
  const SweepExpansion e = Expand(Load(R"([{"name": "policy", "values": ["fifo"]}])"));
  ASSERT_EQ(e.points.size(), 1U);
  EXPECT_EQ(e.points[0].seed, 5U);
}

TEST_F(SweepSpecTest, ThePolicyAxisKeepsTheBaseParametersOnlyForTheBasePolicy) {
  const SweepExpansion e =
      Expand(Load(R"([{"name": "policy", "values": ["constraint-aware", "backfill"]}])"));
  ASSERT_EQ(e.points.size(), 2U);
  ASSERT_NE(e.points[0].scenario_loaded, nullptr) << e.points[0].error;
  ASSERT_NE(e.points[1].scenario_loaded, nullptr) << e.points[1].error;
  EXPECT_EQ(std::get<double>(e.points[0].scenario_loaded->policy.params.at("decay")), 0.9);
  EXPECT_EQ(e.points[1].scenario_loaded->policy.params.count("decay"), 0U);
}

// The expander loads a document's policy block apart from the rest, which it loads once for every
// policy, and shares job lists between documents; what it builds must be what the loader builds
// from the whole document, written here by hand from the point's labels (grid.json's axes:
// policy, decay, nodes, fleet, seed).
TEST_F(SweepSpecTest, EveryPointLoadsAsItsWholeDocumentDoes) {
  const SweepLoad load =
      LoadSweepSpec(DiskFileSystem(), DataPath("sweep/grid.json"), registry_, false);
  const SweepExpansion e = Expand(load);
  ASSERT_EQ(e.points.size(), 42U);
  std::string base_text;
  ASSERT_TRUE(DiskFileSystem().ReadFile(DataPath("sweep/base.json"), base_text).ok());
  for (const SweepPoint& point : e.points) {
    ASSERT_NE(point.scenario_loaded, nullptr) << point.error;
    nlohmann::json document = nlohmann::json::parse(base_text);
    if (point.labels[3] == "b200") {
      document["fleet"]["pools"] = nlohmann::json::parse(
          R"([{"name": "b200", "template": "hgx-b200", "nodes": 1, "tier": "on-demand"}])");
    }
    document["fleet"]["pools"][0]["nodes"] = std::stoi(point.labels[2]);
    if (point.labels[0] == "constraint-aware") {
      document["policy"]["params"]["decay"] = std::stod(point.labels[1]);
    } else {
      document["policy"] = {{"name", point.labels[0]}};
    }
    const LoadResult whole =
        ParseScenario(document.dump(), load.spec->base[point.base], registry_, {});
    ASSERT_TRUE(whole.scenario) << whole.diagnostics.Format("document");
    EXPECT_EQ(point.scenario_loaded->policy.name, whole.scenario->policy.name);
    EXPECT_EQ(point.scenario_loaded->policy.params, whole.scenario->policy.params);
    EXPECT_EQ(point.scenario_loaded->fleet.pools.size(), whole.scenario->fleet.pools.size());
    EXPECT_EQ(point.scenario_loaded->fleet.pools.at(0).nodes,
              whole.scenario->fleet.pools.at(0).nodes);
    EXPECT_EQ(point.scenario_loaded->fleet.pools.at(0).name,
              whole.scenario->fleet.pools.at(0).name);
  }
}

// Sweeps over a base scenario that lists two jobs (the first naming a GPU family, which the
// catalog resolves).
class ListedJobsTest : public SweepSpecTest {
 protected:
  void SetUp() override {
    SweepSpecTest::SetUp();
    EditBase(files_, R"("generator": {)",
             R"("jobs": [{"id": "a", "submit_s": 0, "gpus": 2, "duration_s": 600,
                          "gpu_models": ["A100"]},
                         {"id": "b", "submit_s": 9, "gpus": 1, "duration_s": 60}],
                "generator": {)");
  }

  // Expands over two node counts, expecting two valid points that do not share their jobs.
  SweepExpansion ExpandTwoPointsWithTheirOwnJobs() {
    SweepExpansion e =
        Expand(Load(R"([{"name": "nodes", "pointer": "/fleet/pools/0/nodes", "values": [1, 2]}])"));
    EXPECT_EQ(e.points.size(), 2U);
    for (const SweepPoint& point : e.points) {
      EXPECT_NE(point.scenario_loaded, nullptr) << point.error;
    }
    if (e.points.size() == 2 && e.points[0].scenario_loaded && e.points[1].scenario_loaded) {
      EXPECT_NE(e.points[0].scenario_loaded->listed_jobs.get(),
                e.points[1].scenario_loaded->listed_jobs.get());
    }
    return e;
  }
};

// Points whose documents differ only outside "jobs" share one parsed list of the listed jobs (a
// plan over node counts holds one copy, not one per candidate); a change inside "jobs" gives a
// point its own.
TEST_F(ListedJobsTest, PointsShareTheirListedJobsWhereTheJobsAreTheSame) {
  const SweepExpansion e =
      Expand(Load(R"([{"name": "nodes", "pointer": "/fleet/pools/0/nodes", "values": [1, 2, 3]},
               {"name": "run", "pointer": "/jobs/1/duration_s", "values": [60, 120]}])"));
  ASSERT_EQ(e.points.size(), 6U);
  std::string base;
  ASSERT_TRUE(files_.ReadFile("work/base.json", base).ok());
  for (const SweepPoint& point : e.points) {
    ASSERT_NE(point.scenario_loaded, nullptr) << point.error;
    const std::vector<Job>& jobs = *point.scenario_loaded->listed_jobs;
    // What loading the point's whole document, uncached, gives.
    nlohmann::json document = nlohmann::json::parse(base);
    document["fleet"]["pools"][0]["nodes"] = std::stoi(point.labels[0]);
    document["jobs"][1]["duration_s"] = std::stoi(point.labels[1]);
    const LoadResult whole = ParseScenario(document.dump(), "work/base.json", registry_, {});
    ASSERT_TRUE(whole.scenario) << whole.diagnostics.Format("document");
    const std::vector<Job>& expected = *whole.scenario->listed_jobs;
    ASSERT_EQ(jobs.size(), expected.size());
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      EXPECT_EQ(jobs[j].request.id, expected[j].request.id);
      EXPECT_EQ(jobs[j].request.gpu_models, expected[j].request.gpu_models);
      EXPECT_EQ(jobs[j].request.gpus, expected[j].request.gpus);
      EXPECT_EQ(jobs[j].request.submit, expected[j].request.submit);
      EXPECT_EQ(jobs[j].truth.duration, expected[j].truth.duration);
    }
    EXPECT_NE(jobs[0].request.gpu_models, std::vector<std::string>{"A100"})
        << "the family prefix is resolved to the catalog's models (A100-80GB, A100-40GB)";
    EXPECT_EQ(jobs[1].truth.duration, std::stoi(point.labels[1]) * 1000);
  }
  // Points 0, 2, 4 have run 60 (nodes 1, 2, 3); 1, 3, 5 run 120.
  EXPECT_EQ(e.points[0].scenario_loaded->listed_jobs.get(),
            e.points[2].scenario_loaded->listed_jobs.get());
  EXPECT_EQ(e.points[0].scenario_loaded->listed_jobs.get(),
            e.points[4].scenario_loaded->listed_jobs.get());
  EXPECT_EQ(e.points[1].scenario_loaded->listed_jobs.get(),
            e.points[5].scenario_loaded->listed_jobs.get());
  EXPECT_NE(e.points[0].scenario_loaded->listed_jobs.get(),
            e.points[1].scenario_loaded->listed_jobs.get());
}

// A scenario with its own catalog (here written in place) resolves its jobs against it, and that
// catalog lives only as long as the load: nothing is shared.
TEST_F(ListedJobsTest, PointsOfAScenarioWithItsOwnCatalogDoNotShareTheirListedJobs) {
  EditBase(files_, R"("tier": "on-demand"}]})",
           R"("tier": "on-demand"}],
              "catalog": {"format_version": 1, "node_templates": [{"name": "mine-4",
                "gpu": "V100-32GB", "gpus_per_node": 4, "nvlink_domain_gpus": 4,
                "nodes_per_rack": 8}]}})");
  ExpandTwoPointsWithTheirOwnJobs();
}

// A job list with a warning is never shared, so that every point's load reports it (the
// expansion keeps one copy of each warning).
TEST_F(ListedJobsTest, PointsWhoseListedJobsWarnDoNotShareThem) {
  EditBase(files_, R"("id": "b",)", R"("id": "b", "unknown_field": 1,)");
  const SweepExpansion warned = ExpandTwoPointsWithTheirOwnJobs();
  ASSERT_EQ(warned.warnings.size(), 1U);
  EXPECT_NE(warned.warnings[0].find("/jobs/1"), std::string::npos) << warned.warnings[0];
}

TEST_F(SweepSpecTest, AParameterThePolicyRefusesMakesOnlyItsPointsInvalid) {
  const SweepExpansion e = Expand(Load(R"([{"param": "decay", "values": [0.5, 7]}])"));
  ASSERT_EQ(e.points.size(), 2U);
  ASSERT_NE(e.points[0].scenario_loaded, nullptr) << e.points[0].error;
  EXPECT_EQ(std::get<double>(e.points[0].scenario_loaded->policy.params.at("decay")), 0.5);
  EXPECT_EQ(e.points[1].scenario_loaded, nullptr);
  EXPECT_NE(e.points[1].error.find("base.json: /policy/params/decay: error:"), std::string::npos)
      << e.points[1].error;
}

TEST_F(SweepSpecTest, APolicyParametersFileIsReadBesideTheBase) {
  EditBase(files_, R"("params": {"decay": 0.9})", R"("params": "params.json")");
  ASSERT_TRUE(files_
                  .WriteFile(dir_ + "/params.json",
                             R"({"constraint-aware": {"decay": 0.7}, "fair-share": {"decay": 9}})")
                  .ok());
  const SweepExpansion e =
      Expand(Load(R"([{"name": "nodes", "pointer": "/fleet/pools/0/nodes", "values": [1, 3]}])"));
  ASSERT_EQ(e.points.size(), 2U);
  for (const SweepPoint& point : e.points) {
    ASSERT_NE(point.scenario_loaded, nullptr) << point.error;
    EXPECT_EQ(std::get<double>(point.scenario_loaded->policy.params.at("decay")), 0.7);
  }
}

TEST_F(SweepSpecTest, APolicyOfNullIsTheLoadersError) {
  EditBase(files_, R"({"name": "constraint-aware", "params": {"decay": 0.9}})", "null");
  const SweepExpansion e = Expand(Load(R"([{"name": "seed", "values": [1]}])"));
  ASSERT_EQ(e.points.size(), 1U);
  EXPECT_EQ(e.points[0].scenario_loaded, nullptr);
  EXPECT_NE(e.points[0].error.find("/policy: error: expected an object"), std::string::npos)
      << e.points[0].error;
}

TEST_F(SweepSpecTest, PolicyAxesReachThePolicyBlockByVariantAndByPointer) {
  const SweepExpansion e = Expand(Load(
      R"([{"name": "p", "pointer": "/policy/name", "values": ["backfill"]},
          {"name": "v", "variants": [{"name": "slow", "patch": {"policy": {"params": {"decay": 0.6}}}}]}])"));
  ASSERT_EQ(e.points.size(), 1U);
  ASSERT_EQ(e.points[0].scenario_loaded, nullptr) << "backfill has no decay";
  EXPECT_NE(e.points[0].error.find("policy 'backfill' has no parameter 'decay'"), std::string::npos)
      << e.points[0].error;
  const SweepExpansion patched = Expand(Load(
      R"([{"name": "v", "variants": [{"name": "slow", "patch": {"policy": {"params": {"decay": 0.6}}}}]}])"));
  ASSERT_EQ(patched.points.size(), 1U);
  ASSERT_NE(patched.points[0].scenario_loaded, nullptr) << patched.points[0].error;
  EXPECT_EQ(std::get<double>(patched.points[0].scenario_loaded->policy.params.at("decay")), 0.6);
}

TEST_F(SweepSpecTest, AnUnknownPolicyKeyFailsThePointUnderStrict) {
  EditBase(files_, R"("params": {"decay": 0.9})", R"("params": {"decay": 0.9}, "colour": 1)");
  const SweepLoad load = Load(R"([{"name": "seed", "values": [1]}])");
  const SweepExpansion lenient = Expand(load);
  ASSERT_EQ(lenient.points.size(), 1U);
  EXPECT_NE(lenient.points[0].scenario_loaded, nullptr);
  const SweepExpansion strict = ExpandSweep(*load.spec, registry_, {.strict = true});
  ASSERT_EQ(strict.points.size(), 1U);
  EXPECT_EQ(strict.points[0].scenario_loaded, nullptr);
  EXPECT_NE(strict.points[0].error.find("/policy/colour"), std::string::npos)
      << strict.points[0].error;
}

TEST_F(SweepSpecTest, WarningsAreTheLoadersInItsOrderAndOnlyForPointsThatLoad) {
  EditBase(files_, R"("params": {"decay": 0.9})", R"("params": {"decay": 0.9}, "colour": 1)");
  EditBase(files_, R"("run": {"until_s": 86400})", R"("run": {"until_s": 86400, "extra": 1})");
  const SweepExpansion e = Expand(Load(R"([{"param": "decay", "values": [0.5]}])"));
  ASSERT_EQ(e.warnings.size(), 2U);
  EXPECT_NE(e.warnings[0].find("/policy/colour"), std::string::npos) << e.warnings[0];
  EXPECT_NE(e.warnings[1].find("/run/extra"), std::string::npos) << e.warnings[1];
  const SweepExpansion invalid = Expand(Load(R"([{"param": "decay", "values": [7]}])"));
  ASSERT_EQ(invalid.points.size(), 1U);
  EXPECT_EQ(invalid.points[0].scenario_loaded, nullptr);
  EXPECT_TRUE(invalid.warnings.empty()) << invalid.warnings[0];
}

TEST_F(SweepSpecTest, EveryProblemOfASpecIsReportedAtOnce) {
  const SweepLoad load = Load(
      R"([{"name": "policy", "values": ["fifo", "constraint-awar"]},
          {"param": "decai", "values": [0.5]},
          {"name": "n", "pointer": "fleet/pools", "values": [1]},
          {"name": "empty", "pointer": "/seed", "values": []},
          {"name": "status", "pointer": "/seed", "values": [1]},
          {"name": "s", "pointer": "/seed", "values": [1, 1]}])",
      R"(, "zip": [["polcy", "n"]], "exclude": [{"policy": "backfill"}], "baseline": "fifo")");
  EXPECT_FALSE(load.spec);
  const std::string problems = Problems(load);
  EXPECT_NE(problems.find("/axes/0/values/1: error: expected a policy name"), std::string::npos)
      << problems;
  EXPECT_NE(problems.find("did you mean 'constraint-aware'?"), std::string::npos) << problems;
  EXPECT_NE(problems.find("/axes/1/param: error: no policy has a parameter 'decai', did you "
                          "mean 'decay'?"),
            std::string::npos)
      << problems;
  EXPECT_NE(problems.find("/axes/2/pointer: error: expected a JSON Pointer"), std::string::npos)
      << problems;
  EXPECT_NE(problems.find("/axes/3/values: error: expected at least one value, found none"),
            std::string::npos)
      << problems;
  EXPECT_NE(problems.find("/axes/4/name: error: expected an axis name that is not empty and is "
                          "not a results column"),
            std::string::npos)
      << problems;
  EXPECT_NE(problems.find("/axes/5: error: the value 1 is listed twice"), std::string::npos)
      << problems;
  EXPECT_NE(problems.find("/zip/0/0: error: no axis is named 'polcy', did you mean 'policy'?"),
            std::string::npos)
      << problems;
  EXPECT_NE(problems.find("/exclude/0/policy: error: axis 'policy' has no value backfill"),
            std::string::npos)
      << problems;
}

TEST_F(SweepSpecTest, ZippedAxesOfUnequalLengthAreAnError) {
  const SweepLoad load = Load(
      R"([{"name": "a", "pointer": "/seed", "values": [1, 2]},
          {"name": "b", "pointer": "/generator/jobs", "values": [1]}])",
      R"(, "zip": [["a", "b"]])");
  EXPECT_NE(Problems(load).find("/zip/0: error: zipped axes must have as many values each"),
            std::string::npos)
      << Problems(load);
}

TEST_F(SweepSpecTest, AMissingBaseFileIsAnError) {
  const std::string path =
      WriteSpec(R"({"format_version": 1, "kind": "sweep", "name": "t", "base": ["nope.json"]})");
  const SweepLoad load = LoadSweepSpec(files_, path, registry_, false);
  EXPECT_NE(Problems(load).find("/base/0: error: expected a scenario file, found no file at"),
            std::string::npos)
      << Problems(load);
}

TEST_F(SweepSpecTest, UnknownKeysWarnAndFailUnderStrict) {
  const std::string path = WriteSpec(
      R"({"format_version": 1, "kind": "sweep", "name": "t", "base": "base.json", "axis": []})");
  EXPECT_TRUE(LoadSweepSpec(files_, path, registry_, false).spec);
  const SweepLoad strict = LoadSweepSpec(files_, path, registry_, true);
  EXPECT_FALSE(strict.spec);
  EXPECT_NE(Problems(strict).find("did you mean 'axes'?"), std::string::npos) << Problems(strict);
}

TEST_F(SweepSpecTest, APointerToNothingIsAnErrorOfTheSpec) {
  const SweepExpansion e =
      Expand(Load(R"([{"name": "n", "pointer": "/fleet/pools/3/nodes", "values": [1]}])"));
  ASSERT_EQ(e.errors.size(), 1U);
  EXPECT_NE(e.errors[0].find("/axes/0/pointer: \"/fleet/pools/3/nodes\" points to nothing in "
                             "'base.json'"),
            std::string::npos)
      << e.errors[0];
}

// Found by the plan_spec fuzz target (2026-12-05): an empty token where the scenario has an
// array made nlohmann's contains() throw, and the uncaught exception ended the process.
TEST_F(SweepSpecTest, APointerWithATokenNoArrayTakesPointsToNothing) {
  for (const std::string pointer : {"/fleet/pools//pools/1/nodes", "/fleet/pools/x/nodes",
                                    "/fleet/pools/-/nodes", "/fleet/pools/01/nodes"}) {
    const SweepExpansion e =
        Expand(Load(fmt::format(R"([{{"name": "n", "pointer": "{}", "values": [1]}}])", pointer)));
    ASSERT_EQ(e.errors.size(), 1U) << pointer;
    EXPECT_NE(e.errors[0].find(fmt::format("\"{}\" points to nothing", pointer)), std::string::npos)
        << e.errors[0];
  }
}

TEST_F(SweepSpecTest, AValueTheScenarioRefusesMakesThatPointInvalidNamingIt) {
  const SweepExpansion e = Expand(
      Load(R"([{"name": "nodes", "pointer": "/fleet/pools/0/nodes", "values": [2, "four"]}])"));
  ASSERT_EQ(e.points.size(), 2U);
  EXPECT_TRUE(e.points[0].error.empty());
  EXPECT_EQ(e.points[1].scenario_loaded, nullptr);
  EXPECT_EQ(DescribePoint(*Load("[]").spec, e.points[1])
                .rfind("scenario=small, "
                       "policy=constraint-aware, seed=5",
                       0),
            0U);
  EXPECT_NE(e.points[1].error.find("/fleet/pools/0/nodes: error: expected an integer"),
            std::string::npos)
      << e.points[1].error;
}

TEST_F(SweepSpecTest, APatchThatBreaksTheScenarioMakesItsPointsInvalid) {
  const SweepExpansion e = Expand(Load(
      R"([{"name": "fleet", "variants": [{"name": "none", "patch": {"fleet": {"pools": []}}}]}])"));
  ASSERT_EQ(e.points.size(), 1U);
  EXPECT_NE(e.points[0].error.find("base.json: /fleet/pools: error: expected at least one pool"),
            std::string::npos)
      << e.points[0].error;
  EXPECT_EQ(e.points[0].seed, 5U) << "the seed the document names, though it did not load";
}

}  // namespace
}  // namespace fleetsim
