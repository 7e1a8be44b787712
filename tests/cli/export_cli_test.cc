// End-to-end tests of `fleetsim export`: the sacct round trip (a run exported with --sacct and
// read back by `fleetsim import --from sacct` gives the run's completed jobs: ids, submit times,
// tenants, GPU counts and models, MIG sharing, walltime estimates and run times), the DCGM
// export loaded into a Prometheus TSDB by promtool (which must be installed: Debian's
// prometheus package) with the values expected, and bad input: each error says what is wrong,
// and nothing is written.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "fleetsim/policy/registry.h"
#include "fleetsim/report/output_sink.h"
#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"
#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::DataPath;
using testing::ReadFile;
using testing::SourcePath;

class ExportCliTest : public ::testing::Test {
 public:  // the helpers below share them
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult Fleetsim(const std::string& args) {
    return testing::RunCommand(fmt::format("'{}' {}", FLEETSIM_CLI_PATH, args), dir_);
  }
  std::string Out(const std::string& name) const { return dir_ + "/" + name; }

  // `fleetsim run SCENARIO [extra] --out DIR/run`: the run directory.
  std::string RunInto(const std::string& scenario, const std::string& extra = "") {
    const CommandResult run =
        Fleetsim(fmt::format("run '{}' {} --out '{}'", scenario, extra, Out("run")));
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return Out("run");
  }

  // Writes `contents` to NAME in the run folder and lists it so in the folder's manifest: a
  // folder changed after the run in a way `verify` cannot tell, to reach export's own checks.
  void RewriteCommitted(const std::string& run_dir, const std::string& name,
                        const std::string& contents) {
    std::ofstream(run_dir + "/" + name, std::ios::binary) << contents;
    const std::string manifest_path = run_dir + "/" + kOutputManifest;
    std::map<std::string, std::string> files;
    const nlohmann::json manifest = nlohmann::json::parse(ReadFile(manifest_path));
    for (const auto& entry : manifest["files"]) {
      const std::string path = entry["path"].get<std::string>();
      files[path] = fs::exists(run_dir + "/" + path) ? ReadFile(run_dir + "/" + path) : "";
    }
    std::ofstream(manifest_path, std::ios::binary) << OutputManifest(files);
  }

  // Expects `args` to fail with `status`, writing neither output, and returns stderr.
  std::string ExportError(const std::string& args, int status) {
    const CommandResult r = Fleetsim(
        fmt::format("export {} --sacct '{}' --dcgm '{}'", args, Out("out.sacct"), Out("out.prom")));
    EXPECT_EQ(r.exit_code, status) << r.err;
    EXPECT_FALSE(fs::exists(Out("out.sacct")));
    EXPECT_FALSE(fs::exists(Out("out.prom")));
    return r.err;
  }

  std::string dir_;
};

// The run `scenario` gives under `policy` ("" = its own), as the exports see it.
struct Expected {
  RunReport report;
  Workload workload;
};

Expected RunInProcess(const std::string& scenario_file, const std::string& policy) {
  const PolicyRegistry registry = BuiltinPolicies();
  LoadResult loaded = LoadScenarioFile(scenario_file, registry, {});
  EXPECT_TRUE(loaded.scenario.has_value()) << loaded.diagnostics.Format(scenario_file);
  const Scenario& scenario = *loaded.scenario;
  RunOptions options;
  options.seed = scenario.seed;
  options.record_timeline = true;
  RunOutcome outcome =
      RunScenario(scenario, registry, ChoosePolicy(scenario, registry, policy), options);
  EXPECT_TRUE(outcome.status.ok()) << outcome.status.message();
  return {std::move(outcome.report), BuildWorkload(scenario, scenario.seed)};
}

std::vector<std::string> SplitModels(const std::string& joined) {
  std::vector<std::string> models;
  std::stringstream in(joined);
  for (std::string model; std::getline(in, model, '|');) {
    models.push_back(model);
  }
  return models;
}

