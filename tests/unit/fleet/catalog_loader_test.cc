// The catalog: the shipped file loads cleanly and holds what the fleet model needs; user files
// extend and override it; mistakes are reported with their JSON pointers.
#include "fleetsim/fleet/catalog_loader.h"

#include <gtest/gtest.h>

#include "testutil/paths.h"

namespace fleetsim {
namespace {

TEST(BuiltinCatalogTest, LoadsWithoutAnyDiagnostic) {
  const std::string text = testing::ReadFile(testing::SourcePath("scenarios/catalog/catalog.json"));
  const CatalogLoadResult result = ParseCatalog(text, "catalog.json", Catalog{});
  EXPECT_EQ(result.file_status.message(), "");
  EXPECT_EQ(result.diagnostics.Format("catalog.json"), "");
  ASSERT_TRUE(result.catalog.has_value());
}

TEST(BuiltinCatalogTest, HasTheModelsAndTemplatesTheIssueNames) {
  const Catalog catalog = BuiltinCatalog();
  for (const char* gpu : {"A100-80GB", "H100-SXM", "H100-NVL", "H200", "B200", "B300", "GB200",
                          "GB300", "Rubin", "L40S"}) {
    EXPECT_NE(catalog.FindGpu(gpu), nullptr) << gpu;
  }
  for (const char* t : {"hgx-h100", "h100-nvl-pairs", "gb200-nvl72", "gb300-nvl72", "vr-nvl72"}) {
    EXPECT_NE(catalog.FindTemplate(t), nullptr) << t;
  }
  EXPECT_FALSE(catalog.FindGpu("L40S")->supports_mig());
  const NodeTemplate* nvl72 = catalog.FindTemplate("gb200-nvl72");
  EXPECT_EQ(nvl72->gpus_per_node, 4);
  EXPECT_EQ(nvl72->nvlink_domain_gpus, 72);
  EXPECT_EQ(nvl72->nodes_per_domain(), 18);
}

TEST(BuiltinCatalogTest, H100MigProfilesHaveTheDocumentedGeometry) {
  const Catalog catalog = BuiltinCatalog();
  const GpuModel* h100 = catalog.FindGpu("H100-SXM");
  ASSERT_NE(h100, nullptr);
  struct Expected {
    const char* name;
    int compute;
    int memory;
    std::vector<int> starts;
    int max;
    double gb;
  };
  const std::vector<Expected> expected = {{"1g.10gb", 1, 1, {0, 1, 2, 3, 4, 5, 6}, 7, 10},
                                          {"1g.10gb+me", 1, 1, {0, 1, 2, 3, 4, 5, 6}, 1, 10},
                                          {"1g.20gb", 1, 2, {0, 2, 4, 6}, 4, 20},
                                          {"2g.20gb", 2, 2, {0, 2, 4}, 3, 20},
                                          {"3g.40gb", 3, 4, {0, 4}, 2, 40},
                                          {"4g.40gb", 4, 4, {0}, 1, 40},
                                          {"7g.80gb", 7, 8, {0}, 1, 80}};
  ASSERT_EQ(h100->mig_profiles.size(), expected.size());
  for (const Expected& e : expected) {
    const MigProfile* p = h100->FindMigProfile(e.name);
    ASSERT_NE(p, nullptr) << e.name;
    EXPECT_EQ(p->compute_slices, e.compute) << e.name;
    EXPECT_EQ(p->memory_slices, e.memory) << e.name;
    EXPECT_EQ(p->starts, e.starts) << e.name;
    EXPECT_EQ(p->max_instances, e.max) << e.name;
    EXPECT_DOUBLE_EQ(p->memory_gb, e.gb) << e.name;
  }
}

TEST(CatalogLoaderTest, UserFileExtendsAndOverrides) {
  const Catalog base = BuiltinCatalog();
  const CatalogLoadResult r = ParseCatalog(R"({"format_version": 1,
    "gpus": [{"name": "H100-SXM", "memory_gb": 80, "price_per_gpu_hour": {"on_demand": 2.5}},
             {"name": "MI300X", "memory_gb": 192}],
    "node_templates": [{"name": "mi300x-8", "gpu": "MI300X", "gpus_per_node": 8,
                        "nvlink_domain_gpus": 8, "nodes_per_rack": 4}]})",
                                           "mine.json", base);
  ASSERT_TRUE(r.catalog) << r.diagnostics.Format("mine.json") << r.file_status;
  EXPECT_EQ(r.catalog->gpus.size(), base.gpus.size() + 1);
  EXPECT_EQ(r.catalog->FindGpu("H100-SXM")->prices.on_demand, 2.5);
  EXPECT_NE(r.catalog->FindTemplate("mi300x-8"), nullptr);
  EXPECT_NE(r.catalog->FindTemplate("hgx-h100"), nullptr);
}

