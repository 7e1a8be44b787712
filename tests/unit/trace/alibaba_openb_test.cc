// The Alibaba GPU v2023 ("openb") importer: every pod column mapped, the rules for ambiguous rows
// (zero lifetime, repeated models, files without times), exact bad-row and open errors, the
// options, the node lists and the fleet built from them; then the real trace files in
// ../shared/traces/alibaba-openb (failing when it is absent). The files a test writes are in a
// MemoryFileSystem ("scratch/..."); fixtures and the real trace are read from the disk.
#include "fleetsim/trace/alibaba_openb.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/fleet/fleet_state.h"
#include "fleetsim/fleet/topology.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/sim/simulation.h"
#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/import.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

using testing::DataPath;
using testing::ReadFile;
using testing::SourcePath;

constexpr const char* kHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
    "deletion_time,scheduled_time\n";

// Everything one pass over a pod file gives.
struct Read {
  std::string open_error;
  std::vector<Job> jobs;
  std::vector<std::string> errors;  // RowError::Format()
  std::vector<std::int64_t> job_lines;
  std::vector<std::string> notes;
};

// The files tests write: in memory, under "scratch/".
MemoryFileSystem& Scratch() {
  static MemoryFileSystem files;
  return files;
}

// A new empty folder of the scratch file system.
std::string ScratchDir() {
  static int folders = 0;
  const std::string dir = "scratch/" + std::to_string(folders++);
  EXPECT_TRUE(Scratch().CreateDirectories(dir).ok());
  return dir;
}

// Where `path` is: the scratch file system for what a test wrote, else the disk.
const FileSystem& FilesOf(const std::string& path) {
  return path.starts_with("scratch/") ? static_cast<const FileSystem&>(Scratch())
                                      : DiskFileSystem();
}

Read ReadPods(const std::string& path, const std::map<std::string, std::string>& given = {}) {
  const TraceFormat* format = FindTraceFormat("alibaba-openb");
  EXPECT_NE(format, nullptr);
  Read read;
  TraceOptionValues options;
  read.open_error = ResolveTraceOptions(*format, given, options).message();
  if (!read.open_error.empty()) {
    return read;
  }
  OpenResult opened = format->open(FilesOf(path), path, options);
  read.open_error = opened.status.message();
  if (!opened.source) {
    return read;
  }
  Job job;
  RowError error;
  for (auto status = opened.source->Next(job, error); status != JobSource::RowStatus::kEnd;
       status = opened.source->Next(job, error)) {
    if (status == JobSource::RowStatus::kJob) {
      read.jobs.push_back(job);
      read.job_lines.push_back(opened.source->line());
    } else {
      read.errors.push_back(error.Format());
    }
  }
  read.notes = opened.source->Notes();
  return read;
}

// Reads a whole pod file through the import driver, options at their defaults.
TraceReport ReadWithCatalog(const std::string& path, const Catalog& catalog, Workload& workload) {
  const TraceFormat& format = *FindTraceFormat("alibaba-openb");
  TraceOptionValues defaults;
  EXPECT_EQ(ResolveTraceOptions(format, {}, defaults).message(), "");
  return ReadTrace(format, path, defaults, {.catalog = &catalog, .files = &FilesOf(path)},
                   workload);
}

std::string WriteFile(const std::string& dir, const std::string& name, const std::string& text) {
  std::string path = dir + "/" + name;
  EXPECT_TRUE(Scratch().WriteFile(path, text).ok());
  return path;
}

bool HasNote(const Read& read, const std::string& note) {
  return std::find(read.notes.begin(), read.notes.end(), note) != read.notes.end();
}

std::string Fixture(const std::string& name) { return DataPath("traces/alibaba-openb/" + name); }

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

std::string TrimEnd(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
    text.pop_back();
  }
  return text;
}