// The native jobs `fleetsim import` wrote, by id.
std::map<std::string, nlohmann::json> ImportedJobs(const std::string& jsonl) {
  std::map<std::string, nlohmann::json> jobs;
  std::stringstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json job = nlohmann::json::parse(line);
    jobs[job["id"].get<std::string>()] = job;
  }
  return jobs;
}

// Runs, exports with --sacct, imports the export back and checks every completed GPU job.
void ExpectSacctRoundTrip(ExportCliTest& test, const std::string& scenario,
                          const std::string& policy) {
  SCOPED_TRACE(scenario + " under " + (policy.empty() ? "its own policy" : policy));
  const std::string run_dir =
      test.RunInto(scenario, policy.empty() ? "" : fmt::format("--policy {}", policy));
  const CommandResult exported = test.Fleetsim(fmt::format(
      "export '{}' --scenario '{}' --sacct '{}'", run_dir, scenario, test.Out("jobs.sacct")));
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const CommandResult imported = test.Fleetsim(
      fmt::format("import --from sacct '{}' --option epoch=2026-01-01T00:00:00 -o '{}'",
                  test.Out("jobs.sacct"), test.Out("jobs.jsonl")));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const std::map<std::string, nlohmann::json> jobs = ImportedJobs(ReadFile(test.Out("jobs.jsonl")));
  const Expected expected = RunInProcess(scenario, policy);
  std::size_t completed = 0;
  for (std::size_t i = 0; i < expected.report.jobs.size(); ++i) {
    const JobRecordRow& row = expected.report.jobs[i];
    const JobRequest& request = expected.workload.jobs[i].request;
    if (row.state != FinalState::kCompleted || row.gpus_allocated == 0) {
      EXPECT_EQ(jobs.count(row.id), 0U) << row.id << " is not a finished GPU job";
      continue;
    }
    ++completed;
    ASSERT_EQ(jobs.count(row.id), 1U) << row.id;
    const nlohmann::json& job = jobs.at(row.id);
    SCOPED_TRACE(job.dump());
    EXPECT_EQ(job["submit_s"].get<std::int64_t>(), row.submit / 1000);
    EXPECT_EQ(job.value("tenant", "default"), row.tenant);
    EXPECT_EQ(job["gpus"].get<std::int64_t>(), row.gpus_allocated);
    EXPECT_EQ(job.value("gpu_models", std::vector<std::string>{}), SplitModels(row.gpu_models));
    EXPECT_EQ(job.value("sharing", "none"), request.sharing == GpuSharing::kMig ? "mig" : "none");
    EXPECT_EQ(job.value("walltime_s", std::int64_t{0}), (request.walltime_estimate + 999) / 1000);
    EXPECT_EQ(job["duration_s"].get<std::int64_t>(),
              std::max<std::int64_t>(row.end / 1000 - row.start / 1000, 1));
  }
  EXPECT_EQ(jobs.size(), completed);
  EXPECT_GT(completed, 0U);
}

TEST_F(ExportCliTest, SacctRoundTripGivesTheRunsJobs) {
  ExpectSacctRoundTrip(*this, SourcePath("scenarios/examples/team-trace.json"), "");
  ExpectSacctRoundTrip(*this, SourcePath("scenarios/examples/tiny-contended.json"), "first-fit");
}

TEST_F(ExportCliTest, SacctRoundTripOfMigJobsFailuresAndAStopTime) {
  ExpectSacctRoundTrip(*this, DataPath("export/mig-export.json"), "");
  ExpectSacctRoundTrip(*this, DataPath("export/mig-export.json"), "backfill");
}

