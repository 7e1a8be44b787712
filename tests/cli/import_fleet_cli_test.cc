// End-to-end tests of `fleetsim import-fleet --from slurm`: the round trip (a fleet imported from
// slurm.conf + gres.conf simulates byte for byte like the hand-written fleet it describes, under
// every policy), the scheduler parameters it reads, the published configurations in
// ../shared/traces/configs (failing when they are absent), and bad input: each error names the
// file and line, and nothing is written.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::DataPath;
using testing::ReadFile;
using testing::SourcePath;

std::string SharedConfig(const std::string& relative) {
  return testing::SharedTracePath("configs/" + relative);
}

class ImportFleetCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult Fleetsim(const std::string& args) {
    return testing::RunCommand(fmt::format("'{}' {}", FLEETSIM_CLI_PATH, args), dir_);
  }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string Out(const std::string& name) const { return dir_ + "/" + name; }

  // Imports `conf` (+ `gres`) with `extra` arguments to fleet.json; the first error line or "".
  std::string ImportError(const std::string& conf, const std::string& gres,
                          const std::string& extra = "") {
    const CommandResult r = Fleetsim(fmt::format(
        "import-fleet --from slurm '{}' {} {} -o '{}'", Write("slurm.conf", conf),
        gres.empty() ? "" : "--gres '" + Write("gres.conf", gres) + "'", extra, Out("fleet.json")));
    EXPECT_FALSE(fs::exists(Out("fleet.json")));
    EXPECT_NE(r.exit_code, 0);
    std::string error = r.err.substr(0, r.err.find('\n'));
    const std::string prefix = dir_ + "/";
    for (std::size_t at = error.find(prefix); at != std::string::npos; at = error.find(prefix)) {
      error.erase(at, prefix.size());
    }
    return error;
  }

  std::string dir_;
};

// Every file under `dir`, relative path -> bytes.
std::map<std::string, std::string> FilesUnder(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) {
      files[fs::relative(entry.path(), dir).string()] = ReadFile(entry.path().string());
    }
  }
  return files;
}

TEST_F(ImportFleetCliTest, AnImportedFleetSimulatesAsTheHandWrittenOne) {
  const std::string conf = DataPath("cluster-configs/slurm/cluster.slurm.conf");
  const std::string gres = DataPath("cluster-configs/slurm/cluster.gres.conf");
  const CommandResult imported =
      Fleetsim(fmt::format("import-fleet --from slurm '{}' --gres '{}' --map a100=A100-80GB -o "
                           "'{}' --parameters-out '{}'",
                           conf, gres, Out("fleet.json"), Out("parameters.json")));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_NE(imported.out.find("cluster.slurm.conf: 2 pools (slurm)"), std::string::npos);
  EXPECT_NE(imported.out.find("MIG instances 3g.40gb x2, 4g.40gb x2 per node taken as 2 GPUs per "
                              "node, each with {\"3g.40gb\":1,\"4g.40gb\":1}"),
            std::string::npos)
      << imported.out;
  EXPECT_NE(imported.out.find("1 node without GPUs not modelled"), std::string::npos);
  EXPECT_NE(imported.out.find("not modelled, so not imported: ClusterName"), std::string::npos);

  nlohmann::json scenario =
      nlohmann::json::parse(ReadFile(DataPath("cluster-configs/slurm/cluster.scenario.json")));
  Write("hand.json", scenario.dump(1));
  scenario["fleet"] = "fleet.json";
  Write("imported.json", scenario.dump(1));
  ASSERT_EQ(Fleetsim(fmt::format("run '{}' --policy all --out '{}'", Out("hand.json"), Out("a")))
                .exit_code,
            0);
  ASSERT_EQ(
      Fleetsim(fmt::format("run '{}' --policy all --out '{}'", Out("imported.json"), Out("b")))
          .exit_code,
      0);
  const auto hand = FilesUnder(Out("a"));
  // comparison.csv, the folder's manifest and 5 policies x (summary.json, jobs.csv,
  // timeseries.csv)
  EXPECT_EQ(hand.size(), 17U);
  EXPECT_EQ(hand, FilesUnder(Out("b")));

  const nlohmann::json parameters = nlohmann::json::parse(ReadFile(Out("parameters.json")));
  EXPECT_EQ(parameters.dump(),
            R"({"backfill":{"default_walltime_s":7200,"max_job_test":1000,"mode":"conservative",)"
            R"("reservation_boundary":"slurm","resolution_s":300,"window_s":172800},)"
            R"("fair-share":{"charge_at_end":false,"decay_half_life_s":1209600,)"
            R"("max_age_s":604800,"weight_age":2000,"weight_fairshare":50000,)"
            R"("weight_job_size":500,"weight_qos":10000}})");
}

// Names a scenario refuses for a pool ('|', "*", found in review) are rewritten, so an imported
// fleet always loads.
TEST_F(ImportFleetCliTest, PoolNamesAScenarioRefusesAreRewritten) {
  const std::string conf = Write("slurm.conf", "NodeName=a|b[1-2] Gres=gpu:h100:8\n");
  ASSERT_EQ(Fleetsim(fmt::format("import-fleet --from slurm '{}' --map h100=H100-SXM -o '{}'", conf,
                                 Out("slurm-fleet.json")))
                .exit_code,
            0);
  EXPECT_EQ(nlohmann::json::parse(ReadFile(Out("slurm-fleet.json")))["pools"][0]["name"], "a-b1-2");
  const std::string nodes =
      Write("nodes.json",
            R"({"kind": "List", "items": [{"kind": "Node", "metadata": {"name": "*", "labels": )"
            R"({"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}}, "status": {"allocatable": )"
            R"({"nvidia.com/gpu": "8", "cpu": "64", "memory": "1Ti"}}}]})");
  ASSERT_EQ(Fleetsim(fmt::format("import-fleet --from kubernetes '{}' -o '{}'", nodes,
                                 Out("k8s-fleet.json")))
                .exit_code,
            0);
  EXPECT_EQ(nlohmann::json::parse(ReadFile(Out("k8s-fleet.json")))["pools"][0]["name"], "pool");
  for (const char* fleet : {"slurm-fleet.json", "k8s-fleet.json"}) {
    const std::string scenario =
        Write("s.json", fmt::format(R"({{"format_version": 1, "name": "s", "fleet": "{}", )"
                                    R"("jobs": [{{"id": "j", "gpus": 1, "duration_s": 1}}]}})",
                                    Out(fleet)));
    EXPECT_EQ(Fleetsim(fmt::format("validate '{}'", scenario)).exit_code, 0) << fleet;
  }
}

// Slurm charges a job's usage at its end only when AccountingStorageEnforce has limits (safe and
// all imply it); otherwise only jobs running at a recalculation are charged. fair-share's
// charge_at_end follows it.
TEST_F(ImportFleetCliTest, FairSharesChargeAtEndFollowsAccountingStorageEnforce) {
  for (const auto& [enforce, expected] : std::vector<std::pair<std::string, bool>>{
           {"", false},
           {"AccountingStorageEnforce=associations\n", false},
           {"AccountingStorageEnforce=associations,qos\n", false},
           {"AccountingStorageEnforce=associations,limits\n", true},
           {"AccountingStorageEnforce=Safe\n", true},
           {"AccountingStorageEnforce=all\n", true}}) {
    const std::string conf = Write("slurm.conf",
                                   "NodeName=n[1-2] Gres=gpu:h100:8\n"
                                   "PriorityWeightFairshare=10000\n" +
                                       enforce);
    const CommandResult r = Fleetsim(fmt::format(
        "import-fleet --from slurm '{}' --map h100=H100-SXM -o '{}' --parameters-out '{}'", conf,
        Out("fleet.json"), Out("parameters.json")));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json parameters = nlohmann::json::parse(ReadFile(Out("parameters.json")));
    EXPECT_EQ(parameters["fair-share"]["charge_at_end"], expected) << enforce;
  }
}