// Issue 19: a 100,000-character name once overflowed the stack (std::regex_match).
TEST(CatalogLoaderTest, AHugeNameIsAnErrorNotACrash) {
  const CatalogLoadResult r = ParseCatalog(
      R"({"format_version": 1, "node_templates": [{"name": ")" + std::string(100'000, 'x') +
          R"( y", "gpu": "H100-SXM", "gpus_per_node": 8, "nvlink_domain_gpus": 8,
              "nodes_per_rack": 4}]})",
      "big.json", BuiltinCatalog());
  EXPECT_FALSE(r.catalog);
  EXPECT_NE(r.diagnostics.Format("big.json").find("/node_templates/0/name: error: expected a name"),
            std::string::npos);
}

TEST(CatalogLoaderTest, ReportsEveryMistakeWithItsPath) {
  const CatalogLoadResult r = ParseCatalog(R"({"format_version": 1,
    "sources": {"S1": "a source"},
    "mig_geometries": {"7-slice": [{"kind": "3g", "compute_slices": 5, "memory_slices": 4,
                                    "starts": [0], "max_instances": 2}]},
    "gpus": [{"name": "X1", "memory_gb": 0, "sources": ["S999"], "unverified": ["fp16"],
              "mig": {"geometry": "7-slices", "profiles": {}}}],
    "node_templates": [{"name": "t1", "gpu": "H100-SMX", "gpus_per_node": 8,
                        "nvlink_domain_gpus": 8, "nodes_per_rack": 4},
                       {"name": "t2", "gpu": "H100-SXM", "gpus_per_node": 4,
                        "nvlink_domain_gpus": 72, "nodes_per_rack": 16}]})",
                                           "bad.json", BuiltinCatalog());
  EXPECT_FALSE(r.catalog);
  EXPECT_EQ(
      r.diagnostics.Format("bad.json"),
      "bad.json: /mig_geometries/7-slice/0/compute_slices: error: expected at most memory_slices "
      "(4), found 5\n"
      "bad.json: /gpus/0/memory_gb: error: expected a number > 0 and ≤ 1000000000000, found 0\n"
      "bad.json: /gpus/0/sources/0: error: unknown source 'S999' (not in /sources)\n"
      "bad.json: /gpus/0/unverified/0: error: expected one of 'memory_gb', "
      "'memory_bandwidth_tbs', 'bf16', 'fp8', 'fp4', 'nvlink_gbs', 'tdp_w', 'mig', 'on_demand', "
      "'reserved', 'spot', found 'fp16', did you mean 'bf16'?\n"
      "bad.json: /gpus/0/mig/geometry: error: unknown MIG geometry '7-slices', did you mean "
      "'7-slice'? (defined: '7-slice')\n"
      "bad.json: /node_templates/0/gpu: error: unknown GPU model 'H100-SMX', did you mean "
      "'H100-SXM'?\n"
      "bad.json: /node_templates/1/nvlink_domain_gpus: error: a domain of 72 GPUs must be a whole "
      "number of 4-GPU nodes that divides the rack's 16 nodes\n");
}

}  // namespace
}  // namespace fleetsim