TEST_F(ExportCliTest, SacctRowsSayWhatBecameOfEachJob) {
  const std::string scenario = DataPath("export/mig-export.json");
  const std::string run_dir = RunInto(scenario);
  const CommandResult r =
      Fleetsim(fmt::format("export '{}' --scenario '{}' --sacct '{}' --epoch "
                           "2024-02-28T12:00:00",
                           run_dir, scenario, Out("jobs.sacct")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::string> rows;
  std::stringstream in(ReadFile(Out("jobs.sacct")));
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header,
            "JobID|User|Account|Partition|Submit|Start|End|Elapsed|Timelimit|AllocTRES|ReqTRES|"
            "State|NodeList");
  for (std::string line; std::getline(in, line);) {
    rows[line.substr(0, line.find('|'))] = line;
  }
  EXPECT_EQ(rows.at("mig-small"),
            "mig-small|infer|infer|a100-mig|2024-02-28T12:01:00|2024-02-28T12:01:00|"
            "2024-02-28T14:01:00|02:00:00|02:30:00|billing=1,node=1,gres/gpu=1,"
            "gres/gpu:a100-80gb_3g.40gb=1|billing=1,node=1,gres/gpu=1,gres/gpu:a100-80gb_3g.40gb=1|"
            "COMPLETED|a100-mig-001");
  EXPECT_TRUE(rows.at("mig-a100")
                  .starts_with("mig-a100|infer|infer|a100-mig|2024-02-28T12:02:10|2024-02-28T12:02:"
                               "10|2024-02-29T13:03:11|"
                               "1-01:01:01|1-03:46:40|"))
      << rows.at("mig-a100");
  EXPECT_EQ(rows.at("too-big"),
            "too-big|default|default|gpu|2024-02-28T12:04:00|None|2024-02-28T12:04:00|00:00:00|"
            "UNLIMITED||billing=64,node=1,gres/gpu=64|CANCELLED|None assigned");
  EXPECT_EQ(rows.at("late-long"),
            "late-long|default|default|gpu|2024-03-01T11:30:00|Unknown|Unknown|00:00:00|UNLIMITED||"
            "billing=8,node=1,gres/gpu=8|PENDING|None assigned");
  EXPECT_EQ(rows.count("after-end"), 0U) << "submitted after the end of the run";
  const std::string& h100 = rows.at("h100-only");
  EXPECT_NE(h100.find("|billing=8,cpu=16,mem=64G,node=1,gres/gpu=8,gres/gpu:h100-sxm=8|"),
            std::string::npos)
      << h100;
  std::size_t running = 0;
  for (const auto& [id, row] : rows) {
    if (row.find("|RUNNING|") != std::string::npos) {
      ++running;
      EXPECT_NE(row.find("|Unknown|"), std::string::npos) << "a running job has no End: " << row;
      EXPECT_NE(row.find("|h100-"), std::string::npos) << row;
    }
  }
  EXPECT_GT(running, 0U);
}

// promtool from Debian's prometheus package: the test fails without it.
std::string Promtool(ExportCliTest& test, const std::string& args) {
  const CommandResult r = testing::RunCommand("promtool " + args, test.Out(""));
  EXPECT_EQ(r.exit_code, 0) << "promtool " << args << ": " << r.err
                            << " (promtool comes with Debian's prometheus package, one of the "
                               "test packages in tools/lib.sh)";
  return r.out;
}

TEST_F(ExportCliTest, DcgmExportLoadsIntoPrometheusWithTheValuesExpected) {
  const std::string scenario = DataPath("export/mig-export.json");
  const std::string run_dir = RunInto(scenario);
  const CommandResult r =
      Fleetsim(fmt::format("export '{}' --scenario '{}' --dcgm '{}' --interval 10m", run_dir,
                           scenario, Out("dcgm.prom")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = ReadFile(Out("dcgm.prom"));
  ASSERT_TRUE(text.ends_with("# EOF\n"));
  EXPECT_TRUE(
      text.starts_with("# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
                       "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"));
  Promtool(*this, "--version");
  Promtool(*this, fmt::format("tsdb create-blocks-from openmetrics '{}' '{}'", Out("dcgm.prom"),
                              Out("tsdb")));
  fs::create_directories(Out("tsdb/wal"));  // `tsdb dump` reads the WAL too
  const std::string dump = Promtool(*this, fmt::format("tsdb dump '{}'", Out("tsdb")));

  // 32 GPUs x 4 metrics, each sampled every 600 s before the end of the 172,800 s run: 288
  // samples.
  const std::size_t samples = static_cast<std::size_t>(std::count(dump.begin(), dump.end(), '\n'));
  EXPECT_EQ(samples, 32U * 4U * 288U);
  std::set<std::string> series;
  std::stringstream in(dump);
  for (std::string line; std::getline(in, line);) {
    series.insert(line.substr(0, line.find('}') + 1));
  }
  EXPECT_EQ(series.size(), 32U * 4U);
  // An idle A100 at time 0 draws 10 % of its 400 W TDP and uses no memory.
  const std::string a100 =
      R"(Hostname="a100-mig-001", UUID="{}", __name__="{}", device="nvidia7", gpu="7", )"
      R"(modelName="NVIDIA A100-SXM4-80GB"}} {} 1767225600000)";
  const std::string gpu7 =
      R"(",device="nvidia7",modelName="NVIDIA A100-SXM4-80GB",Hostname="a100-mig-001"})";
  const std::string uuid = text.substr(text.find(gpu7) - 40, 40);
  EXPECT_NE(dump.find(fmt::format(fmt::runtime(a100), uuid, "DCGM_FI_DEV_POWER_USAGE", 40)),
            std::string::npos)
      << uuid;
  EXPECT_NE(dump.find(fmt::format(fmt::runtime(a100), uuid, "DCGM_FI_DEV_FB_USED", 0)),
            std::string::npos);
  // h100-only holds a whole H100 node (8 x 700 W, 80 GB each) at 600 s.
  EXPECT_NE(dump.find(R"(__name__="DCGM_FI_DEV_POWER_USAGE", device="nvidia3", gpu="3", )"
                      R"(modelName="NVIDIA H100 80GB HBM3"} 700 1767226200000)"),
            std::string::npos);
  // The H100 nodes fail: their GPUs report XID 79 while down.
  EXPECT_NE(dump.find(R"(modelName="NVIDIA H100 80GB HBM3"} 79 )"), std::string::npos);
  EXPECT_EQ(dump.find(R"(modelName="NVIDIA A100-SXM4-80GB"} 79 )"), std::string::npos);
}

// The metric names `text` uses: every DCGM_FI_... word.
std::set<std::string> DcgmNamesIn(const std::string& text) {
  std::set<std::string> names;
  for (std::size_t at = text.find("DCGM_FI_"); at != std::string::npos;
       at = text.find("DCGM_FI_", at + 1)) {
    const std::size_t end = text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789", at);
    names.insert(text.substr(at, end - at));
  }
  return names;
}

TEST_F(ExportCliTest, TheGrafanaDashboardQueriesOnlyWhatTheExportWrites) {
  const std::string scenario = DataPath("export/mig-export.json");
  const std::string run_dir = RunInto(scenario);
  ASSERT_EQ(Fleetsim(fmt::format("export '{}' --scenario '{}' --dcgm '{}' --interval 1h", run_dir,
                                 scenario, Out("dcgm.prom")))
                .exit_code,
            0);
  std::set<std::string> written;
  std::stringstream in(ReadFile(Out("dcgm.prom")));
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("# TYPE ")) {
      written.insert(line.substr(7, line.find(' ', 7) - 7));
    }
  }
  EXPECT_EQ(written.size(), 4U);

  const nlohmann::json dashboard =
      nlohmann::json::parse(ReadFile(SourcePath("tools/grafana/fleetsim-dcgm-dashboard.json")));
  std::set<std::string> queried;
  std::set<std::string> titles;
  for (const nlohmann::json& panel : dashboard.at("panels")) {
    titles.insert(panel.at("title").get<std::string>());
    EXPECT_EQ(panel.at("datasource"), "$datasource") << panel.at("title");
    ASSERT_FALSE(panel.at("targets").empty()) << panel.at("title");
    for (const nlohmann::json& target : panel.at("targets")) {
      const std::set<std::string> names = DcgmNamesIn(target.at("expr").get<std::string>());
      EXPECT_FALSE(names.empty()) << target.at("expr");
      queried.insert(names.begin(), names.end());
    }
  }
  bool datasource_variable = false;
  for (const nlohmann::json& variable : dashboard.at("templating").at("list")) {
    datasource_variable = datasource_variable || (variable.at("name") == "datasource" &&
                                                  variable.at("type") == "datasource");
    const std::set<std::string> names = DcgmNamesIn(variable.value("query", ""));
    queried.insert(names.begin(), names.end());
  }
  EXPECT_TRUE(datasource_variable);
  for (const std::string& name : queried) {
    EXPECT_EQ(written.count(name), 1U) << name << " is queried but not exported";
  }
  EXPECT_EQ(queried, written) << "every exported metric has a panel";
  // NVIDIA's dashboard's panels for the metrics the export writes are all there.
  for (const char* title :
       {"GPU Power Usage", "GPU Power Total", "GPU Utilization", "GPU Framebuffer Mem Used"}) {
    EXPECT_EQ(titles.count(title), 1U) << title;
  }
}