// A scenario takes the scheduler parameters slurm.conf gave by naming the file: its policy's
// entry runs exactly as the same values written in place, and the file's problems are reported.
TEST_F(ImportFleetCliTest, AScenarioUsesTheImportedSchedulerParameters) {
  const std::string conf = DataPath("cluster-configs/slurm/cluster.slurm.conf");
  const std::string gres = DataPath("cluster-configs/slurm/cluster.gres.conf");
  ASSERT_EQ(Fleetsim(fmt::format("import-fleet --from slurm '{}' --gres '{}' --map a100=A100-80GB "
                                 "-o '{}' --parameters-out '{}'",
                                 conf, gres, Out("fleet.json"), Out("parameters.json")))
                .exit_code,
            0);
  const nlohmann::json parameters = nlohmann::json::parse(ReadFile(Out("parameters.json")));
  nlohmann::json scenario =
      nlohmann::json::parse(ReadFile(DataPath("cluster-configs/slurm/cluster.scenario.json")));
  scenario["fleet"] = "fleet.json";
  for (const std::string policy : {"fair-share", "backfill"}) {
    scenario["policy"] = {{"name", policy}, {"params", parameters[policy]}};
    Write("inline.json", scenario.dump(1));
    scenario["policy"]["params"] = "parameters.json";
    Write("file.json", scenario.dump(1));
    const CommandResult a =
        Fleetsim(fmt::format("run '{}' --out '{}'", Out("inline.json"), Out("inline-" + policy)));
    const CommandResult b =
        Fleetsim(fmt::format("run '{}' --out '{}'", Out("file.json"), Out("file-" + policy)));
    ASSERT_EQ(a.exit_code, 0) << a.err;
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_EQ(FilesUnder(Out("inline-" + policy)), FilesUnder(Out("file-" + policy))) << policy;
    EXPECT_NE(ReadFile(Out("file-" + policy + "/summary.json"))
                  .find(policy == "backfill" ? "\"window_s\": 172800" : "\"weight_qos\": 10000"),
              std::string::npos);
  }

  scenario["policy"] = {{"name", "fifo"}, {"params", "parameters.json"}};
  Write("fifo.json", scenario.dump(1));
  CommandResult r = Fleetsim(fmt::format("validate '{}'", Out("fifo.json")));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, fmt::format("{}: /policy/params: error: {}: expected parameters for policy "
                               "'fifo', found those of 'backfill', 'fair-share'\n",
                               Out("fifo.json"), Out("parameters.json")));
  Write("bad-parameters.json", R"({"backfill": {"window_s": -1, "windw": 3}})");
  scenario["policy"] = {{"name", "backfill"}, {"params", "bad-parameters.json"}};
  Write("bad.json", scenario.dump(1));
  r = Fleetsim(fmt::format("validate '{}'", Out("bad.json")));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(fmt::format("{}: /policy/params: error: {}: /backfill/windw: policy "
                                   "'backfill' has no parameter 'windw'",
                                   Out("bad.json"), Out("bad-parameters.json"))),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(fmt::format("{}: /policy/params: error: {}: /backfill/window_s: expected",
                                   Out("bad.json"), Out("bad-parameters.json"))),
            std::string::npos)
      << r.err;
  scenario["policy"]["params"] = "missing.json";
  Write("missing.json.scenario", scenario.dump(1));
  r = Fleetsim(fmt::format("validate '{}'", Out("missing.json.scenario")));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/policy/params: error: "), std::string::npos) << r.err;
}

