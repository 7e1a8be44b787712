// GPU names as products, labels and schedulers write them (issue 24): normalized lookups,
// families for job requests, a job's gpu_models rewritten to catalog names, suggestions that stay
// within a GPU generation, and a catalog in which two models would answer to one name refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fleetsim/fleet/catalog.h"
#include "fleetsim/fleet/catalog_loader.h"

namespace fleetsim {
namespace {

std::string FoundName(const Catalog& catalog, const std::string& name) {
  const GpuModel* gpu = catalog.FindGpu(name);
  return gpu == nullptr ? "(none)" : gpu->name;
}

std::vector<std::string> FamilyNames(const Catalog& catalog, const std::string& name) {
  std::vector<std::string> names;
  for (const GpuModel* gpu : catalog.GpuFamily(name)) {
    names.push_back(gpu->name);
  }
  return names;
}

TEST(GpuNamesTest, NormalizedNamesIgnoreCaseSeparatorsAndTheVendor) {
  EXPECT_EQ(NormalizedGpuName("NVIDIA-H100-80GB-HBM3"), "h100-80gb-hbm3");
  EXPECT_EQ(NormalizedGpuName("NVIDIA H100 80GB HBM3"), "h100-80gb-hbm3");
  EXPECT_EQ(NormalizedGpuName("Tesla_T4"), "t4");
  EXPECT_EQ(NormalizedGpuName("  a100__40gb- "), "a100-40gb");
  EXPECT_EQ(NormalizedGpuName("NVIDIA"), "nvidia");  // the vendor alone is kept
  EXPECT_EQ(GpuGeneration("H100-SXM"), "h100");
  EXPECT_EQ(GpuGeneration("NVIDIA-GB200"), "gb200");
  EXPECT_EQ(GpuGeneration("L40S"), "l40s");
  EXPECT_EQ(GpuGeneration("V100M16"), "v100m");
  EXPECT_EQ(GpuGeneration("openb-G1"), "");
}

TEST(GpuNamesTest, ProductSpellingsFindTheirModel) {
  const Catalog catalog = BuiltinCatalog();
  EXPECT_EQ(FoundName(catalog, "NVIDIA-H100-80GB-HBM3"), "H100-SXM");  // a GFD product label
  EXPECT_EQ(FoundName(catalog, "H100 80GB HBM3"), "H100-SXM");         // nvidia-smi
  EXPECT_EQ(FoundName(catalog, "h100"), "H100-SXM");
  EXPECT_EQ(FoundName(catalog, "NVIDIA-A100-SXM4-40GB"), "A100-40GB");
  EXPECT_EQ(FoundName(catalog, "Tesla-T4"), "T4");
  EXPECT_EQ(FoundName(catalog, "nvidia-h200"), "H200");
  EXPECT_EQ(FoundName(catalog, "v100-sxm2-32gb"), "V100-32GB");
  EXPECT_EQ(FoundName(catalog, "a100"), "(none)");  // two models: a family, not a model
  EXPECT_EQ(FoundName(catalog, "m60"), "(none)");
}

TEST(GpuNamesTest, FamiliesServeJobRequests) {
  const Catalog catalog = BuiltinCatalog();
  EXPECT_EQ(FamilyNames(catalog, "a100"), (std::vector<std::string>{"A100-80GB", "A100-40GB"}));
  EXPECT_EQ(FamilyNames(catalog, "V100"), (std::vector<std::string>{"V100-16GB", "V100-32GB"}));
  EXPECT_EQ(FamilyNames(catalog, "h100"), std::vector<std::string>{"H100-SXM"});  // an alias
  EXPECT_EQ(FamilyNames(catalog, "h1"), std::vector<std::string>{});  // a word, not a prefix
  EXPECT_EQ(FamilyNames(catalog, ""), std::vector<std::string>{});
}

TEST(GpuNamesTest, AJobsModelsBecomeCatalogNames) {
  const Catalog catalog = BuiltinCatalog();
  std::vector<std::string> models = {"H100", "a100", "nvidia-a100-sxm4-80gb", "V100M16"};
  std::string unknown;
  ASSERT_TRUE(catalog.CanonicalizeGpuModels(models, unknown));
  // Exact names and aliases stay as written; the rest become their models, without repeats.
  EXPECT_EQ(models, (std::vector<std::string>{"H100", "A100-80GB", "A100-40GB", "V100M16"}));
  std::vector<std::string> bad = {"h100", "m60"};
  EXPECT_FALSE(catalog.CanonicalizeGpuModels(bad, unknown));
  EXPECT_EQ(unknown, "m60");
  EXPECT_EQ(bad, (std::vector<std::string>{"h100", "m60"}));  // unchanged
}

TEST(GpuNamesTest, SuggestionsStayWithinAGeneration) {
  const Catalog catalog = BuiltinCatalog();
  EXPECT_EQ(catalog.SuggestGpu("h100x"), ", did you mean 'H100'?");  // never P100
  EXPECT_EQ(catalog.SuggestGpu("H100-SMX"), ", did you mean 'H100-SXM'?");
  EXPECT_EQ(catalog.SuggestGpu("V100M64"), ", did you mean 'V100M16'?");
  EXPECT_EQ(catalog.SuggestGpu("B20"), ", did you mean 'B200'?");
  EXPECT_EQ(catalog.SuggestGpu("H10O"), ", did you mean 'H100'?");
  EXPECT_EQ(catalog.SuggestGpu("p10"), ", did you mean 'P100'?");
  EXPECT_EQ(catalog.SuggestGpu("m60"), "");  // no M model at all
}

TEST(GpuNamesTest, ACatalogWhoseModelsShareANameIsRefused) {
  const CatalogLoadResult r = ParseCatalog(R"({"format_version": 1,
    "gpus": [{"name": "MI300X", "aliases": ["h100_80gb"], "memory_gb": 192}]})",
                                           "mine.json", BuiltinCatalog());
  EXPECT_FALSE(r.catalog);
  EXPECT_EQ(r.diagnostics.Format("mine.json"),
            "mine.json: /gpus: error: GPU models 'H100-SXM' and 'MI300X' both answer to the name "
            "'h100_80gb' (names are compared ignoring case, '_' and ' ' for '-', and a leading "
            "'NVIDIA' or 'Tesla')\n");
}

}  // namespace
}  // namespace fleetsim