TEST(AlibabaOpenbTest, IsRegisteredWithItsOptionsAndDefaults) {
  const TraceFormat* format = FindTraceFormat("alibaba-openb");
  ASSERT_NE(format, nullptr);
  std::map<std::string, std::string> defaults;
  for (const TraceOptionSpec& option : format->options) {
    defaults[option.name] = option.default_value;
  }
  EXPECT_EQ(defaults, (std::map<std::string, std::string>{
                          {"tenant", "default"},
                          {"qos_priorities", "LS=3,Guaranteed=3,Burstable=2,BE=1"},
                          {"untimed_duration_s", "12902960"},
                          {"nodes", ""}}));
}

TEST(AlibabaOpenbTest, MapsEveryColumnOfTheGoodFixture) {
  const Read read = ReadPods(Fixture("good.csv"));
  ASSERT_EQ(read.open_error, "");
  EXPECT_TRUE(read.errors.empty());
  ASSERT_EQ(read.jobs.size(), 6U);
  EXPECT_EQ(read.job_lines, (std::vector<std::int64_t>{2, 3, 4, 6, 7, 8}));  // line 5 is blank

  const JobRequest& whole = read.jobs[0].request;
  EXPECT_EQ(whole.id, "openb-pod-0000");
  EXPECT_EQ(whole.submit, 0);
  EXPECT_EQ(whole.tenant, "default");
  EXPECT_EQ(whole.priority_class, "LS");
  EXPECT_EQ(whole.priority, 3);
  EXPECT_EQ(whole.kind, JobKind::kUnspecified);
  EXPECT_EQ(whole.gpus, 1);
  EXPECT_EQ(whole.sharing, GpuSharing::kNone);
  EXPECT_EQ(whole.gpu_milli, 1000);
  EXPECT_TRUE(whole.gpu_models.empty());
  EXPECT_EQ(whole.cpu_milli, 12000);
  EXPECT_EQ(whole.memory_mib, 16384);
  EXPECT_EQ(read.jobs[0].truth.duration, 12'537'496'000);

  const JobRequest& share = read.jobs[1].request;
  EXPECT_EQ(share.priority_class, "BE");
  EXPECT_EQ(share.priority, 1);
  EXPECT_EQ(share.gpus, 1);
  EXPECT_EQ(share.sharing, GpuSharing::kFraction);
  EXPECT_EQ(share.gpu_milli, 460);
  EXPECT_EQ(read.jobs[1].truth.duration, (12'902'960 - 427'061) * kMillisPerSecond);

  const JobRequest& eight = read.jobs[2].request;
  EXPECT_EQ(eight.priority_class, "Guaranteed");
  EXPECT_EQ(eight.priority, 3);
  EXPECT_EQ(eight.gpus, 8);
  EXPECT_EQ(eight.gpu_models, (std::vector<std::string>{"V100M16", "V100M32"}));

  const JobRequest& cpu_only = read.jobs[3].request;
  EXPECT_EQ(cpu_only.priority_class, "Burstable");
  EXPECT_EQ(cpu_only.priority, 2);
  EXPECT_EQ(cpu_only.gpus, 0);
  EXPECT_EQ(cpu_only.sharing, GpuSharing::kNone);
  EXPECT_EQ(cpu_only.gpu_milli, 1000);
  EXPECT_EQ(cpu_only.cpu_milli, 4000);

  EXPECT_EQ(read.jobs[4].request.gpu_models, (std::vector<std::string>{"A10", "T4"}));
  EXPECT_EQ(read.jobs[4].truth.duration, kMillisPerSecond);  // deleted when created

  const Job& decimal = read.jobs[5];
  EXPECT_EQ(decimal.request.priority_class, "");
  EXPECT_EQ(decimal.request.priority, 1);
  EXPECT_EQ(decimal.request.submit, 12'800'000'250);
  EXPECT_EQ(decimal.truth.duration, 60'250);
  EXPECT_EQ(decimal.request.gpu_models, (std::vector<std::string>{"G2"}));
}

TEST(AlibabaOpenbTest, NotesSayWhatTheRulesDidToTheGoodFixture) {
  const Read read = ReadPods(Fixture("good.csv"));
  EXPECT_EQ(read.notes,
            (std::vector<std::string>{
                "pod phases: 1 Pending, 3 Running, 1 Succeeded, 1 Failed; pods of every phase are "
                "imported (the phase is not part of the job model)",
                "1 pod with deletion_time = creation_time (deleted within the second it was "
                "created): given a duration of 1 s, the trace's time resolution (e.g. "
                "'openb-pod-0004')",
                "1 pod with a GPU model repeated in gpu_spec: repeats dropped (e.g. "
                "'openb-pod-0002')",
                "columns not used: 'scheduled_time'"}));
}

TEST(AlibabaOpenbTest, EveryBadFixtureGivesItsExactFirstError) {
  const std::vector<std::string> fixtures =
      testing::FilesIn("tests/data/traces/alibaba-openb", ".csv");
  int checked = 0;
  for (const std::string& path : fixtures) {
    const std::string name = std::filesystem::path(path).filename().string();
    if (name.rfind("bad-", 0) != 0) {
      continue;
    }
    const std::string expected_path = path.substr(0, path.size() - 4) + ".expected.txt";
    const std::string expected = TrimEnd(ReadFile(expected_path));
    const Read read = ReadPods(path);
    const std::string first = !read.open_error.empty() ? read.open_error
                              : read.errors.empty()    ? "(no error)"
                                                       : read.errors.front();
    EXPECT_EQ(ReplaceAll(first, path, "FILE"), expected) << name;
    ++checked;
  }
  EXPECT_GE(checked, 15);
}

TEST(AlibabaOpenbTest, ReadingGoesOnAfterABadRow) {
  const std::string dir = ScratchDir();
  const std::string path = WriteFile(dir, "pods.csv",
                                     std::string(kHeader) +
                                         "a,1000,10,1,1000,,LS,Running,0,10,0\n"
                                         "b,1000,10,1,1000,,XX,Running,0,10,0\n"
                                         "c,1000,10,1,1000,,BE,Running,5,20,5\n");
  const Read read = ReadPods(path);
  ASSERT_EQ(read.errors.size(), 1U);
  EXPECT_EQ(read.errors[0].substr(0, path.size() + 4), path + ":3: ");
  ASSERT_EQ(read.jobs.size(), 2U);
  EXPECT_EQ(read.jobs[1].request.id, "c");
  EXPECT_EQ(read.job_lines, (std::vector<std::int64_t>{2, 4}));
}

TEST(AlibabaOpenbTest, TenantAndQosPrioritiesAreOptions) {
  const Read read =
      ReadPods(Fixture("good.csv"),
               {{"tenant", "alibaba"}, {"qos_priorities", "LS=10,Guaranteed=20,Burstable=5,BE=2"}});
  ASSERT_EQ(read.jobs.size(), 6U);
  EXPECT_EQ(read.jobs[0].request.tenant, "alibaba");
  EXPECT_EQ(read.jobs[0].request.priority, 10);
  EXPECT_EQ(read.jobs[1].request.priority, 2);
  EXPECT_EQ(read.jobs[2].request.priority, 20);
  EXPECT_EQ(read.jobs[3].request.priority, 5);
  EXPECT_EQ(read.jobs[5].request.priority, 1);  // no qos
}

TEST(AlibabaOpenbTest, BadOptionValuesAreOpenErrors) {
  const std::string path = Fixture("good.csv");
  const std::string qos_expected =
      ": option 'qos_priorities': expected CLASS=WEIGHT pairs separated by commas, each weight "
      "an integer in [1, 1000000], found ";
  const std::vector<std::pair<std::map<std::string, std::string>, std::string>> cases = {
      {{{"qos_priorities", "LS"}}, qos_expected + "'LS'"},
      {{{"qos_priorities", "LS=0,BE=1"}}, qos_expected + "'LS=0,BE=1'"},
      {{{"qos_priorities", "=3"}}, qos_expected + "'=3'"},
      {{{"qos_priorities", "LS=3,"}}, qos_expected + "'LS=3,'"},
      {{{"qos_priorities", ""}}, qos_expected + "''"},
      {{{"qos_priorities", "LS=3,LS=2"}},
       ": option 'qos_priorities': class 'LS' is given twice in 'LS=3,LS=2'"},
      {{{"tenant", ""}}, ": option 'tenant': expected a tenant name, found ''"},
      {{{"untimed_duration_s", "0"}},
       ": option 'untimed_duration_s': expected seconds > 0 (at most 3155760000, 100 years), "
       "found '0'"},
  };
  for (const auto& [options, expected] : cases) {
    EXPECT_EQ(ReadPods(path, options).open_error, path + expected);
  }
}

TEST(AlibabaOpenbTest, AFileWithoutTimesSubmitsEveryPodAtZeroForTheUntimedDuration) {
  const std::string dir = ScratchDir();
  const std::string path = WriteFile(dir, "multigpu.csv",
                                     "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
                                     "p1,12000,16384,1,1000\n"
                                     "p2,6000,12288,1,460\n"
                                     "p3,60200,320512,4,1000\n");
  const Read read = ReadPods(path);
  ASSERT_EQ(read.jobs.size(), 3U);
  for (const Job& job : read.jobs) {
    EXPECT_EQ(job.request.submit, 0);
    EXPECT_EQ(job.truth.duration, 12'902'960 * kMillisPerSecond);
    EXPECT_EQ(job.request.priority_class, "");
    EXPECT_TRUE(job.request.gpu_models.empty());
  }
  EXPECT_EQ(read.jobs[1].request.gpu_milli, 460);
  EXPECT_EQ(read.notes, (std::vector<std::string>{
                            "the file has no creation_time and deletion_time columns: every pod "
                            "is submitted at 0 s and runs for 12902960 s (option "
                            "'untimed_duration_s')"}));
  const Read shorter = ReadPods(path, {{"untimed_duration_s", "3600"}});
  EXPECT_EQ(shorter.jobs[0].truth.duration, 3'600'000);
}

TEST(AlibabaOpenbTest, AnEmptyFileIsAnOpenError) {
  const std::string path = WriteFile(ScratchDir(), "empty.csv", "");
  EXPECT_EQ(ReadPods(path).open_error,
            path +
                ": empty file: expected a header line with the columns 'name', 'cpu_milli', "
                "'memory_mib', 'num_gpu', 'gpu_milli'");
}

TEST(AlibabaOpenbTest, CrlfAndByteOrderMarkReadTheSame) {
  std::string text = ReadFile(Fixture("good.csv"));
  text = "\xEF\xBB\xBF" + ReplaceAll(text, "\n", "\r\n");
  const Read read = ReadPods(WriteFile(ScratchDir(), "crlf.csv", text));
  const Read plain = ReadPods(Fixture("good.csv"));
  ASSERT_EQ(read.jobs.size(), plain.jobs.size());
  for (std::size_t i = 0; i < read.jobs.size(); ++i) {
    EXPECT_EQ(read.jobs[i].request.id, plain.jobs[i].request.id);
    EXPECT_EQ(read.jobs[i].request.gpu_models, plain.jobs[i].request.gpu_models);
    EXPECT_EQ(read.jobs[i].truth.duration, plain.jobs[i].truth.duration);
  }
}

TEST(AlibabaOpenbTest, UnknownGpuModelsAreBadRowsOfTheImportDriver) {
  const Catalog catalog = BuiltinCatalog();
  const std::string path = WriteFile(ScratchDir(), "pods.csv",
                                     std::string(kHeader) +
                                         "a,1000,10,1,1000,T4|V100M32|G2,LS,Running,0,10,0\n"
                                         "b,1000,10,1,1000,T4|H800,LS,Running,0,10,0\n");
  Workload workload;
  const TraceReport report = ReadWithCatalog(path, catalog, workload);
  EXPECT_EQ(
      report.status.message().rfind(path + ":3: field 'gpu_models': unknown GPU model 'H800'", 0),
      0U)
      << report.status.message();
  const Read read = ReadPods(path);  // the reader itself takes any name
  EXPECT_EQ(read.jobs.size(), 2U);
}

TEST(AlibabaOpenbTest, TheGoodFixturePassesTheCatalogCheck) {
  const Catalog catalog = BuiltinCatalog();
  Workload workload;
  const TraceReport report = ReadWithCatalog(Fixture("good.csv"), catalog, workload);
  EXPECT_EQ(report.status.message(), "");
  EXPECT_EQ(workload.jobs.size(), 6U);
}

// Node lists.

TEST(OpenbNodesTest, LoadsEveryColumnIncludingCpuOnlyNodes) {
  std::vector<OpenbNode> nodes;
  ASSERT_EQ(LoadOpenbNodes(DiskFileSystem(), Fixture("nodes/nodes.csv"), BuiltinCatalog(), nodes)
                .message(),
            "");
  ASSERT_EQ(nodes.size(), 7U);
  EXPECT_EQ(nodes[0].sn, "openb-node-0000");
  EXPECT_EQ(nodes[0].cpu_milli, 64000);
  EXPECT_EQ(nodes[0].memory_mib, 262144);
  EXPECT_EQ(nodes[0].gpus, 2);
  EXPECT_EQ(nodes[0].model, "P100");
  EXPECT_EQ(nodes[1].gpus, 0);
  EXPECT_EQ(nodes[1].model, "");
  EXPECT_EQ(nodes[4].model, "V100M32");
}

TEST(OpenbNodesTest, BadNodeListsGiveExactErrorsAndLeaveTheOutputAlone) {
  const std::string dir = ScratchDir();
  const std::string header = "sn,cpu_milli,memory_mib,gpu,model\n";
  const std::string good = "n0,64000,262144,2,P100\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {header + good + "n1,64000,262144,2\n", ":3: expected 5 columns as in the header, found 4"},
      {header + "n1,64000,262144,two,T4\n", ":2: column 'gpu': expected an integer, found 'two'"},
      {header + "n1,-1,262144,2,T4\n",
       ":2: column 'cpu_milli': expected an integer in [0, 1000000000000], found -1"},
      {header + "n1,64000,262144,2,\n",
       ":2: column 'model': expected the GPU model of a node with gpu 2, found ''"},
      {header + "n1,64000,262144,0,T4\n",
       ":2: column 'model': expected no model for a node with gpu 0, found 'T4'"},
      {header + good + good, ":3: column 'sn': duplicate node 'n0' (first at line 2)"},
      {header + ",64000,262144,2,T4\n", ":2: column 'sn': expected a node name, found ''"},
      {header + "n1,32000,262144,0,\n", ": no GPU nodes: every node of the list has gpu 0"},
      {"sn,cpu_milli,gpu,model\n" + good,
       ":1: expected a header with the column 'memory_mib', found columns 'sn', 'cpu_milli', "
       "'gpu', 'model'"},
  };
  int index = 0;
  for (const auto& [text, expected] : cases) {
    const std::string path = WriteFile(dir, "nodes" + std::to_string(index++) + ".csv", text);
    std::vector<OpenbNode> nodes = {OpenbNode{}};
    EXPECT_EQ(LoadOpenbNodes(FilesOf(path), path, BuiltinCatalog(), nodes).message(),
              path + expected);
    EXPECT_EQ(nodes.size(), 1U);
  }
}

TEST(OpenbNodesTest, AnUnknownModelNamesTheKnownOnes) {
  const std::string path = WriteFile(ScratchDir(), "nodes.csv",
                                     "sn,cpu_milli,memory_mib,gpu,model\nn0,1000,1024,2,V100M64\n");
  std::vector<OpenbNode> nodes;
  const std::string error = LoadOpenbNodes(FilesOf(path), path, BuiltinCatalog(), nodes).message();
  EXPECT_EQ(error.rfind(path + ":2: column 'model': unknown GPU model 'V100M64', did you mean "
                               "'V100M16'? (the catalog has 'A100-80GB', ",
                        0),
            0U)
      << error;
  EXPECT_NE(error.find("'V100-32GB', 'P100', 'openb-G1'"), std::string::npos) << error;
}

TEST(OpenbNodesTest, AListOfMoreGpusThanAFleetMayHaveIsAnError) {
  std::string text = "sn,cpu_milli,memory_mib,gpu,model\n";
  for (int n = 0; n < 977; ++n) {
    text += "n" + std::to_string(n) + ",1000,1024,1024,T4\n";
  }
  const std::string path = WriteFile(ScratchDir(), "nodes.csv", text);
  std::vector<OpenbNode> nodes;
  EXPECT_EQ(LoadOpenbNodes(FilesOf(path), path, BuiltinCatalog(), nodes).message(),
            path + ": the node list holds 1000448 GPUs; a fleet may have at most 1000000");
}

TEST(OpenbNodesTest, FleetPoolsIdenticalNodesInFirstAppearanceOrder) {
  const Catalog catalog = BuiltinCatalog();
  std::vector<OpenbNode> nodes;
  ASSERT_EQ(LoadOpenbNodes(DiskFileSystem(), Fixture("nodes/nodes.csv"), catalog, nodes).message(),
            "");
  const FleetSpec fleet = OpenbFleet(nodes, catalog);
  EXPECT_EQ(fleet.gpus, 30);
  ASSERT_EQ(fleet.pools.size(), 4U);
  std::vector<std::string> names;
  std::vector<std::int64_t> counts;
  for (const PoolSpec& pool : fleet.pools) {
    names.push_back(pool.name);
    counts.push_back(pool.nodes);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"P100-2gpu-64cpu-256gib", "G2-8gpu-96cpu-384gib",
                                             "V100M32-8gpu-96cpu-768gib", "T4-2gpu-64cpu-256gib"}));
  EXPECT_EQ(counts, (std::vector<std::int64_t>{2, 2, 1, 1}));
  const PoolSpec& v100 = fleet.pools[2];
  EXPECT_EQ(v100.gpu.name, "V100-32GB");
  EXPECT_EQ(v100.node.gpu, "V100-32GB");
  EXPECT_EQ(v100.node.gpus_per_node, 8);
  EXPECT_EQ(v100.node.nvlink_domain_gpus, 1);
  EXPECT_EQ(v100.node.nodes_per_rack, 1);
  EXPECT_EQ(v100.cpu_cores, 96.0);
  EXPECT_EQ(v100.memory_gb, 768.0);
  EXPECT_EQ(v100.tier, PriceTier::kOnDemand);
  EXPECT_EQ(v100.mig, MigMode::kOff);
  EXPECT_EQ(fleet.pools[1].gpu.name, "openb-G2");
  EXPECT_EQ(fleet.pools[1].node.nodes_per_rack, 2);
}

TEST(OpenbNodesTest, TheFleetCanBeSimulated) {
  const Catalog catalog = BuiltinCatalog();
  std::vector<OpenbNode> nodes;
  ASSERT_EQ(LoadOpenbNodes(DiskFileSystem(), Fixture("nodes/nodes.csv"), catalog, nodes).message(),
            "");
  const FleetSpec fleet = OpenbFleet(nodes, catalog);
  const Topology topology(fleet);
  const FleetState state(fleet, topology);
  state.CheckInvariants();
  Workload workload;
  for (const Job& job : ReadPods(Fixture("good.csv")).jobs) {
    if (job.request.gpus > 0 && job.request.sharing == GpuSharing::kNone) {
      workload.jobs.push_back(job);
    }
  }
  ASSERT_EQ(workload.jobs.size(), 3U);
  SortBySubmit(workload);
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* fifo = registry.Find("fifo");
  Simulation sim(fleet, workload, fifo->make(DefaultParams(*fifo)), "fifo");
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  for (JobIndex j = 0; j < workload.jobs.size(); ++j) {
    EXPECT_EQ(sim.state(j), JobState::kCompleted) << j;
  }
}

TEST(OpenbNodesTest, TheNodesOptionCountsPodsTheListCannotServe) {
  const std::string dir = ScratchDir();
  const std::string pods = WriteFile(dir, "pods.csv",
                                     std::string(kHeader) +
                                         "fits,8000,1024,8,1000,G2,LS,Running,0,10,0\n"
                                         "too-big,120000,1024,8,1000,G2,LS,Running,0,10,0\n"
                                         "a10,8000,1024,1,500,A10|T4,LS,Running,0,10,0\n"
                                         "only-a10,8000,1024,1,1000,A10,LS,Running,0,10,0\n");
  std::string nodes_text;
  ASSERT_TRUE(DiskFileSystem().ReadFile(Fixture("nodes/nodes.csv"), nodes_text).ok());
  const std::string nodes_path = WriteFile(dir, "nodes.csv", nodes_text);
  const Read read = ReadPods(pods, {{"nodes", nodes_path}});
  ASSERT_EQ(read.open_error, "");
  EXPECT_EQ(read.jobs.size(), 4U);
  EXPECT_TRUE(HasNote(read, "6 GPU nodes, 30 GPUs (" + nodes_path + "); 1 CPU-only node left out"))
      << read.notes.size();
  EXPECT_TRUE(HasNote(read,
                      "2 pods with a GPU model in gpu_spec that no node of the node list "
                      "has (e.g. 'a10')"));
  EXPECT_TRUE(HasNote(read,
                      "2 pods fitting on no GPU node of the node list (by GPU count, GPU "
                      "model, CPU or memory), imported all the same (e.g. 'too-big')"));
}

TEST(OpenbNodesTest, ABadNodesOptionIsAnOpenError) {
  const std::string missing = ScratchDir() + "/absent.csv";
  const Read read = ReadPods(Fixture("good.csv"), {{"nodes", missing}});
  EXPECT_EQ(read.open_error.rfind(missing + ": cannot read: ", 0), 0U) << read.open_error;
}

// The real trace, when ../shared/traces is present.

class OpenbRealTraceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = SourcePath("../shared/traces/alibaba-openb");
    if (!std::filesystem::exists(dir_ + "/openb_pod_list_default.csv")) {
      GTEST_FAIL() << "the shared traces are not here (" << dir_
                   << "): the real-trace tests need them";
    }
  }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  std::string dir_;
};