TEST_F(ImportFleetCliTest, PublishedParallelClusterQueue) {
  const std::string conf = SharedConfig("slurm/pcluster-gpu_partition.conf");
  const std::string gres = SharedConfig("slurm/pcluster-gpu_gres.conf");
  EXPECT_EQ(
      Fleetsim(fmt::format("import-fleet --from slurm '{}' --gres '{}' -o -", conf, gres)).err,
      conf +
          ":3: unknown GPU type 'm60'; give its catalog model with --map m60=MODEL "
          "(`fleetsim list gpus`)\n");
  const CommandResult r = Fleetsim(
      fmt::format("import-fleet --from slurm '{}' --gres '{}' --map m60=T4 --map v100=V100-32GB "
                  "-o '{}'",
                  conf, gres, Out("fleet.json")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json fleet = nlohmann::json::parse(ReadFile(Out("fleet.json")));
  ASSERT_EQ(fleet["pools"].size(), 3U);
  EXPECT_EQ(fleet["pools"][2]["nodes"], 10);
  EXPECT_EQ(fleet["pools"][2]["template"], "slurm-v100-32gb-x8");
  EXPECT_EQ(fleet["pools"][0]["cpu_cores"], 16);
  EXPECT_NE(r.out.find("State=CLOUD nodes (powered up on demand) are modelled as always up"),
            std::string::npos);
  EXPECT_NE(r.out.find("partition 'gpu': pools 'gpu-st-gpu-g38xlarge-1-1', "
                       "'gpu-dy-gpu-g38xlarge-1-4', 'gpu-dy-gpu-p3dn24xlarge-1-10'"),
            std::string::npos);
  // The scenario loads it: a fleet of 2 + 8 + 80 GPUs.
  Write("s.json", R"({"format_version": 1, "name": "pc", "fleet": "fleet.json",
                      "jobs": [{"id": "a", "gpus": 8, "duration_s": 60}]})");
  const CommandResult described = Fleetsim(fmt::format("fleet '{}'", Out("s.json")));
  ASSERT_EQ(described.exit_code, 0) << described.err;
  EXPECT_NE(described.out.find("90"), std::string::npos) << described.out;
}

TEST_F(ImportFleetCliTest, PublishedSlurmTestSuiteConfigs) {
  const std::string conf = SharedConfig("slurm/schedmd-test7.17.1-slurm.conf");
  // gres=gpu:8 (lower-case key, no type) on NodeName=DEFAULT, and gres.conf's devices 0-7.
  const CommandResult r =
      Fleetsim(fmt::format("import-fleet --from slurm '{}' --gres '{}' --map untyped=H100-SXM -o -",
                           conf, SharedConfig("slurm/schedmd-test7.17.1-gres.conf")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json fleet = nlohmann::json::parse(r.out);
  EXPECT_EQ(fleet["pools"][0]["nodes"], 10);
  EXPECT_EQ(fleet["pools"][0]["template"], "hgx-h100");
  EXPECT_EQ(fleet["pools"][0]["cpu_cores"], 8);  // 2 sockets x 2 cores x 2 threads
  EXPECT_EQ(Fleetsim(fmt::format("import-fleet --from slurm '{}' --gres '{}' --map "
                                 "untyped=H100-SXM -o -",
                                 conf, SharedConfig("slurm/schedmd-test7.17.4-gres.conf")))
                .exit_code,
            0);
  // 7.17.3 binds GPUs to cores 8-15, which the nodes of 7.17.1's slurm.conf (8 CPUs) lack: it
  // belongs with another slurm.conf of Slurm's test suite, not copied.
  const std::string other = SharedConfig("slurm/schedmd-test7.17.3-gres.conf");
  EXPECT_EQ(
      Fleetsim(fmt::format("import-fleet --from slurm '{}' --gres '{}' --map "
                           "untyped=H100-SXM -o -",
                           conf, other))
          .err,
      other + ":8: Cores=8,9,10,11,12,13,14,15: core 15 is beyond node test_node0's 8 CPUs\n");
  const std::string invalid = SharedConfig("slurm/schedmd-test7.17.7-gres.conf");
  EXPECT_EQ(Fleetsim(fmt::format("import-fleet --from slurm '{}' --gres '{}' --map "
                                 "untyped=H100-SXM -o -",
                                 conf, invalid))
                .err,
            invalid + ":4: Cores=[0-10000]: core 10000 is beyond node test_node0's 8 CPUs\n");
  const std::string example = SharedConfig("slurm/schedmd-slurm.conf.example");
  EXPECT_EQ(Fleetsim(fmt::format("import-fleet --from slurm '{}' -o -", example)).err,
            example + ": no node with GPUs (no NodeName line with a gpu Gres)\n");
}

TEST_F(ImportFleetCliTest, SlurmDetailsOfRealConfigs) {
  // Bracket lists with commas in a partition, the default partition's DefaultTime, maps matched
  // by normalized name (and an unused one noted), two groups whose names would collide.
  const std::string conf = Write("slurm.conf", R"(NodeName=h100-[01-02,04] Gres=gpu:H100:8
PartitionName=debug Nodes=h100-[01-02,04] DefaultTime=10
PartitionName=gpu Nodes=h100-[01-02,04] Default=yes
NodeName=gpu1 CfgTRES=cpu=64,mem=512G,gres/gpu:a100=4
NodeName=gpu2 CfgTRES=cpu=64,mem=512G,gres/gpu:a100=4
NodeName=gpu3 CfgTRES=cpu=32,mem=256G,gres/gpu:a100=4
NodeName=gpu4 CfgTRES=cpu=32,mem=256G,gres/gpu:a100=4
)");
  const CommandResult r = Fleetsim(fmt::format(
      "import-fleet --from slurm '{}' --map h100=H100-NVL --map A100=A100-40GB --map m60=T4 -o "
      "'{}' --parameters-out '{}'",
      conf, Out("fleet.json"), Out("parameters.json")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json fleet = nlohmann::json::parse(ReadFile(Out("fleet.json")));
  ASSERT_EQ(fleet["pools"].size(), 3U);
  EXPECT_EQ(fleet["pools"][0]["nodes"], 3);
  EXPECT_EQ(fleet["pools"][0]["template"], "h100-nvl-pairs");
  EXPECT_EQ(fleet["pools"][1]["name"], "gpu");
  EXPECT_EQ(fleet["pools"][2]["name"], "gpu-2");
  EXPECT_EQ(fleet["pools"][2]["memory_gb"], 256);
  EXPECT_NE(r.out.find("--map m60=T4: no GPU of type 'm60' was read"), std::string::npos) << r.out;
  // gpu is the default partition and says no DefaultTime: backfill keeps its own default.
  EXPECT_FALSE(nlohmann::json::parse(ReadFile(Out("parameters.json"))).contains("backfill"));
}

// Found by the cluster_config fuzz target: a node name that is not UTF-8 once crashed the JSON
// writer; it is written with U+FFFD, and the fleet loads.
TEST_F(ImportFleetCliTest, NamesThatAreNotUtf8AreWrittenReplaced) {
  const CommandResult r = Fleetsim(fmt::format("import-fleet --from slurm '{}' -o '{}'",
                                               Write("slurm.conf",
                                                     "NodeName=n\xad"
                                                     "1 Gres=gpu:h100:8\n"),
                                               Out("fleet.json")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(ReadFile(Out("fleet.json")))["pools"][0]["name"],
            "n\xef\xbf\xbd"
            "1");
  Write("s.json", R"({"format_version": 1, "name": "u", "fleet": "fleet.json",
                      "jobs": [{"id": "a", "gpus": 8, "duration_s": 60}]})");
  EXPECT_EQ(Fleetsim(fmt::format("validate '{}'", Out("s.json"))).exit_code, 0);
}

// Found by the cluster_config fuzz target: a CfgTRES count of 49,223,372,036 GPUs was imported
// into a template the catalog refuses. A GRES or CfgTRES entry counts at most 7,168 (MIG
// instances on 1,024 GPUs), and a node at most the 1,024 GPUs a template holds, whatever the
// entries add up to.
TEST_F(ImportFleetCliTest, NodesOfMoreGpusThanANodeHoldsAreRefused) {
  EXPECT_EQ(ImportError("NodeName=a1 CfgTRES=cpu=64,gres/gpu=4,gres/gpu:a100=49223372036\n", ""),
            "slurm.conf:1: CfgTRES 'gres/gpu:a100=49223372036': expected gres/gpu:a100=COUNT with "
            "a whole COUNT up to 7168");
  EXPECT_EQ(ImportError("NodeName=a1 Gres=gpu:h100:1000,gpu:h100:25\n", ""),
            "slurm.conf:1: 1025 GPUs per node, more than the 1024 a node holds");
  EXPECT_EQ(ImportError("NodeName=a1 CfgTRES=gres/gpu:h100=2000\n", ""),
            "slurm.conf:1: 2000 GPUs per node, more than the 1024 a node holds");
  // Entries add up, saturating rather than overflowing, and the sum is refused.
  EXPECT_EQ(ImportError("NodeName=a1 Gres=gpu:a100_1g.10gb:7168,gpu:a100_1g.10gb:7168\n", "",
                        "--map a100=A100-80GB"),
            "slurm.conf:1: more MIG instances per node than the 7168 a node holds (7 on each of "
            "1024 GPUs)");
  EXPECT_EQ(ImportError("NodeName=a1 Gres=gpu:a100_7g.80gb:1025\n", "", "--map a100=A100-80GB"),
            "slurm.conf:1: MIG instances on 1025 GPUs per node, more than the 1024 a node holds");
  // CPUs, memory and the fleet's GPUs within what a fleet file may state.
  EXPECT_EQ(ImportError("NodeName=a1 CPUs=2000000 Gres=gpu:h100:8\n", ""),
            "slurm.conf:1: 2000000 CPUs per node, more than the 1000000 a node may state");
  EXPECT_EQ(ImportError("NodeName=a1 Sockets=1000000000000 CoresPerSocket=1000000000000 "
                        "Gres=gpu:h100:8\n",
                        ""),
            "slurm.conf:1: 1e+24 CPUs per node, more than the 1000000 a node may state");
  EXPECT_EQ(
      ImportError("NodeName=a1 CfgTRES=mem=1000000000000T,gres/gpu:h100=8\n", ""),
      "slurm.conf:1: 1024000000000000 GiB of memory per node, more than the 1000000000 a node "
      "may state");
  EXPECT_EQ(ImportError("NodeName=a[1-1000] Gres=gpu:h100:1024\n", ""),
            "slurm.conf:1: the pools so far hold 1024000 GPUs, more than the 1000000 a fleet may");
}

TEST_F(ImportFleetCliTest, IncludesThatCannotBeFoundAreReported) {
  const std::string conf = SharedConfig("slurm/pcluster-slurm_parallelcluster.conf");
  const CommandResult r = Fleetsim(fmt::format("import-fleet --from slurm '{}' -o -", conf));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(conf + ":13: include <DIR>/pcluster/slurm_parallelcluster_gpu_partition"),
            std::string::npos)
      << r.err;
  // An include found relative to the including file is read in place.
  Write("main.conf", "ClusterName=x\ninclude nodes.conf\n");
  Write("nodes.conf", "NodeName=n[1-2] Gres=gpu:h100:8\n");
  const CommandResult included =
      Fleetsim(fmt::format("import-fleet --from slurm '{}' -o -", Out("main.conf")));
  ASSERT_EQ(included.exit_code, 0) << included.err;
  EXPECT_EQ(nlohmann::json::parse(included.out)["pools"][0]["nodes"], 2);
}

// gres.conf is checked against every GPU host of slurm.conf: the hosts it says nothing of, and
// hosts it names that slurm.conf does not define, are noted; Count= must agree with File=, as
// Slurm requires (issue 19: each of these was accepted silently).
TEST_F(ImportFleetCliTest, GresConfSpeaksOfEveryGpuHostOrSaysWhichItDoesNot) {
  const std::string conf = Write("slurm.conf", "NodeName=n[1-4] Gres=gpu:h100:8\n");
  const auto import = [&](const std::string& gres) {
    return Fleetsim(fmt::format("import-fleet --from slurm '{}' --gres '{}' -o '{}'", conf,
                                Write("gres.conf", gres), Out("fleet.json")));
  };
  const CommandResult other = import("NodeName=zz Name=gpu Type=h100 File=/dev/nvidia[0-7]\n");
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_NE(other.out.find("gres.conf:1: NodeName names 1 host(s) slurm.conf does not define "
                           "(first: zz); left out"),
            std::string::npos)
      << other.out;
  EXPECT_NE(other.out.find("gres.conf: says nothing of 4 node(s) that slurm.conf gives GPUs "
                           "(first: n1); their counts are slurm.conf's, unchecked"),
            std::string::npos)
      << other.out;
  const CommandResult empty = import("");
  ASSERT_EQ(empty.exit_code, 0) << empty.err;
  EXPECT_NE(empty.out.find("says nothing of 4 node(s)"), std::string::npos) << empty.out;
  const CommandResult some = import("NodeName=n[1-2] Name=gpu Type=h100 File=/dev/nvidia[0-7]\n");
  ASSERT_EQ(some.exit_code, 0) << some.err;
  EXPECT_NE(some.out.find("says nothing of 2 node(s) that slurm.conf gives GPUs (first: n3)"),
            std::string::npos)
      << some.out;
  const CommandResult all = import("Name=gpu Type=h100 File=/dev/nvidia[0-7]\n");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(all.out.find("says nothing"), std::string::npos) << all.out;
  fs::remove(Out("fleet.json"));
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:h100:8\n",
                        "NodeName=n1 Name=gpu Type=h100 Count=8 File=/dev/nvidia[0-3]\n"),
            "gres.conf:1: Count=8 but File= names 4 device(s); Slurm needs them to agree");
}

TEST_F(ImportFleetCliTest, ScontrolNodeListsGroupIdenticalNodes) {
  const std::string nodes = SharedConfig("sacct/hb-jobinfo-scontrol-nodes.txt");
  const CommandResult r =
      Fleetsim(fmt::format("import-fleet --from slurm '{}' --map a100=A100-40GB --map "
                           "v100=V100-32GB -o -",
                           nodes));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json fleet = nlohmann::json::parse(r.out);
  ASSERT_EQ(fleet["pools"].size(), 2U);
  EXPECT_EQ(fleet["pools"][0]["name"], "a100gpu");
  EXPECT_EQ(fleet["pools"][0]["nodes"], 6);
  EXPECT_EQ(fleet["pools"][1]["name"], "v100gpu");
  EXPECT_EQ(fleet["pools"][1]["nodes"], 34);
  EXPECT_NE(r.err.find("143 nodes without GPUs not modelled"), std::string::npos) << r.err;
}

TEST_F(ImportFleetCliTest, BadInputNamesFileAndLineAndWritesNothing) {
  Write("fleet.json", "old");  // a failed import leaves an existing file alone
  const CommandResult kept =
      Fleetsim(fmt::format("import-fleet --from slurm '{}' -o '{}'",
                           Write("slurm.conf", "NodeName=n[1-2 Gres=gpu:8\n"), Out("fleet.json")));
  EXPECT_EQ(kept.exit_code, 1);
  EXPECT_EQ(ReadFile(Out("fleet.json")), "old");
  fs::remove(Out("fleet.json"));
  EXPECT_EQ(ImportError("NodeName=n[1-2 Gres=gpu:h100:8\n", ""),
            "slurm.conf:1: NodeName: host list 'n[1-2': a '[' is not closed");
  EXPECT_EQ(ImportError("NodeName=n[3-1] Gres=gpu:h100:8\n", ""),
            "slurm.conf:1: NodeName: host list 'n[3-1]': range '3-1' runs backwards");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:h100:eight\n", ""),
            "slurm.conf:1: Gres 'gpu:h100:eight': expected gpu[:TYPE]:COUNT with a whole COUNT up "
            "to 7168");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:1g.10gb:2147483629\n", ""),
            "slurm.conf:1: Gres 'gpu:1g.10gb:2147483629': expected gpu[:TYPE]:COUNT with a whole "
            "COUNT up to 7168");
  EXPECT_EQ(
      ImportError("NodeName=n[1-4] Gres=gpu:h100:8\nNodeName=n4 Gres=gpu:h100:8 CPUs=32\n", ""),
      "slurm.conf:2: node n4 is defined already, at slurm.conf:1");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:h100:8 CPUs=64x\n", ""),
            "slurm.conf:1: CPUs: expected a number, found '64x'");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:h100:8 CPUs=8\n",
                        "NodeName=n1 Name=gpu Type=h100 File=/dev/nvidia[0-7] Cores=\n"),
            "gres.conf:1: Cores: expected core indexes like [0-3] or 0,1,2, found ''");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:h100x:8\n", ""),
            "slurm.conf:1: unknown GPU type 'h100x', did you mean 'H100'?; give its catalog "
            "model with --map h100x=MODEL (`fleetsim list gpus`)");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:a100:8\n", ""),
            "slurm.conf:1: GPU type 'a100' could be any of 'A100-80GB', 'A100-40GB'; say which "
            "with --map a100=MODEL");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:8\n", ""),
            "slurm.conf:1: GPUs without a type: give their model with --map untyped=MODEL");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:h100_5g.50gb:1\n", ""),
            "slurm.conf:1: H100-SXM has no MIG profile '5g.50gb' (its profiles: '1g.10gb', "
            "'1g.10gb+me', '1g.20gb', '2g.20gb', '3g.40gb', '4g.40gb', '7g.80gb')");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:l40s_1g.12gb:1\n", ""),
            "slurm.conf:1: L40S has no MIG profile '1g.12gb' (it has no MIG)");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:h100_4g.40gb:1,gpu:h100_7g.80gb:1\n", ""),
            "slurm.conf:1: the MIG instances 4g.40gb x1, 7g.80gb x1 per node cannot be laid out "
            "the same way on whole H100-SXM GPUs");
  EXPECT_EQ(ImportError("NodeName=n[1-2] Gres=gpu:h100:8\n",
                        "NodeName=n[1-2] Name=gpu Type=h100 File=/dev/nvidia[0-3]\n"),
            "slurm.conf:1: node n1 has gpu:h100:8 in slurm.conf's Gres, but gres.conf "
            "(gres.conf:1) gives it gpu:h100:4");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:h100:8 Weight\n", ""),
            "slurm.conf:1: expected KEY=VALUE fields, found 'Weight'");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:h100:8\nPriorityWeightAge=-5\n", ""),
            "slurm.conf:2: PriorityWeightAge: expected a whole number in [0, 4294967295], found "
            "'-5'");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:h100:8\nSchedulerParameters=bf_window=0\n", ""),
            "slurm.conf:2: SchedulerParameters bf_window: expected a whole number giving "
            "window_s in [60, 2592000], found 'bf_window=0'");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:h100:8\n", "NodeName=n1 Name=gpu Type=h100\n"),
            "gres.conf:1: expected Count=, File= or MultipleFiles= to say how many GPUs");
  EXPECT_EQ(ImportError("NodeName=n1 Gres=gpu:h100:8\n", "", "--map h100=H200x"),
            "--map h100=H200x: unknown GPU model 'H200x', did you mean 'H200'?");
}

