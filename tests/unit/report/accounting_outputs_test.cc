// Capacity accounting and cost in the outputs: the summary.json objects and their key order, the
// interruption and goodput figures in "metrics", the comparison.csv columns and the second stdout
// table — priced, and unpriced (null / empty / "n/a").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fleetsim/report/outputs.h"

namespace fleetsim {
namespace {

using nlohmann::ordered_json;

// One pool "spot" of 8 GPUs over 10 hours: useful 40, lost 4, overhead 2, idle 14, down 20 GPU-h;
// billed 80 - 20 = 60 GPU-h at $2 = $120, or $3 per useful GPU-h; lost work $8, overhead $4.
RunReport Report(const ScenarioFacts& scenario, bool priced) {
  RunReport r;
  r.scenario = scenario;
  r.policy.name = "fifo";
  r.seed = 7;
  AccountingSummary& a = r.accounting;
  a.window_end = 36'000'000;
  a.total = {.useful = 40, .lost = 4, .overhead = 2, .idle = 14, .down = 20, .capacity = 80};
  a.pools = {{.name = "spot", .tier = PriceTier::kSpot, .gpus = 8, .hours = a.total}};
  a.goodput = 0.5;
  a.counts = {.spot_notices = 3,
              .reclaim_waves = 1,
              .spot_reclaims = 2,
              .hardware_failures = 1,
              .jobs_interrupted = 4,
              .emergency_checkpoints = 1,
              .policy_preemptions = 0};
  CostSummary& c = r.cost;
  c.pools = {{.name = "spot",
              .tier = PriceTier::kSpot,
              .price_per_gpu_hour = priced ? std::optional(2.0) : std::nullopt,
              .billed_gpu_hours = 60,
              .usd = priced ? std::optional(120.0) : std::nullopt}};
  if (priced) {
    c.total_usd = c.spot_usd = 120.0;
    c.on_demand_usd = c.reserved_usd = 0.0;
    c.per_useful_gpu_hour_usd = 3.0;
    c.lost_work_usd = 8.0;
    c.overhead_usd = 4.0;
  } else {
    c.unpriced_pools = {"spot"};
  }
  return r;
}

std::vector<std::string> Keys(const ordered_json& object) {
  std::vector<std::string> keys;
  for (const auto& item : object.items()) {
    keys.push_back(item.key());
  }
  return keys;
}

TEST(AccountingOutputsTest, SummaryJsonHasAccountingAndCostInAFixedOrder) {
  ScenarioFacts scenario;
  scenario.name = "s";
  const ordered_json j = ordered_json::parse(SummaryJson(Report(scenario, true)));

  const ordered_json& m = j["metrics"];
  EXPECT_EQ(m["jobs_interrupted"], 4);
  EXPECT_EQ(m["spot_reclaims"], 2);
  EXPECT_EQ(m["hardware_failures"], 1);
  EXPECT_EQ(m["lost_gpu_hours"], 4.0);
  EXPECT_EQ(m["overhead_gpu_hours"], 2.0);
  EXPECT_EQ(m["goodput"], 0.5);

  const std::vector<std::string> categories = {
      "capacity_gpu_hours", "useful_gpu_hours",   "allocated_idle_gpu_hours",
      "lost_gpu_hours",     "overhead_gpu_hours", "reconfiguration_gpu_hours",
      "idle_gpu_hours",     "down_gpu_hours"};
  std::vector<std::string> accounting_keys = categories;
  accounting_keys.insert(accounting_keys.end(),
                         {"identity_gap_gpu_seconds", "goodput", "interruptions", "pools"});
  const ordered_json& a = j["accounting"];
  EXPECT_EQ(Keys(a), accounting_keys);
  EXPECT_EQ(a["down_gpu_hours"], 20.0);
  EXPECT_EQ(a["interruptions"]["reclaim_waves"], 1);
  EXPECT_EQ(a["interruptions"]["emergency_checkpoints"], 1);
  std::vector<std::string> pool_keys = {"name", "tier", "gpus"};
  pool_keys.insert(pool_keys.end(), categories.begin(), categories.end());
  EXPECT_EQ(Keys(a["pools"][0]), pool_keys);
  EXPECT_EQ(a["pools"][0]["tier"], "spot");

  const ordered_json& c = j["cost"];
  EXPECT_EQ(Keys(c), (std::vector<std::string>{"unpriced_pools", "total_usd", "by_tier_usd",
                                               "per_useful_gpu_hour_usd", "lost_work_usd",
                                               "overhead_usd", "pools"}));
  EXPECT_EQ(c["total_usd"], 120.0);
  EXPECT_EQ(c["by_tier_usd"].dump(), R"({"on-demand":0.0,"reserved":0.0,"spot":120.0})");
  EXPECT_EQ(c["per_useful_gpu_hour_usd"], 3.0);
  EXPECT_EQ(c["pools"][0].dump(),
            R"({"name":"spot","tier":"spot","price_per_gpu_hour":2.0,"billed_gpu_hours":60.0,)"
            R"("usd":120.0})");
}

TEST(AccountingOutputsTest, UnpricedPoolsGiveNullDollars) {
  ScenarioFacts scenario;
  scenario.name = "s";
  const ordered_json c = ordered_json::parse(SummaryJson(Report(scenario, false)))["cost"];
  EXPECT_EQ(c["unpriced_pools"], ordered_json::array({"spot"}));
  EXPECT_TRUE(c["total_usd"].is_null());
  EXPECT_EQ(c["by_tier_usd"].dump(), R"({"on-demand":null,"reserved":null,"spot":null})");
  EXPECT_TRUE(c["per_useful_gpu_hour_usd"].is_null());
  EXPECT_TRUE(c["lost_work_usd"].is_null());
  EXPECT_TRUE(c["overhead_usd"].is_null());
  EXPECT_TRUE(c["pools"][0]["price_per_gpu_hour"].is_null());
  EXPECT_TRUE(c["pools"][0]["usd"].is_null());
}

TEST(AccountingOutputsTest, ComparisonCsvAndTableShowGoodputLostWorkAndCost) {
  ScenarioFacts scenario;
  scenario.name = "spotty";
  const std::vector<RunReport> reports = {Report(scenario, true), Report(scenario, false)};
  const std::string csv = ComparisonCsv(reports);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "scenario,policy,seed,jobs_total,jobs_completed,jobs_rejected,utilization,"
            "priority_weighted_output,wait_mean_s,wait_p99_s,jct_p50_s,bounded_slowdown_mean,"
            "makespan_s,goodput,lost_gpu_hours,cost_total,cost_per_useful_gpu_hour");
  EXPECT_NE(csv.find(",0.500000,4.000000,120.00,3.0000\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",0.500000,4.000000,,\n"), std::string::npos) << csv;

  EXPECT_EQ(MetricsTable(reports),
            "scenario  policy  seed    completed  rejected    util   mean wait    p99 wait    "
            "makespan\n"
            "spotty    fifo       7          0/0         0    0.0%      0.00 h      0.00 h      "
            "0.00 h\n"
            "spotty    fifo       7          0/0         0    0.0%      0.00 h      0.00 h      "
            "0.00 h\n"
            "\n"
            "scenario  policy  seed  interrupted  reclaims  failures  lost GPU-h  overhead GPU-h  "
            "goodput        cost  $/useful GPU-h\n"
            "spotty    fifo       7            4         2         1        4.00            2.00  "
            "  50.0%     $120.00           $3.00\n"
            "spotty    fifo       7            4         2         1        4.00            2.00  "
            "  50.0%         n/a             n/a\n");
}

}  // namespace
}  // namespace fleetsim