TEST_F(OpenbRealTraceTest, TheDefaultVariantYields8152JobsWithoutBadRows) {
  const Read read = ReadPods(Path("openb_pod_list_default.csv"));
  ASSERT_EQ(read.open_error, "");
  EXPECT_EQ(read.jobs.size(), 8152U);
  EXPECT_TRUE(read.errors.empty()) << read.errors.front();
  EXPECT_TRUE(HasNote(read,
                      "pod phases: 897 Pending, 5193 Running, 192 Succeeded, 1870 Failed; "
                      "pods of every phase are imported (the phase is not part of the job "
                      "model)"));
  EXPECT_TRUE(HasNote(read,
                      "1 pod with deletion_time = creation_time (deleted within the second "
                      "it was created): given a duration of 1 s, the trace's time "
                      "resolution (e.g. 'openb-pod-7285')"));
}

TEST_F(OpenbRealTraceTest, TheOtherVariantsReadWithoutBadRows) {
  const std::map<std::string, std::size_t> expected = {
      {"cpu050", 7439}, {"gpushare40", 8152}, {"gpuspec33", 8152}, {"multigpu50", 9061}};
  for (const auto& [variant, jobs] : expected) {
    const Read read = ReadPods(Path("openb_pod_list_" + variant + ".csv"));
    EXPECT_EQ(read.open_error, "") << variant;
    EXPECT_EQ(read.jobs.size(), jobs) << variant;
    EXPECT_TRUE(read.errors.empty()) << variant << ": " << read.errors.front();
  }
}