// ---- topology.conf ----

// NVLink blocks become domains and racks: a full NVL72 rack takes the catalog's template, NVL36
// halves a template made for them, nodes in no block NVLink within the node; H100 nodes (whose
// NVLink never spans nodes) keep their pool. The fleet is the hand-written one, and it runs.
TEST_F(ImportFleetCliTest, TopologyBlocksBecomeNvlinkDomains) {
  const CommandResult r = Fleetsim(
      fmt::format("import-fleet --from slurm '{}' --topology '{}' -o '{}'",
                  DataPath("cluster-configs/slurm/gb200-blocks.slurm.conf"),
                  DataPath("cluster-configs/slurm/gb200-blocks.topology.conf"), Out("fleet.json")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(
      nlohmann::json::parse(ReadFile(Out("fleet.json"))),
      nlohmann::json::parse(ReadFile(DataPath("cluster-configs/slurm/gb200-blocks.fleet.json"))));
  EXPECT_NE(r.out.find("gb200-blocks.topology.conf: 4 blocks (1 of 4 nodes, 2 of 9 nodes, 1 of "
                       "18 nodes); BlockSizes 4,8,16 (job placement levels, not modelled)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("gb200-blocks.slurm.conf:5: H100-SXM's NVLink stays within a node (no "
                       "catalog template spans nodes), so the topology's blocks leave its pools "
                       "as they are"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("node template 'slurm-gb200-x4-nvl36' made (4 x GB200 per node; NVLink "
                       "domain 36 GPUs over 9 nodes; 9 nodes per rack: a topology block)"),
            std::string::npos)
      << r.out;
  Write("s.json", R"({"format_version": 1, "name": "blocks", "fleet": "fleet.json",
                      "jobs": [{"id": "a", "gpus": 72, "duration_s": 60},
                               {"id": "b", "gpus": 36, "duration_s": 60}]})");
  const CommandResult run = Fleetsim(
      fmt::format("run '{}' --policy constraint-aware --out '{}'", Out("s.json"), Out("run")));
  EXPECT_EQ(run.exit_code, 0) << run.err;

  // A block larger than NVL72 is a rack of NVL72 domains, and that fleet runs too.
  const CommandResult big = Fleetsim(
      fmt::format("import-fleet --from slurm '{}' --topology '{}' -o '{}'",
                  Write("big.conf", "NodeName=gb[1-36] Gres=gpu:gb200:4\n"),
                  Write("big-topology.conf", "BlockName=big Nodes=gb[1-36]\n"), Out("fleet.json")));
  ASSERT_EQ(big.exit_code, 0) << big.err;
  const nlohmann::json made =
      nlohmann::json::parse(ReadFile(Out("fleet.json")))["catalog"]["node_templates"][0];
  EXPECT_EQ(made["name"], "slurm-gb200-x4-nvl72-rack36");
  EXPECT_EQ(made["nvlink_domain_gpus"], 72);
  EXPECT_EQ(made["nodes_per_rack"], 36);
  EXPECT_NE(big.out.find("blocks of 36 nodes of 4 x GB200 (144 GPUs) are more than its largest "
                         "NVLink domain (72 GPUs): each block taken as NVLink domains of 18 "
                         "nodes"),
            std::string::npos)
      << big.out;
  EXPECT_EQ(Fleetsim(fmt::format("run '{}' --out '{}'", Out("s.json"), Out("run-big"))).exit_code,
            0);
}

// Azure CycleCloud's published topology files, on the hand-made slurm.conf of their 72 hosts:
// four blocks of 18 GB200 nodes are four NVL72 racks; the switch tree is read and checked.
TEST_F(ImportFleetCliTest, PublishedAzureTopologies) {
  const std::string conf = DataPath("cluster-configs/slurm/azure-gb200.slurm.conf");
  const std::string blocks = SharedConfig("slurm/azure-block_topology.conf");
  const CommandResult r = Fleetsim(fmt::format(
      "import-fleet --from slurm '{}' --topology '{}' -o '{}'", conf, blocks, Out("fleet.json")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json fleet = nlohmann::json::parse(ReadFile(Out("fleet.json")));
  EXPECT_EQ(fleet.dump(),
            R"({"pools":[{"name":"hpcbench-hpc-1-72","nodes":72,"template":"gb200-nvl72"}]})");
  EXPECT_NE(r.out.find(blocks + ": 4 blocks (4 of 18 nodes); BlockSizes 1"), std::string::npos)
      << r.out;

  const std::string tree = SharedConfig("slurm/azure-tree_topology.conf");
  const CommandResult t =
      Fleetsim(fmt::format("import-fleet --from slurm '{}' --topology '{}' -o -", conf, tree));
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_EQ(nlohmann::json::parse(t.out), fleet);
  EXPECT_NE(t.err.find(tree + ": a switch tree of 6 switches, 5 of them leaves, read and "
                              "checked; switches are not modelled"),
            std::string::npos)
      << t.err;
  EXPECT_NE(t.err.find("not modelled, so not imported: ClusterName"), std::string::npos);
  EXPECT_NE(t.err.find("azure-gb200.slurm.conf:5: TopologyPlugin=topology/block, but the "
                       "--topology file has switches: read as such"),
            std::string::npos)
      << t.err;

  // GB200 nodes that are not whole NVL72 racks, and no blocks to say which share NVLink: the
  // NVLink of each node, and the fleet loads.
  const CommandResult odd = Fleetsim(fmt::format(
      "import-fleet --from slurm '{}' --topology '{}' -o '{}'",
      Write("odd.conf", "NodeName=hpcbench-hpc-[1-50] Gres=gpu:gb200:4\n"), tree, Out("odd.json")));
  ASSERT_EQ(odd.exit_code, 0) << odd.err;
  EXPECT_EQ(nlohmann::json::parse(ReadFile(Out("odd.json")))["pools"][0]["template"],
            "slurm-gb200-x4");
  EXPECT_NE(odd.out.find("50 nodes of 4 x GB200 are not whole NVLink domains of a catalog "
                         "template: NVLink taken within the node"),
            std::string::npos)
      << odd.out;
  Write("odd-scenario.json", R"({"format_version": 1, "name": "odd", "fleet": "odd.json",
                                 "jobs": [{"id": "a", "gpus": 4, "duration_s": 60}]})");
  EXPECT_EQ(Fleetsim(fmt::format("fleet '{}'", Out("odd-scenario.json"))).exit_code, 0);

  const CommandResult none = Fleetsim(fmt::format("import-fleet --from slurm '{}' -o -", conf));
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.err.find("azure-gb200.slurm.conf:5: TopologyPlugin=topology/block: give its "
                          "topology.conf with --topology to read its NVLink blocks"),
            std::string::npos)
      << none.err;
}

TEST_F(ImportFleetCliTest, BadTopologiesNameFileAndLine) {
  const std::string conf =
      "NodeName=gb[1-4] Gres=gpu:gb200:4\nNodeName=x[1-2] Gres=gpu:gb200:4 "
      "CPUs=8\nNodeName=cpu1\n";
  EXPECT_EQ(
      ImportError(conf, "",
                  "--topology '" + Write("topology.conf", "BlockName=b Nodes=gb[1-5]\n") + "'"),
      "topology.conf:1: block 'b' has host gb5, which no NodeName line of slurm.conf "
      "defines");
  EXPECT_EQ(
      ImportError(conf, "",
                  "--topology '" + Write("topology.conf", "BlockName=b Nodes=gb[1-4],x1\n") + "'"),
      "topology.conf:1: block 'b' has hosts of two NodeName lines (gb1 at slurm.conf:1, x1 "
      "at slurm.conf:2); an NVLink block is one kind of node");
  EXPECT_EQ(
      ImportError(conf, "",
                  "--topology '" +
                      Write("topology.conf", "BlockName=b Nodes=gb[1-4]\nBlockSizes=2,3\n") + "'"),
      "topology.conf:2: BlockSizes: 3 follows 2, but each size must be the first (2) times "
      "a power of two, larger than the one before");
  EXPECT_EQ(ImportError(conf, "", "--topology '" + Out("none.conf") + "'").find("none.conf"), 0U);
  const CommandResult kubernetes =
      Fleetsim("import-fleet --from kubernetes nodes.json --topology topology.conf -o -");
  EXPECT_EQ(kubernetes.exit_code, 2);
  EXPECT_EQ(kubernetes.err,
            "fleetsim import-fleet: --topology is read only with --from slurm, not --from "
            "kubernetes\n");
  const CommandResult kai = Fleetsim("import-fleet --from kai q.yaml --sharing s.yaml -o -");
  EXPECT_EQ(kai.exit_code, 2);
  EXPECT_EQ(kai.err,
            "fleetsim import-fleet: --sharing is read only with --from kubernetes, not --from "
            "kai\n");
}

// ---- Kubernetes ----

TEST_F(ImportFleetCliTest, AnImportedNodeListSimulatesAsTheHandWrittenFleet) {
  const CommandResult imported =
      Fleetsim(fmt::format("import-fleet --from kubernetes '{}' -o '{}'",
                           DataPath("cluster-configs/kubernetes/h100-nodes.json"), Out("f.json")));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_NE(imported.out.find("1 node without GPUs not modelled"), std::string::npos);
  nlohmann::json scenario = nlohmann::json::parse(
      ReadFile(DataPath("cluster-configs/kubernetes/h100-nodes.scenario.json")));
  Write("hand.json", scenario.dump(1));
  scenario["fleet"] = "f.json";
  Write("imported.json", scenario.dump(1));
  for (const auto& [file, out] : {std::pair{"hand.json", "a"}, std::pair{"imported.json", "b"}}) {
    ASSERT_EQ(
        Fleetsim(fmt::format("run '{}' --policy all --out '{}'", Out(file), Out(out))).exit_code, 0)
        << file;
  }
  const auto hand = FilesUnder(Out("a"));
  EXPECT_EQ(hand.size(), 17U);  // as above
  EXPECT_EQ(hand, FilesUnder(Out("b")));
}

TEST_F(ImportFleetCliTest, PublishedNodeCaptures) {
  struct Capture {
    const char* file;
    const char* layout;  // the pool's static MIG layout, or "" for whole GPUs
  };
  for (const Capture& capture :
       {Capture{"runai-node-a100-mig-7g.40gb.yaml", R"({"7g.40gb":1})"},
        Capture{"runai-node-a100-mig-3-instances.yaml", R"({"1g.5gb":2,"2g.10gb":1})"},
        Capture{"runai-node-a100-mig-4-instances.yaml", R"({"1g.5gb":3,"2g.10gb":1})"},
        Capture{"runai-node-t4-fraction.yaml", ""}}) {
    const std::string path = SharedConfig(std::string("kubernetes/") + capture.file);
    const CommandResult r = Fleetsim(fmt::format("import-fleet --from kubernetes '{}' -o -", path));
    ASSERT_EQ(r.exit_code, 0) << capture.file << ": " << r.err;
    const nlohmann::json pool = nlohmann::json::parse(r.out)["pools"][0];
    EXPECT_EQ(pool["nodes"], 1) << capture.file;
    EXPECT_EQ(pool["cpu_cores"],
              std::string(capture.file).find("t4") != std::string::npos ? 32 : 12);
    if (std::string(capture.layout).empty()) {
      EXPECT_EQ(pool["template"], "k8s-t4-x2");
    } else {
      EXPECT_EQ(pool["template"], "k8s-a100-40gb-x1") << capture.file;
      EXPECT_EQ(pool["mig"]["static"].dump(), capture.layout) << capture.file;
    }
  }
  // The capture whose capacity and allocatable disagree: allocatable is used, and said so.
  const std::string four = SharedConfig("kubernetes/runai-node-a100-mig-4-instances.yaml");
  EXPECT_NE(Fleetsim(fmt::format("import-fleet --from kubernetes '{}' -o -", four))
                .err.find("node 'qa-mig-worker-gpu-a100': nvidia.com/mig-3g.20gb is 0 allocatable "
                          "but 1 in capacity; the allocatable count is used"),
            std::string::npos);
}

TEST_F(ImportFleetCliTest, TimeSlicingReplicasAreDividedOut) {
  const std::string nodes = DataPath("cluster-configs/kubernetes/t4-time-sliced-nodes.json");
  for (const std::string& sharing :
       {std::string(""), SharedConfig("kubernetes/gpu-operator-plugin-config-timeslicing.yaml"),
        SharedConfig("kubernetes/gpu-operator-plugin-config-timeslicing-mps.yaml")}) {
    const CommandResult r =
        Fleetsim(fmt::format("import-fleet --from kubernetes '{}' {} -o -", nodes,
                             sharing.empty() ? "" : "--sharing '" + sharing + "'"));
    ASSERT_EQ(r.exit_code, 0) << sharing << ": " << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["pools"][0]["template"], "k8s-t4-x4") << sharing;
    EXPECT_NE(r.err.find("40 advertised GPUs are 4 GPUs time-sliced 10 ways"), std::string::npos)
        << r.err;
  }
}

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

TEST_F(ImportFleetCliTest, BadNodeListsNameTheFileAndTheNode) {
  const auto error = [this](const std::string& text) {
    const CommandResult r = Fleetsim(fmt::format("import-fleet --from kubernetes '{}' -o '{}'",
                                                 Write("nodes.yaml", text), Out("f.json")));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_FALSE(fs::exists(Out("f.json")));
    std::string message = r.err.substr(0, r.err.find('\n'));
    return message.substr(message.find("nodes.yaml"));
  };
  EXPECT_EQ(error("kind: Node\nmetadata: {name: a\n"),
            "nodes.yaml:3:1: did not find expected ',' or '}' (while parsing a flow mapping)");
  EXPECT_EQ(error(ReadFile(SharedConfig("kubernetes/runai-pod-mig.yaml"))),
            "nodes.yaml: expected a Node or a List of Nodes (kubectl get nodes -o json), found "
            "kind 'Pod'");
  const std::string node = R"(kind: Node
metadata:
  name: n1
  labels: {"nvidia.com/gpu.product": "%s"}
status:
  allocatable: {cpu: "%s", memory: 64Gi, "nvidia.com/gpu": "%s"}
)";
  const auto with = [&node](const char* product, const char* cpu, const char* gpus) {
    std::string text = node;
    for (const char* value : {product, cpu, gpus}) {
      text.replace(text.find("%s"), 2, value);
    }
    return text;
  };
  EXPECT_EQ(error(with("NVIDIA-H100-80GB-HBM3", "lots", "8")),
            "nodes.yaml: node 'n1': status.allocatable.cpu: expected a quantity such as 12 or "
            "7910m, found 'lots'");
  EXPECT_EQ(error(with("NVIDIA-H100-80GB-HBM3", "8", "eight")),
            "nodes.yaml: node 'n1': status.allocatable.nvidia.com/gpu: expected a whole count, "
            "found 'eight'");
  EXPECT_EQ(error(with("NVIDIA-M60", "8", "2")),
            "nodes.yaml: node 'n1': unknown GPU type 'NVIDIA-M60'; give its catalog model with "
            "--map NVIDIA-M60=MODEL (`fleetsim list gpus`)");
  EXPECT_EQ(error(with("NVIDIA-H100-80GB-HBM3", "8", "8") + "---\n" +
                  with("NVIDIA-H100-80GB-HBM3", "8", "8")),
            "nodes.yaml: node 'n1': a second node named 'n1' (the first: an earlier document)");
  const std::string listed_twice = error(
      ReplaceAll("{\"kind\": \"List\", \"items\": [N, N]}", "N",
                 R"({"kind": "Node", "metadata": {"name": "n1", "labels": )"
                 R"({"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}}, "status": )"
                 R"({"allocatable": {"cpu": "8", "memory": "64Gi", "nvidia.com/gpu": "8"}}})"));
  EXPECT_EQ(listed_twice.rfind("nodes.yaml: items[1] (node 'n1'): a second node named 'n1' (the "
                               "first: ",
                               0),
            0U)
      << listed_twice;
  EXPECT_NE(listed_twice.find("nodes.yaml: items[0] (node 'n1'))"), std::string::npos)
      << listed_twice;
  EXPECT_EQ(error(with("NVIDIA-H100-80GB-HBM3-MIG-5g.50gb", "8", "2")),
            "nodes.yaml: node 'n1': H100-SXM has no MIG profile '5g.50gb' (its profiles: "
            "'1g.10gb', '1g.10gb+me', '1g.20gb', '2g.20gb', '3g.40gb', '4g.40gb', '7g.80gb')");
}

