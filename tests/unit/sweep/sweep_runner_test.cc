// Running sweep points: every point gets a record whatever happens in the others — an illegal
// policy decision is recorded with its message and the runs after it still run — on one thread
// or several, with the same records; and the journal that records them in batches.
#include "fleetsim/sweep/sweep_runner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "fleetsim/sweep/sweep_results.h"
#include "fleetsim/sweep/sweep_store.h"
#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

// Starts the first queued job on a GPU the fleet does not have: always illegal.
class Broken final : public Policy {
 public:
  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& /*planner*/) override {
    if (view.queue().empty()) {
      return {};
    }
    const std::vector<GpuId> gpus = {GpuId{100000}};
    return {StartJob{view.queue().front(), WholeGpus(gpus)}};
  }
};

PolicyRegistry WithBroken() {
  PolicyRegistry registry = BuiltinPolicies();
  registry.Add({.name = "broken",
                .summary = "makes an illegal decision",
                .params = {},
                .make = [](const PolicyParams&) { return std::make_unique<Broken>(); }});
  return registry;
}

std::map<std::string, SweepRecord> RunAll(const SweepExpansion& e, const PolicyRegistry& registry,
                                          unsigned threads) {
  std::vector<const SweepPoint*> points;
  for (const SweepPoint& p : e.points) {
    points.push_back(&p);
  }
  std::map<std::string, SweepRecord> records;
  RunSweepPoints(points, registry, {.threads = threads, .check_invariants = false},
                 [&](const SweepPoint& p, SweepRecord&& r, const RunReport* report) {
                   EXPECT_EQ(report != nullptr, r.status == SweepRunStatus::kOk);
                   records[p.id] = std::move(r);
                 });
  return records;
}

TEST(SweepRunnerTest, AnIllegalDecisionIsRecordedAndTheOtherRunsFinish) {
  const std::string dir = testing::FreshTempDir();
  std::filesystem::copy_file(testing::DataPath("sweep/base.json"), dir + "/base.json");
  std::ofstream(dir + "/spec.json") << R"({"format_version": 1, "kind": "sweep", "name": "t",
    "base": "base.json", "axes": [{"name": "policy", "values": ["fifo", "broken", "backfill"]},
                                  {"name": "seed", "values": [1, 2]}]})";
  const PolicyRegistry registry = WithBroken();
  const SweepLoad load = LoadSweepSpec(DiskFileSystem(), dir + "/spec.json", registry, true);
  ASSERT_TRUE(load.spec) << load.diagnostics.Format("spec");
  const SweepExpansion e = ExpandSweep(*load.spec, registry, {});
  ASSERT_EQ(e.points.size(), 6U);
  const auto records = RunAll(e, registry, 1);
  ASSERT_EQ(records.size(), 6U);
  for (const SweepPoint& p : e.points) {
    const SweepRecord& r = records.at(p.id);
    if (p.policy == "broken") {
      EXPECT_EQ(r.status, SweepRunStatus::kIllegalDecision);
      EXPECT_NE(r.error.find("illegal decision"), std::string::npos) << r.error;
      EXPECT_TRUE(r.metrics.empty());
    } else {
      EXPECT_EQ(r.status, SweepRunStatus::kOk) << r.error;
      EXPECT_EQ(r.metrics.size(), SweepMetricNames().size());
    }
  }
  const auto threaded = RunAll(e, registry, 3);
  for (const auto& [id, record] : records) {
    EXPECT_EQ(RecordLine(threaded.at(id)), RecordLine(record));
  }
  std::filesystem::remove_all(dir);
}

// The journal keeps a record by reference until its batch is written: the batch's records get
// their metric texts then, and a record appended again before that is written once, as it then is.
TEST(SweepRunnerTest, TheJournalFormatsAndWritesEachWaitingRecordOnceAtTheFlush) {
  const std::string dir = testing::FreshTempDir();
  const std::string path = dir + "/" + kSweepStateDir + "/" + JournalName(1, 1);
  const auto journal_text = [&] {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  SweepRecords records;
  {
    JournalWriter journal(dir, JournalName(1, 1), std::chrono::hours(24 * 365));  // no timed flush
    ASSERT_TRUE(journal.ok()) << journal.status().message();
    ASSERT_TRUE(journal.Append(
        records["a"] = {
            .id = "a", .status = SweepRunStatus::kOk, .error = "", .metrics = {{.value = 0.25}}}));
    ASSERT_TRUE(journal.Flush());
    const std::string before = journal_text();
    SweepRecord& b =
        records["b"] = {.id = "b", .status = SweepRunStatus::kError, .error = "x", .metrics = {}};
    ASSERT_TRUE(journal.Append(b));
    b = {.id = "b", .status = SweepRunStatus::kOk, .error = "", .metrics = {{.value = 0.5}}};
    ASSERT_TRUE(journal.Append(b));
    EXPECT_EQ(b.metrics[0].text, "");  // not formatted before the flush
    ASSERT_TRUE(journal.Flush());
    EXPECT_EQ(b.metrics[0].text, "0.5");
    EXPECT_EQ(journal_text(), before + RecordLine(b));
  }
  EXPECT_EQ(records.at("a").metrics[0].text, "0.25");
  std::vector<std::string> warnings;
  const SweepRecords reread = ReadRecords(dir, warnings);
  EXPECT_TRUE(warnings.empty());
  ASSERT_EQ(reread.size(), 2U);
  EXPECT_EQ(reread.at("b").status, SweepRunStatus::kOk);  // the run again, not the error
  EXPECT_EQ(reread.at("b").metrics.at(0).text, "0.5");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fleetsim
