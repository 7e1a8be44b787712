// The fleet section of a scenario: pools resolved against the catalog, and every mistake
// reported with its JSON pointer.
#include <gtest/gtest.h>

#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

LoadResult WithFleet(const std::string& fleet) {
  const std::string text = R"({"format_version": 1, "name": "f", "fleet": )" + fleet +
                           R"(, "jobs": [{"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 1}]})";
  return ParseScenario(text, "f.json", BuiltinPolicies(), {});
}

std::string Messages(const LoadResult& r) {
  return r.diagnostics.Format("f.json") + r.file_status.message();
}

TEST(FleetParserTest, PoolsResolveTemplatesPricesAndTotals) {
  const LoadResult r = WithFleet(R"({"pools": [
      {"name": "a", "template": "hgx-h100", "nodes": 2, "tier": "spot", "cloud": "aws"},
      {"name": "b", "template": "gb300-nvl72", "nodes": 18, "price_per_gpu_hour": 9.5,
       "cpu_cores": 144}]})");
  ASSERT_TRUE(r.scenario) << Messages(r);
  const FleetSpec& fleet = r.scenario->fleet;
  EXPECT_EQ(fleet.gpus, 16 + 72);
  ASSERT_EQ(fleet.pools.size(), 2U);
  EXPECT_EQ(fleet.pools[0].gpu.name, "H100-SXM");
  EXPECT_EQ(fleet.pools[0].tier, PriceTier::kSpot);
  EXPECT_EQ(fleet.pools[0].EffectivePrice(), fleet.pools[0].gpu.prices.spot);
  EXPECT_EQ(fleet.pools[1].tier, PriceTier::kOnDemand);
  EXPECT_EQ(fleet.pools[1].EffectivePrice(), 9.5);
  EXPECT_EQ(fleet.pools[1].cpu_cores, 144);
}

TEST(FleetParserTest, APoolOfNoNodesIsCheckedThenLeftOut) {
  const LoadResult r = WithFleet(R"({"pools": [
      {"name": "a", "template": "hgx-h100", "nodes": 0, "tier": "spot"},
      {"name": "b", "template": "hgx-h200", "nodes": 1}]})");
  ASSERT_TRUE(r.scenario) << Messages(r);
  ASSERT_EQ(r.scenario->fleet.pools.size(), 1U);
  EXPECT_EQ(r.scenario->fleet.pools[0].name, "b");
  EXPECT_EQ(r.scenario->fleet.gpus, 8);

  const LoadResult wrong = WithFleet(R"({"pools": [
      {"name": "a", "template": "hgx-h10", "nodes": 0}, {"name": "b", "template": "hgx-h200",
      "nodes": 1}]})");
  EXPECT_NE(Messages(wrong).find("/fleet/pools/0/template: error: unknown node template"),
            std::string::npos)
      << "a pool of no nodes is still checked: " << Messages(wrong);

  const LoadResult none = WithFleet(R"({"pools": [
      {"name": "a", "template": "hgx-h100", "nodes": 0}]})");
  EXPECT_EQ(Messages(none),
            "f.json: /fleet/pools: error: expected at least one pool with "
            "nodes, found every pool at 0 nodes\n");
}

TEST(FleetParserTest, StaticMigLayoutThatFitsIsAccepted) {
  const LoadResult r = WithFleet(R"({"pools": [{"name": "m", "template": "hgx-h100", "nodes": 1,
      "mig": {"static": {"4g.40gb": 1, "3g.40gb": 1}}}]})");
  ASSERT_TRUE(r.scenario) << Messages(r);
  EXPECT_EQ(r.scenario->fleet.pools[0].mig, MigMode::kStatic);
}

TEST(FleetParserTest, StaticMigLayoutThatCannotFitIsRejectedWithAnExplanation) {
  const LoadResult r = WithFleet(R"({"pools": [{"name": "m", "template": "hgx-h100", "nodes": 1,
      "mig": {"static": {"4g.40gb": 2}}}]})");
  EXPECT_FALSE(r.scenario);
  EXPECT_NE(Messages(r).find("f.json: /fleet/pools/0/mig/static: error: "), std::string::npos)
      << Messages(r);
  EXPECT_NE(Messages(r).find("4g.40gb"), std::string::npos) << Messages(r);
}

TEST(FleetParserTest, ReportsEveryPoolMistake) {
  const LoadResult r = WithFleet(R"({"pools": [
      {"name": "a", "template": "hgx-h10", "nodes": 1},
      {"name": "b", "template": "hgx-h100", "nodes": -1},
      {"name": "c", "template": "gb200-nvl72", "nodes": 10},
      {"name": "d", "template": "hgx-h100", "nodes": 1, "tier": "spto"},
      {"name": "e", "template": "l40s-8", "nodes": 1, "mig": "dynamic"},
      {"name": "f", "template": "hgx-h100", "nodes": 1, "price_per_gpu_hour": -1},
      {"name": "g", "template": "hgx-h100", "nodes": 1, "mig": {"static": {"3g.4gb": 1}}}]})");
  EXPECT_FALSE(r.scenario);
  EXPECT_EQ(
      r.diagnostics.Format("f.json"),
      "f.json: /fleet/pools/0/template: error: unknown node template 'hgx-h10', did you mean "
      "'hgx-h100'? (see `fleetsim list node-templates`)\n"
      "f.json: /fleet/pools/1/nodes: error: expected an integer ≥ 0, found -1\n"
      "f.json: /fleet/pools/2/nodes: error: gb200-nvl72 is built from whole 72-GPU NVLink "
      "domains of 18 nodes; 10 nodes is not a multiple of 18\n"
      "f.json: /fleet/pools/3/tier: error: expected one of 'on-demand', 'reserved', 'spot', "
      "found 'spto', did you mean 'spot'?\n"
      "f.json: /fleet/pools/4/mig: error: GPU model L40S (template l40s-8) does not support MIG\n"
      "f.json: /fleet/pools/5/price_per_gpu_hour: error: expected a number ≥ 0 and ≤ 1000000, "
      "found -1\n"
      "f.json: /fleet/pools/6/mig/static: error: GPU model H100-SXM has no MIG profile "
      "'3g.4gb', did you mean '3g.40gb'? (profiles: '1g.10gb', '1g.10gb+me', '1g.20gb', "
      "'2g.20gb', '3g.40gb', '4g.40gb', '7g.80gb')\n");
}

TEST(FleetParserTest, GpusAndPoolsAreExclusive) {
  EXPECT_EQ(Messages(WithFleet(R"({"gpus": 8, "pools": []})")),
            "f.json: /fleet: error: expected exactly one of 'gpus' (identical whole GPUs) or "
            "'pools'\n");
  EXPECT_EQ(Messages(WithFleet(R"({"pools": []})")),
            "f.json: /fleet/pools: error: expected at least one pool\n");
}

}  // namespace
}  // namespace fleetsim