// YAML no reader may take without bound: yaml-cpp 0.7 ran on the first of these until killed
// (a flow map after a document's end); aliases that expand a thousandfold per level; nesting
// deeper than any JSON input may have. Each is refused at once, located, for both readers.
TEST_F(ImportFleetCliTest, YamlThatCouldRunWithoutBoundIsRefusedAtOnce) {
  std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char level = 'b'; level <= 'g'; ++level) {
    laughs += fmt::format("{}: &{} [", level, level);
    for (int i = 0; i < 10; ++i) {
      laughs += fmt::format("{}*{}", i == 0 ? "" : ", ", static_cast<char>(level - 1));
    }
    laughs += "]\n";
  }
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"---\n{\"a\": {\"b\": {\"c\": 1}}}, {\"d\": [1, {\"e\": 2}]}\n",
       "bad.yaml:2:23: did not find expected <document start>"},
      {laughs,
       "bad.yaml:6:16: expands to more than 1000000 values and bytes beyond its own length "
       "(through its anchors and aliases)"},
      {"x: " + std::string(600, '['), "bad.yaml:1:515: nested deeper than 512 levels"},
  };
  for (const auto& [text, expected] : cases) {
    for (const char* from : {"kubernetes", "kai"}) {
      const CommandResult r = Fleetsim(fmt::format("import-fleet --from {} '{}' -o '{}'", from,
                                                   Write("bad.yaml", text), Out("f.json")));
      EXPECT_EQ(r.exit_code, 1) << from;
      EXPECT_FALSE(fs::exists(Out("f.json")));
      const std::string message = r.err.substr(0, r.err.find('\n'));
      EXPECT_EQ(message.substr(message.find("bad.yaml")), expected) << from;
    }
  }
}

