// Requests in Slurm and Kubernetes words: what a GRES and a set of resources become in the job
// model, the problems each malformed one reports, and the native job object with them — read
// with every conflict named at its pointer, written back with only the words, and read back the
// same.
#include "job_json/request_words.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fleetsim/core/diagnostics.h"
#include "job_json/job_json.h"

namespace fleetsim {
namespace {

using nlohmann::json;

// The request a GRES gives, or the problem as "error: ...".
std::string Gres(const std::string& text) {
  JobRequest r;
  if (const auto problem = ApplyGres(text, r)) {
    return "error: " + *problem;
  }
  Job job;
  job.request = r;
  job.request.id = "j";
  job.truth.duration = 1000;
  return JobToJson(job).dump() + " gpus=" + std::to_string(r.gpus) +
         (r.gpu_models.empty() ? "" : " model=" + r.gpu_models.front()) +
         " sharing=" + GpuSharingName(r.sharing) + " mem=" + std::to_string(r.gpu_memory_gb);
}

std::string Resources(const std::vector<ResourceRequest>& requests) {
  JobRequest r;
  if (const auto problem = ApplyResources(requests, r)) {
    return "error: " + *problem;
  }
  return "gpus=" + std::to_string(r.gpus) + " sharing=" + GpuSharingName(r.sharing) +
         " mem=" + std::to_string(static_cast<int>(r.gpu_memory_gb)) +
         " cpu_milli=" + std::to_string(r.cpu_milli) +
         " memory_mib=" + std::to_string(r.memory_mib) + " words=" + r.resources;
}

TEST(GresTest, ReadsGpuCountsTypesAndMigTypes) {
  EXPECT_EQ(Gres("gpu:h100:8"),
            R"({"id":"j","submit_s":0,"gres":"gpu:h100:8","duration_s":1} gpus=8 model=h100 )"
            R"(sharing=none mem=0.000000)");
  EXPECT_EQ(Gres("gpu:4"), R"({"id":"j","submit_s":0,"gres":"gpu:4","duration_s":1} gpus=4 )"
                           R"(sharing=none mem=0.000000)");
  EXPECT_EQ(Gres("gpu"), R"({"id":"j","submit_s":0,"gres":"gpu","duration_s":1} gpus=1 )"
                         R"(sharing=none mem=0.000000)");
  EXPECT_EQ(Gres("gpu:a100"), R"({"id":"j","submit_s":0,"gres":"gpu:a100","duration_s":1} )"
                              R"(gpus=1 model=a100 sharing=none mem=0.000000)");
  EXPECT_EQ(Gres("gpu:a100_3g.20gb:1"),
            R"({"id":"j","submit_s":0,"gres":"gpu:a100_3g.20gb:1","duration_s":1} gpus=1 )"
            R"(model=a100 sharing=mig mem=20.000000)");
  EXPECT_EQ(Gres("gpu:1g.10gb"),
            R"({"id":"j","submit_s":0,"gres":"gpu:1g.10gb","duration_s":1} gpus=1 sharing=mig )"
            R"(mem=10.000000)");
}

TEST(GresTest, RefusesWhatIsNotOneGpuRequest) {
  const std::string expected =
      "error: expected a GPU request as gpu[:TYPE][:COUNT] (one GRES, "
      "count >= 1), found ";
  for (const std::string text :
       {"", "gpus:8", "nic:1", "gpu:h100:0", "gpu:h100:eight", "gpu:h100:8:x", "gpu::8",
        "gpu:h100:8,gpu:a100:2", "gpu:h 100:8", "gpu:-1", "gpu:h100:2000000"}) {
    EXPECT_EQ(Gres(text), expected + "'" + text + "'") << text;
  }
  EXPECT_EQ(Gres("gpu:1g.10gb:2"),
            "error: expected one MIG instance alone, found 2 GPUs of types '1g.10gb'");
}

TEST(ResourcesTest, ReadsGpusMigInstancesCpuAndMemory) {
  EXPECT_EQ(Resources({{"nvidia.com/gpu", "2"}}),
            "gpus=2 sharing=none mem=0 cpu_milli=0 memory_mib=0 words=nvidia.com/gpu=2");
  EXPECT_EQ(Resources({{"nvidia.com/mig-1g.10gb", "1"}}),
            "gpus=1 sharing=mig mem=10 cpu_milli=0 memory_mib=0 words=nvidia.com/mig-1g.10gb=1");
  EXPECT_EQ(Resources({{"cpu", "500m"}, {"memory", "64Gi"}, {"nvidia.com/gpu", "8"}}),
            "gpus=8 sharing=none mem=0 cpu_milli=500 memory_mib=65536 "
            "words=cpu=500m,memory=64Gi,nvidia.com/gpu=8");
  EXPECT_EQ(Resources({{"nvidia.com/gpu", "8"}, {"memory", "64Gi"}}),
            "gpus=8 sharing=none mem=0 cpu_milli=0 memory_mib=65536 "
            "words=memory=64Gi,nvidia.com/gpu=8");
  EXPECT_EQ(Resources({{"cpu", "8"}}),
            "gpus=0 sharing=none mem=0 cpu_milli=8000 memory_mib=0 words=cpu=8");
}

TEST(ResourcesTest, RefusesWhatItCannotModel) {
  EXPECT_EQ(Resources({{"nvidia.com/gpus", "2"}}),
            "error: expected nvidia.com/gpu, nvidia.com/mig-<profile>, cpu or memory, found "
            "'nvidia.com/gpus', did you mean 'nvidia.com/gpu'?");
  EXPECT_EQ(Resources({{"nvidia.com/gpu", "1.5"}}),
            "error: expected a whole GPU count in [1, 1000000] for 'nvidia.com/gpu', found '1.5'");
  EXPECT_EQ(Resources({{"nvidia.com/gpu", "0"}}),
            "error: expected a whole GPU count in [1, 1000000] for 'nvidia.com/gpu', found '0'");
  EXPECT_EQ(Resources({{"nvidia.com/mig-1g.10gb", "2"}}),
            "error: expected 1 (one MIG instance per job is modelled) for "
            "'nvidia.com/mig-1g.10gb', found '2'");
  EXPECT_EQ(Resources({{"nvidia.com/mig-big", "1"}}),
            "error: expected a MIG profile such as 'nvidia.com/mig-1g.10gb', found "
            "'nvidia.com/mig-big'");
  EXPECT_EQ(Resources({{"nvidia.com/gpu", "1"}, {"nvidia.com/mig-1g.10gb", "1"}}),
            "error: expected whole GPUs or one MIG instance, found both 'nvidia.com/gpu' and "
            "'nvidia.com/mig-1g.10gb'");
  EXPECT_EQ(Resources({{"memory", "8Gi"}}),
            "error: expected 'nvidia.com/gpu', a 'nvidia.com/mig-<profile>' or (for a CPU-only "
            "job) 'cpu', found 'memory=8Gi'");
  EXPECT_EQ(Resources({}),
            "error: expected 'nvidia.com/gpu', a 'nvidia.com/mig-<profile>' or (for a CPU-only "
            "job) 'cpu', found no resources");
  EXPECT_EQ(Resources({{"cpu", "-1"}}),
            "error: expected a CPU quantity such as '8' or '500m' for 'cpu', found '-1'");
  EXPECT_EQ(Resources({{"memory", "lots"}, {"nvidia.com/gpu", "1"}}),
            "error: expected a memory quantity such as '64Gi' for 'memory', found 'lots'");
  EXPECT_EQ(Resources({{"cpu", "1"}, {"cpu", "2"}}),
            "error: expected each resource once, found 'cpu' twice");
}

TEST(ResourcesTest, SplitsTheTextItWrites) {
  const auto requests = SplitResources("cpu=8,nvidia.com/gpu=2");
  ASSERT_TRUE(requests.has_value());
  ASSERT_EQ(requests->size(), 2U);
  EXPECT_EQ((*requests)[1].name, "nvidia.com/gpu");
  EXPECT_EQ((*requests)[1].value, "2");
  EXPECT_FALSE(SplitResources("cpu").has_value());
  EXPECT_FALSE(SplitResources("cpu=8,").has_value());
  EXPECT_FALSE(SplitResources("=8").has_value());
}

// Parses a job object; returns its native JSON, or the diagnostics.
std::string Parse(const std::string& text) {
  Diagnostics diagnostics;
  JsonChecker check(diagnostics);
  const Job job = ParseJobObject(json::parse(text), "/jobs/0", check);
  return diagnostics.empty() ? JobToJson(job).dump() : diagnostics.Format("s.json");
}

TEST(JobObjectWordsTest, ReadsAndWritesBackTheWordsOnly) {
  const std::string gres = R"({"id":"a","submit_s":0,"gres":"gpu:h100:8","duration_s":60})";
  EXPECT_EQ(Parse(gres), gres);
  const std::string resources =
      R"({"id":"b","submit_s":0,"resources":{"cpu":"500m","nvidia.com/mig-1g.10gb":1},)"
      R"("duration_s":60})";
  EXPECT_EQ(Parse(resources), resources);
  EXPECT_EQ(Parse(R"({"id":"c","gres":"gpu:2","cpu_milli":4000,"duration_s":60})"),
            R"({"id":"c","submit_s":0,"gres":"gpu:2","cpu_milli":4000,"duration_s":60})");
}

TEST(JobObjectWordsTest, NamesEveryConflictAndBadValueAtItsPointer) {
  EXPECT_EQ(Parse(R"({"id":"a","gres":"gpu:h100:8","gpus":8,"sharing":"mig","duration_s":60})"),
            "s.json: /jobs/0/gpus: error: expected no 'gpus' beside 'gres', which sets it, "
            "found 8\n"
            "s.json: /jobs/0/sharing: error: expected no 'sharing' beside 'gres', which sets it, "
            "found \"mig\"\n");
  EXPECT_EQ(Parse(R"({"id":"a","gres":"gpu:1","resources":{"cpu":1},"duration_s":60})"),
            "s.json: /jobs/0/resources: error: expected either 'gres' or 'resources', found "
            "both\n");
  EXPECT_EQ(Parse(R"({"id":"a","resources":{"nvidia.com/gpu":1},"memory_mib":5,)"
                  R"("duration_s":60})"),
            "s.json: /jobs/0/memory_mib: error: expected no 'memory_mib' beside 'resources', "
            "which sets it, found 5\n");
  EXPECT_EQ(Parse(R"({"id":"a","resources":{"nvidia.com/gpu":true},"duration_s":60})"),
            "s.json: /jobs/0/resources/nvidia.com~1gpu: error: expected a quantity (an integer, "
            "or a string such as \"64Gi\"), found true\n");
  EXPECT_EQ(Parse(R"({"id":"a","gres":"gpu:h100:x","duration_s":60})"),
            "s.json: /jobs/0/gres: error: expected a GPU request as gpu[:TYPE][:COUNT] (one "
            "GRES, count >= 1), found 'gpu:h100:x'\n");
  EXPECT_EQ(Parse(R"({"id":"a","gres":8,"duration_s":60})"),
            "s.json: /jobs/0/gres: error: expected a string, found 8\n");
}

}  // namespace
}  // namespace fleetsim