TEST_F(OpenbRealTraceTest, EveryVariantPassesTheImportDriverWithTheCatalog) {
  const Catalog catalog = BuiltinCatalog();
  const std::map<std::string, std::size_t> expected = {{"default", 8152},
                                                       {"cpu050", 7439},
                                                       {"gpushare40", 8152},
                                                       {"gpuspec33", 8152},
                                                       {"multigpu50", 9061}};
  for (const auto& [variant, jobs] : expected) {
    Workload workload;
    const TraceReport report =
        ReadWithCatalog(Path("openb_pod_list_" + variant + ".csv"), catalog, workload);
    EXPECT_EQ(report.status.message(), "") << variant;
    EXPECT_EQ(report.skipped_rows(), 0) << variant;
    EXPECT_EQ(workload.jobs.size(), jobs) << variant;
  }
}

TEST_F(OpenbRealTraceTest, TheNodeListHas1213NodesAnd6212Gpus) {
  const Catalog catalog = BuiltinCatalog();
  std::vector<OpenbNode> nodes;
  ASSERT_EQ(LoadOpenbNodes(DiskFileSystem(), Path("openb_node_list_gpu_node.csv"), catalog, nodes)
                .message(),
            "");
  EXPECT_EQ(nodes.size(), 1213U);
  std::int64_t gpus = 0;
  for (const OpenbNode& node : nodes) {
    gpus += node.gpus;
  }
  EXPECT_EQ(gpus, 6212);
  const FleetSpec fleet = OpenbFleet(nodes, catalog);
  EXPECT_EQ(fleet.gpus, 6212);
  EXPECT_EQ(fleet.pools.size(), 15U);
  const Topology topology(fleet);
  EXPECT_EQ(topology.gpus(), 6212);
  FleetState(fleet, topology).CheckInvariants();

  std::vector<OpenbNode> all;
  ASSERT_EQ(LoadOpenbNodes(DiskFileSystem(), Path("openb_node_list_all_node.csv"), catalog, all)
                .message(),
            "");
  EXPECT_EQ(all.size(), 1523U);
  EXPECT_EQ(OpenbFleet(all, catalog).gpus, 6212);
}

TEST_F(OpenbRealTraceTest, Gpuspec33AgainstTheNodeList) {
  const std::string nodes = Path("openb_node_list_gpu_node.csv");
  const Read read = ReadPods(Path("openb_pod_list_gpuspec33.csv"), {{"nodes", nodes}});
  ASSERT_EQ(read.open_error, "");
  EXPECT_TRUE(HasNote(read, "1213 GPU nodes, 6212 GPUs (" + nodes + ")"));
  EXPECT_TRUE(HasNote(read,
                      "25 pods with a GPU model repeated in gpu_spec: repeats dropped (e.g. "
                      "'openb-pod-0527')"))
      << ::testing::PrintToString(read.notes);
  EXPECT_TRUE(HasNote(read,
                      "1 pod fitting on no GPU node of the node list (by GPU count, GPU "
                      "model, CPU or memory), imported all the same (e.g. "
                      "'openb-pod-1639')"));
}

}  // namespace
}  // namespace fleetsim