// ---- KAI ----

TEST_F(ImportFleetCliTest, KaiQueuesBecomeTheScenariosTenants) {
  const std::string queues = SharedConfig("kai/two-queue-oscillation-queues.yaml");
  const CommandResult r =
      Fleetsim(fmt::format("import-fleet --from kai '{}' -o '{}'", queues, Out("tenants.json")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("two-queue-oscillation-queues.yaml: 3 tenants (kai)"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(ReadFile(Out("tenants.json"))).dump(),
            R"([{"limit_gpus":-1,"name":"training-department","over_quota_weight":1.0,)"
            R"("priority":0,"quota_gpus":0},{"limit_gpus":-1,"name":"team-a",)"
            R"("over_quota_weight":1.0,"parent":"training-department","priority":100,)"
            R"("quota_gpus":0},{"limit_gpus":-1,"name":"team-b","over_quota_weight":1.0,)"
            R"("parent":"training-department","priority":100,"quota_gpus":0}])");
  const CommandResult limited =
      Fleetsim(fmt::format("import-fleet --from kai '{}' -o '{}'",
                           SharedConfig("kai/limited-queue.yaml"), Out("limited.json")));
  ASSERT_EQ(limited.exit_code, 0) << limited.err;
  const nlohmann::json tenants = nlohmann::json::parse(ReadFile(Out("limited.json")));
  EXPECT_EQ(tenants[0]["quota_gpus"], -1);
  EXPECT_EQ(tenants[1]["quota_gpus"], 1);
  EXPECT_EQ(tenants[1]["limit_gpus"], 1);
  EXPECT_EQ(Fleetsim(fmt::format("import-fleet --from kai '{}' -o -",
                                 SharedConfig("kai/default-queues.yaml")))
                .exit_code,
            0);
  // A scenario takes the file as its tenants, and runs KAI's queues with them.
  Write("s.json", R"({"format_version": 1, "name": "kai", "fleet": {"gpus": 16},
    "tenants": "tenants.json",
    "policy": {"name": "fair-share", "params": {"queues": "kai"}},
    "jobs": [{"id": "a", "tenant": "team-a", "gpus": 8, "duration_s": 600},
             {"id": "b", "tenant": "team-b", "gpus": 8, "duration_s": 600}]})");
  const CommandResult run = Fleetsim(fmt::format("run '{}'", Out("s.json")));
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

TEST_F(ImportFleetCliTest, OtherKindsAreNotKaiQueues) {
  for (const auto& [file, kind] :
       {std::pair{"kai/kueueviz-01-cluster-queues.yaml", "ClusterQueue"},
        std::pair{"kai/two-queue-oscillation-jobs.yaml", "Pod"},
        std::pair{"kai/scheduling.run.ai_queues-crd.yaml", "CustomResourceDefinition"}}) {
    const std::string path = SharedConfig(file);
    const CommandResult r = Fleetsim(fmt::format("import-fleet --from kai '{}' -o -", path));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, fmt::format("{}: expected KAI Queue objects (apiVersion scheduling.run.ai/v2, "
                                 "kind Queue), found kind '{}'\n",
                                 path, kind));
  }
  // Found by the cluster_config fuzz target: yaml-cpp threw on a lookup into a scalar.
  for (const char* from : {"kai", "kubernetes"}) {
    const bool kai = from == std::string("kai");
    const std::string path =
        Write("odd.yaml", fmt::format("kind: {}\nmetadata: x\n", kai ? "Queue" : "Node"));
    const CommandResult odd = Fleetsim(fmt::format("import-fleet --from {} '{}' -o -", from, path));
    EXPECT_EQ(odd.exit_code, 1);
    EXPECT_EQ(odd.err,
              fmt::format("{}: {} '': expected metadata.name\n", path, kai ? "queue" : "node"));
  }
  // An item of a generic List names its kind (kubectl's lists do); the API's QueueList may not.
  const std::string kindless = R"([{"metadata": {"name": "x1"}}]})";
  const CommandResult list =
      Fleetsim(fmt::format("import-fleet --from kai '{}' -o -",
                           Write("l.json", R"({"kind": "List", "items": )" + kindless)));
  EXPECT_EQ(list.exit_code, 1);
  EXPECT_EQ(list.err, Out("l.json") +
                          ": items[0]: expected KAI Queue objects (apiVersion "
                          "scheduling.run.ai/v2, kind Queue), found no kind\n");
  const CommandResult typed =
      Fleetsim(fmt::format("import-fleet --from kai '{}' -o -",
                           Write("ql.json", R"({"kind": "QueueList", "items": )" + kindless)));
  EXPECT_EQ(typed.exit_code, 0) << typed.err;
  const CommandResult fraction =
      Fleetsim(fmt::format("import-fleet --from kai '{}' -o -",
                           Write("q.yaml",
                                 "kind: Queue\nmetadata: {name: q}\nspec:\n  resources:\n    gpu: "
                                 "{quota: 0.5}\n")));
  EXPECT_EQ(fraction.err, Out("q.yaml") +
                              ": queue 'q': spec.resources.gpu.quota: expected a "
                              "whole number in [-1, 1000000], found '0.5'\n");
}

// The queues must form the tree a scenario's tenants form (TenantTreeProblems, the loader's own
// check), or the tenants file written would not load. Found by the cluster_config fuzz target: a
// queue whose parent's document had been cut was imported.
TEST_F(ImportFleetCliTest, KaiQueuesMustFormATree) {
  const std::string unknown_parent = Write("unknown.yaml", R"(# Copyright 2025 NVIDIA CORPORATION
# SPDX-License-Ident overQuotaWeight: 1
---
apiVersion: scheduling.run.ai/v2
kind: Queue
metadata:
  name: test
spec:
  parentQueue: default
  resources:
    cpu:
      quota: -1
      limit: -1
      overQuotaWeight: 1
    gpu:
      quota: 1
      limit: 1
      overQuotaWeight: 1
    memory:
      quota: -1
      limit: -1
      overQuotaWeight: 1
)");
  const CommandResult r =
      Fleetsim(fmt::format("import-fleet --from kai '{}' -o '{}'", unknown_parent, Out("t.json")));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, unknown_parent +
                       ": queue 'test': spec.parentQueue: unknown parent queue 'default' (queues: "
                       "'test')\n");
  EXPECT_FALSE(fs::exists(Out("t.json")));

  // Every problem at once, each where its queue is: the tree's, names and GPU figures.
  const std::string tree = Write("tree.yaml", R"(kind: List
items:
- {kind: Queue, metadata: {name: a}, spec: {parentQueue: b}}
- {kind: Queue, metadata: {name: b}, spec: {parentQueue: a}}
- {kind: Queue, metadata: {name: a}}
- {kind: Queue, metadata: {name: c}, spec: {parentQueue: research}}
- {kind: Queue, metadata: {name: d e}, spec: {resources: {gpu: {quota: 0.5}}}}
- {kind: Queue, metadata: {name: f}, spec: {resources: {gpu: {quota: 0.5}}}}
)");
  const CommandResult bad = Fleetsim(fmt::format("import-fleet --from kai '{}' -o -", tree));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err, fmt::format("{0}: items[0] (queue 'a'): spec.parentQueue: queue 'a' is its "
                                 "own ancestor (a -> b -> a)\n"
                                 "{0}: items[1] (queue 'b'): spec.parentQueue: queue 'b' is its "
                                 "own ancestor (b -> a -> b)\n"
                                 "{0}: items[2] (queue 'a'): metadata.name: duplicate queue name "
                                 "'a' (first used at {0}: items[0] (queue 'a'): metadata.name)\n"
                                 "{0}: items[3] (queue 'c'): spec.parentQueue: unknown parent "
                                 "queue 'research' (queues: 'a', 'b', 'c', 'f')\n"
                                 "{0}: items[4] (queue 'd e'): metadata.name: expected a name of "
                                 "1 to 128 letters, digits, '.', '_' or '-', not starting with "
                                 "'.', found 'd e'\n"
                                 "{0}: items[5] (queue 'f'): spec.resources.gpu.quota: expected a "
                                 "whole number in [-1, 1000000], found '0.5'\n",
                                 tree));

  // A limit below the quota (a limit of 0 is taken as 1) and a parent that is not a name.
  const std::string figures = Write("figures.yaml", R"(kind: List
items:
- {kind: Queue, metadata: {name: a}, spec: {resources: {gpu: {quota: 8, limit: 4}}}}
- {kind: Queue, metadata: {name: b}, spec: {resources: {gpu: {quota: 2, limit: 0}}}}
- {kind: Queue, metadata: {name: c}, spec: {resources: {gpu: {quota: 1, limit: 0}}}}
- {kind: Queue, metadata: {name: d}, spec: {parentQueue: {name: a}}}
)");
  const CommandResult limits = Fleetsim(fmt::format("import-fleet --from kai '{}' -o -", figures));
  EXPECT_EQ(limits.exit_code, 1);
  EXPECT_EQ(limits.err,
            fmt::format("{0}: items[0] (queue 'a'): spec.resources.gpu.limit: expected -1 or a "
                        "limit of at least the quota (8), found 4\n"
                        "{0}: items[1] (queue 'b'): spec.resources.gpu.limit: expected -1 or a "
                        "limit of at least the quota (2), found 0 (taken as 1)\n"
                        "{0}: items[3] (queue 'd'): spec.parentQueue: expected the name of a "
                        "queue, found a map\n",
                        figures));

  // A queue's name becomes a tenant's: the same rule.
  const std::string name = Write("name.yaml", "kind: Queue\nmetadata: {name: '.hidden'}\n");
  const CommandResult hidden = Fleetsim(fmt::format("import-fleet --from kai '{}' -o -", name));
  EXPECT_EQ(hidden.exit_code, 1);
  EXPECT_EQ(hidden.err, name +
                            ": queue '.hidden': metadata.name: expected a name of 1 to 128 "
                            "letters, digits, '.', '_' or '-', not starting with '.', found "
                            "'.hidden'\n");
}