TEST_F(ExportCliTest, ExportsAreDeterministic) {
  const std::string scenario = DataPath("export/mig-export.json");
  const std::string run_dir = RunInto(scenario);
  const std::string args =
      fmt::format("export '{}' --scenario '{}' --interval 1h", run_dir, scenario);
  for (const char* name : {"a", "b"}) {
    ASSERT_EQ(Fleetsim(fmt::format("{} --sacct '{}' --dcgm '{}'", args, Out(name) + ".sacct",
                                   Out(name) + ".prom"))
                  .exit_code,
              0);
  }
  EXPECT_EQ(ReadFile(Out("a.sacct")), ReadFile(Out("b.sacct")));
  EXPECT_EQ(ReadFile(Out("a.prom")), ReadFile(Out("b.prom")));
}

TEST_F(ExportCliTest, BadInputIsReportedAndNothingIsWritten) {
  const std::string scenario = DataPath("export/mig-export.json");
  const std::string run_dir = RunInto(scenario);
  const std::string ok = fmt::format("'{}' --scenario '{}'", run_dir, scenario);

  const CommandResult same =
      Fleetsim(fmt::format("export {} --sacct '{}' --dcgm '{}/./out.x'", ok, Out("out.x"), dir_));
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_NE(same.err.find("--sacct and --dcgm name the same file"), std::string::npos) << same.err;
  EXPECT_FALSE(fs::exists(Out("out.x")));
  const CommandResult relative =
      testing::RunCommand(fmt::format("cd '{}' && '{}' export {} --sacct x.s --dcgm ./x.s", dir_,
                                      FLEETSIM_CLI_PATH, ok),
                          dir_);
  EXPECT_EQ(relative.exit_code, 2);
  EXPECT_NE(relative.err.find("--sacct and --dcgm name the same file"), std::string::npos)
      << relative.err;
  EXPECT_FALSE(fs::exists(dir_ + "/x.s"));

  const CommandResult nothing = Fleetsim("export " + ok);
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_NE(nothing.err.find("nothing to write: give --sacct FILE, --dcgm FILE or both"),
            std::string::npos);
  EXPECT_NE(ExportError(ok + " --epoch 2026-02-30T00:00:00", 2)
                .find("--epoch: expected a UTC time as YYYY-MM-DDTHH:MM:SS, found "
                      "'2026-02-30T00:00:00'"),
            std::string::npos);
  EXPECT_NE(ExportError(ok + " --epoch 9999-12-31T00:00:00", 2)
                .find("--epoch: 9999-12-31T00:00:00 plus the run's 172861 s passes "
                      "9999-12-31T23:59:59"),
            std::string::npos);
  // Checked from the summary's window before the scenario is read or rerun.
  EXPECT_NE(ExportError(fmt::format("'{}' --scenario '{}/none.json' --epoch 9999-12-31T00:00:00",
                                    run_dir, dir_),
                        2)
                .find("--epoch: 9999-12-31T00:00:00 plus the run's 172861 s passes"),
            std::string::npos);
  EXPECT_NE(ExportError(ok + " --interval 0", 2)
                .find("--interval: expected a whole number of seconds above 0"),
            std::string::npos);
  EXPECT_NE(ExportError(ok + " --interval 5x", 2).find("found '5x'"), std::string::npos);
  EXPECT_NE(ExportError(ok + " --interval 1s", 2)
                .find("--dcgm: 172800 samples of 32 GPUs (every 1 s over 172800 s) is more than "
                      "1000000 samples x GPUs; use a larger --interval, at least 6s"),
            std::string::npos);
  EXPECT_NE(ExportError(fmt::format("'{}' --scenario '{}'", run_dir,
                                    SourcePath("scenarios/examples/tiny-contended.json")),
                        2)
                .find("/name: expected 'export-mig', the scenario of " + run_dir +
                      "/summary.json, found 'tiny-contended'"),
            std::string::npos);

  const std::string jobs = ReadFile(run_dir + "/jobs.csv");
  std::string changed = jobs;
  changed.replace(changed.find("mig-small,infer"), 9, "mig-tiny");
  std::ofstream(run_dir + "/jobs.csv", std::ios::binary) << changed;
  const std::string unlisted = ExportError(ok, 1);
  EXPECT_NE(unlisted.find("not one complete run's results (`fleetsim verify`): " + run_dir +
                          "/jobs.csv: not the file the manifest lists"),
            std::string::npos)
      << unlisted;
  RewriteCommitted(run_dir, "jobs.csv", changed);
  const std::string differs = ExportError(ok, 2);
  EXPECT_NE(differs.find(run_dir + "/jobs.csv: not what '" + scenario +
                         "' gives under policy 'fifo' with seed 1"),
            std::string::npos)
      << differs;
  EXPECT_NE(differs.find("line 3: the run directory has 'mig-tiny,infer"), std::string::npos)
      << differs;
  RewriteCommitted(run_dir, "jobs.csv", jobs);

  const std::string summary = ReadFile(run_dir + "/summary.json");
  nlohmann::ordered_json facts = nlohmann::ordered_json::parse(summary);
  facts["policy"]["name"] = "fist-fit";
  RewriteCommitted(run_dir, "summary.json", facts.dump(2));
  const std::string unknown = ExportError(ok, 1);
  EXPECT_NE(unknown.find("/policy/name"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("did you mean 'first-fit'?"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("--policy-module"), std::string::npos) << unknown;

  facts = nlohmann::ordered_json::parse(summary);
  facts["seed"] = "one";
  RewriteCommitted(run_dir, "summary.json", facts.dump(2));
  EXPECT_NE(ExportError(ok, 1).find(run_dir + "/summary.json: /seed: expected an integer >= 0, "
                                              "found \"one\""),
            std::string::npos);
  RewriteCommitted(run_dir, "summary.json", "{\"scenario\": ");
  EXPECT_NE(ExportError(ok, 1).find(run_dir + "/summary.json:1:14: invalid JSON: "),
            std::string::npos);
  RewriteCommitted(run_dir, "summary.json", "[1, 2]");
  EXPECT_NE(ExportError(ok, 1).find("summary.json: expected the JSON object 'fleetsim run --out' "
                                    "writes, found [1,2]"),
            std::string::npos);

  fs::remove(run_dir + "/summary.json");
  EXPECT_NE(ExportError(ok, 1).find(run_dir + "/summary.json: cannot read"), std::string::npos);
  EXPECT_NE(ExportError(fmt::format("'{}' --scenario '{}'", Out("nowhere"), scenario), 1)
                .find("nowhere: no readable manifest"),
            std::string::npos);
}

}  // namespace
}  // namespace fleetsim