TEST_F(ImportFleetCliTest, UsageErrors) {
  const CommandResult from = Fleetsim("import-fleet --from slurn x.conf -o -");
  EXPECT_EQ(from.exit_code, 2);
  EXPECT_EQ(from.err,
            "fleetsim import-fleet: unknown --from 'slurn', did you mean 'slurm'? (sources: "
            "'slurm', 'kubernetes', 'kai')\n");
  const CommandResult map = Fleetsim("import-fleet --from slurm x.conf --map h100 -o -");
  EXPECT_EQ(map.exit_code, 2);
  EXPECT_EQ(map.err,
            "fleetsim import-fleet: --map: expected TYPE=MODEL (e.g. m60=T4, untyped=H100-SXM), "
            "found 'h100'\n");
  const CommandResult same =
      Fleetsim("import-fleet --from slurm x.conf -o f.json --parameters-out f.json");
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_EQ(same.err,
            "fleetsim import-fleet: -o and --parameters-out name the same file 'f.json'\n");
  const CommandResult spelled =
      Fleetsim("import-fleet --from slurm x.conf -o f.json --parameters-out ./f.json");
  EXPECT_EQ(spelled.exit_code, 2);
  EXPECT_EQ(spelled.err,
            "fleetsim import-fleet: -o and --parameters-out name the same file './f.json'\n");
  // Standard output by two names: the fleet and the parameters would run together.
  const CommandResult both =
      Fleetsim("import-fleet --from slurm x.conf -o - --parameters-out /dev/stdout");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_EQ(both.err,
            "fleetsim import-fleet: -o '-' and --parameters-out '/dev/stdout' both write to "
            "standard output\n");
  const CommandResult directory = Fleetsim(
      fmt::format("import-fleet --from slurm x.conf -o f.json --parameters-out '{}'", dir_));
  EXPECT_EQ(directory.exit_code, 2);
  EXPECT_EQ(directory.err, fmt::format("fleetsim import-fleet: --parameters-out: '{}' is a "
                                       "directory, not a file\n",
                                       dir_));
  const CommandResult missing = Fleetsim("import-fleet --from slurm none.conf -o -");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("none.conf"), std::string::npos);
}

}  // namespace
}  // namespace fleetsim
