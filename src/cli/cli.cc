// The fleetsim commands: argument parsing (CLI11), loading, running and writing results.
#include "cli/cli.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/bound_command.h"
#include "cli/exit_status.h"
#include "cli/export_command.h"
#include "cli/fill_command.h"
#include "cli/import_fleet_command.h"
#include "cli/output_targets.h"
#include "cli/plan_command.h"
#include "cli/shell_words.h"
#include "cli/staged_outputs.h"
#include "cli/sweep_command.h"
#include "fleetsim/core/file_system.h"
#include "fleetsim/core/version.h"
#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/python/policy_module.h"
#include "fleetsim/report/bench_report.h"
#include "fleetsim/report/bound_figures.h"
#include "fleetsim/report/catalog_tables.h"
#include "fleetsim/report/compare_report.h"
#include "fleetsim/report/fleet_summary.h"
#include "fleetsim/report/html_report.h"
#include "fleetsim/report/output_sink.h"
#include "fleetsim/report/outputs.h"
#include "fleetsim/report/result_compare.h"
#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"
#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/import.h"
#include "fleetsim/trace/native.h"

namespace fleetsim::cli {

namespace {

// Refuses NaN, which CLI11's Range lets through (no comparison with it is true): for the options
// that take a real number.
const CLI::Validator kNotNan(
    [](std::string& text) {
      double value = 0;
      if (CLI::detail::lexical_cast(text, value) && std::isnan(value)) {
        return std::string("Value ") + text + " is not a number";
      }
      return std::string();
    },
    "", "not NaN");

struct RunArgs {
  std::vector<std::string> scenarios;
  std::vector<std::string> policies;
  std::optional<std::string> seed;  // "N" or "FIRST-LAST"; parsed by ParseSeeds
  std::string out_dir;
  std::string html_file;
  bool strict = false;
  bool timing = false;
  bool check_invariants = false;
};

struct ImportArgs {
  std::string from;
  std::string input;
  std::string output;
  std::string to;                    // "jsonl" or "csv"; "" = from the output's extension
  std::vector<std::string> options;  // "name=value"
  std::string on_bad_row = "fail";
};

constexpr const char* kDefaultBenchDirectory = "scenarios/benchmark";
constexpr const char* kPublishedFiguresFile = "published-figures.json";
// The bounds of a suite (`fleetsim bound --json`), in a subdirectory so that the suite's
// directory holds only scenarios and the published figures.
constexpr const char* kBoundsFile = "bounds/bounds.json";

struct BenchArgs {
  std::vector<std::string> paths;  // scenario files or directories of them
  std::vector<std::string> policies;
  std::string json_file;
  std::string html_file;
  std::string out_dir;
  std::string published_file;
  std::string bounds_file;
  std::string check_file;  // --check: goldens to compare the results with; "" when not given
  bool strict = false;
  bool check_invariants = false;
};

struct CompareArgs {
  std::string baseline;
  std::string current;
  std::vector<std::string> tolerances;  // "X" or "METRIC=X"; parsed by ParseTolerances
  std::string format = "text";          // a CompareFormatNames() entry
  std::string output;                   // the report's file; "" for stdout
  bool only_drift = false;
  bool strict = false;
  bool seeds = false;
};

struct ValidateArgs {
  std::vector<std::string> files;
  bool strict = false;
};

std::optional<std::uint64_t> ParseSeed(const std::string& text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || text[0] == '-' || text[0] == '+' || ec != std::errc() || ptr != end) {
    return std::nullopt;
  }
  return value;
}

// Every run of a range is kept in memory until its files are written: this bounds that.
inline constexpr std::uint64_t kMaxSeedsPerRun = 1'000;

// What --seed asked for: one seed, or a range (whose runs are laid out by seed).
struct SeedArg {
  std::vector<std::uint64_t> seeds;
  bool range = false;
};

// "N" -> {N}; "FIRST-LAST" (FIRST <= LAST, at most kMaxSeedsPerRun seeds) -> FIRST..LAST.
std::optional<SeedArg> ParseSeeds(const std::string& text) {
  const std::size_t dash = text.find('-');
  if (dash == std::string::npos) {
    const auto seed = ParseSeed(text);
    return seed ? std::optional(SeedArg{.seeds = {*seed}, .range = false}) : std::nullopt;
  }
  const auto first = ParseSeed(text.substr(0, dash));
  const auto last = ParseSeed(text.substr(dash + 1));
  if (!first || !last || *first > *last || *last - *first >= kMaxSeedsPerRun) {
    return std::nullopt;
  }
  SeedArg arg{.seeds = {}, .range = true};
  for (std::uint64_t seed = *first; seed != *last; ++seed) {
    arg.seeds.push_back(seed);
  }
  arg.seeds.push_back(*last);
  return arg;
}

class Cli {
 public:
  Cli(std::ostream& out, std::ostream& err, bool err_is_terminal)
      : out_(out), err_(err), err_is_terminal_(err_is_terminal), registry_(BuiltinPolicies()) {}

  int Main(int argc, const char* const* argv) {
    command_line_ = ReproduceCommand(argc, argv);
    CLI::App app{"fleetsim: a discrete-event simulator of GPU-cluster scheduling", "fleetsim"};
    app.set_version_flag("--version", fmt::format("fleetsim {}", kVersion));
    app.require_subcommand(1);
    app.fallthrough();  // -v may also follow the command
    int verbosity = 0;
    app.add_flag("-v,--verbose", verbosity, "More diagnostics on stderr (-v: debug, -vv: trace)");

    RunArgs run;
    CLI::App* run_cmd = app.add_subcommand("run", "Run scenarios under one or more policies");
    run_cmd->add_option("scenario", run.scenarios, "Scenario files (JSON)")->required();
    run_cmd
        ->add_option("-p,--policy", run.policies,
                     "Policy to run (repeatable, or comma-separated); 'all' runs every "
                     "policy. Default: the scenario's own policy")
        ->allow_extra_args(false)
        ->delimiter(',');
    run_cmd->add_option("-s,--seed", run.seed,
                        "Seed, an integer in [0, 18446744073709551615], overriding the "
                        "scenario's; or a range FIRST-LAST: every run once per seed");
    run_cmd->add_option("-o,--out", run.out_dir,
                        "Directory for summary.json, jobs.csv and timeseries.csv");
    run_cmd->add_option("--html", run.html_file,
                        "Write a self-contained HTML report of the runs to this file "
                        "(docs/outputs.md#run-report-html)");
    run_cmd->add_flag("--strict", run.strict, "Treat unknown keys as errors");
    run_cmd->add_flag("--timing", run.timing, "Record wall-clock run time in summary.json");
    run_cmd->add_flag("--check-invariants", run.check_invariants,
                      "Check the engine's invariants after every event, as debug builds do "
                      "(slower; a violation aborts with an internal error)");

    ValidateArgs validate;
    CLI::App* validate_cmd =
        app.add_subcommand("validate", "Check scenario files; report all problems");
    validate_cmd->add_option("file", validate.files, "Scenario files (JSON)")->required();
    validate_cmd->add_flag("--strict", validate.strict, "Treat unknown keys as errors");

    std::string fleet_file;
    bool fleet_strict = false;
    CLI::App* fleet_cmd = app.add_subcommand("fleet", "Describe a scenario's fleet");
    fleet_cmd->add_option("scenario", fleet_file, "Scenario file (JSON)")->required();
    fleet_cmd->add_flag("--strict", fleet_strict, "Treat unknown keys as errors");

    ImportArgs import;
    CLI::App* import_cmd =
        app.add_subcommand("import", "Convert a trace to the native JSON Lines or CSV format");
    import_cmd
        ->add_option("--from", import.from, "Input format (see 'fleetsim list trace-formats')")
        ->required();
    import_cmd->add_option("input", import.input, "Trace file to read")->required();
    import_cmd->add_option("-o,--out", import.output, "Output file; '-' writes to stdout")
        ->required();
    import_cmd
        ->add_option("--to", import.to,
                     "Output format: jsonl or csv (default: csv for a .csv output, "
                     "else jsonl)")
        ->check(CLI::IsMember({"jsonl", "csv"}));
    import_cmd->add_option("--option", import.options,
                           "A format option NAME=VALUE (repeatable; see 'fleetsim list "
                           "trace-formats')");
    import_cmd
        ->add_option("--on-bad-row", import.on_bad_row,
                     "fail (default): stop at the first unreadable row; skip: leave bad rows "
                     "out and report how many and why")
        ->check(CLI::IsMember({"fail", "skip"}));

    BenchArgs bench;
    CLI::App* bench_cmd = app.add_subcommand(
        "bench", "Run a benchmark suite: every scenario under every policy, side by side");
    bench_cmd->add_option("path", bench.paths,
                          fmt::format("Scenario files or directories of them (their *.json but "
                                      "{}). Default: {}",
                                      kPublishedFiguresFile, kDefaultBenchDirectory));
    bench_cmd
        ->add_option("-p,--policy", bench.policies,
                     "Policies to run (repeatable, or comma-separated). Default: all")
        ->allow_extra_args(false)
        ->delimiter(',');
    bench_cmd->add_option("--json", bench.json_file, "Write the results as JSON to this file");
    bench_cmd->add_option("--check", bench.check_file,
                          "Compare the results with these goldens (as 'fleetsim compare "
                          "--strict' does) and exit 5 on drift");
    bench_cmd->add_option("--html", bench.html_file,
                          "Write a self-contained HTML report with charts to this file");
    bench_cmd->add_option("-o,--out", bench.out_dir,
                          "Directory for each run's summary.json and jobs.csv, and comparison.csv");
    bench_cmd->add_option("--published", bench.published_file,
                          fmt::format("Published figures to show beside ours. Default: {} in "
                                      "the first directory given, when there is one",
                                      kPublishedFiguresFile));
    bench_cmd->add_option(
        "--bounds", bench.bounds_file,
        fmt::format("Upper bounds on the output (written by 'fleetsim bound --json') to show "
                    "each policy's share of. Default: {} in the first directory given, when "
                    "there is one",
                    kBoundsFile));
    bench_cmd->add_flag("--strict", bench.strict, "Treat unknown keys as errors");
    bench_cmd->add_flag("--check-invariants", bench.check_invariants,
                        "Check the engine's invariants after every event (slower)");

    CompareArgs compare;
    CLI::App* compare_cmd = app.add_subcommand(
        "compare",
        "Compare two result sets (bench --json files, sweep results.json, run --out folders); "
        "exit 5 on drift");
    compare_cmd->add_option("baseline", compare.baseline, "Baseline results (the goldens)")
        ->required();
    compare_cmd->add_option("current", compare.current, "Results to check against the baseline")
        ->required();
    compare_cmd
        ->add_option("-t,--tolerance", compare.tolerances,
                     "Relative tolerance X (0.01, 1e-6 or 1%) for every metric, or METRIC=X "
                     "for one (repeatable). Default: exact")
        ->allow_extra_args(false);
    compare_cmd->add_option("--format", compare.format,
                            "The report's form: text (default), json, junit or markdown");
    compare_cmd->add_option("-o,--output", compare.output,
                            "Write the report to this file (the summary line still goes to "
                            "stdout); '-' is stdout. Default: stdout");
    compare_cmd->add_flag("--only-drift", compare.only_drift,
                          "List only the differences that are drift (counts stay whole)");
    compare_cmd->add_flag("--strict", compare.strict,
                          "Results and metrics only in the current file are drift, not additions");
    compare_cmd->add_flag("--seeds", compare.seeds,
                          "Pair the seeds of each scenario x policy x axes: drift only when a "
                          "metric's mean difference has a 95% interval beyond the tolerance");

    FillArgs fill;
    CLI::App* fill_cmd = app.add_subcommand(
        "fill", "Run fill scenarios (the FGD fragmentation experiment) and compare with the paper");
    fill_cmd->add_option("scenario", fill.scenarios, "Fill scenario files (JSON)")->required();
    fill_cmd->add_option("--seeds", fill.seeds, "Seeds per policy, from each scenario's first")
        ->check(CLI::Range(1, 10000));
    fill_cmd->add_option("-j,--jobs", fill.threads,
                         "Runs at a time (default: one per hardware thread)");
    fill_cmd->add_option("--markdown", fill.markdown_file, "Write the comparison table here");
    fill_cmd->add_option("--curves", fill.curves_file,
                         "Write every run's curves over x = 0..130 here (CSV)");
    fill_cmd->add_option("--steps", fill.steps_file,
                         "Write every run's state after every pod here (CSV; large)");
    CLI::Option* orders = fill_cmd->add_option(
        "--orders", fill.orders_dir,
        "Take each run's arrivals and node tie rank from DIR/SCENARIO-SEED.csv (fill order "
        "files) instead of drawing them from the seed");
    fill_cmd
        ->add_flag("--artifact-streams", fill.artifact_streams,
                   "Draw each run's arrivals and node tie rank as the paper's artifact does "
                   "(Go's math/rand), so seed N is the artifact's seed N")
        ->excludes(orders);
    fill_cmd->add_flag("--timing", fill.timing, "Print the wall-clock time on stderr");
    fill_cmd->add_flag("--strict", fill.strict, "Treat unknown keys as errors");
    fill_cmd->add_flag("--check", fill.check,
                       "Exit 5 unless every cell is within tolerance and the best and worst "
                       "policies match the paper's");

    ImportFleetArgs import_fleet;
    CLI::App* import_fleet_cmd = AddImportFleetCommand(app, import_fleet);

    ExportArgs export_args;
    CLI::App* export_cmd = AddExportCommand(app, export_args);

    BoundArgs bound;
    CLI::App* bound_cmd = app.add_subcommand(
        "bound",
        "The clairvoyant upper bound on each scenario's priority-weighted output (a MILP solved "
        "with CBC), with its schedule");
    bound_cmd->add_option("scenario", bound.scenarios, "Scenario files (JSON)")->required();
    bound_cmd
        ->add_option("--time-limit", bound.time_limit_s,
                     "Seconds the solver may spend per scenario; when it stops there, the best "
                     "bound and the best solution are reported with their gap. Default: 60")
        ->check(kNotNan)
        ->check(CLI::Range(0.001, 1e6));
    bound_cmd
        ->add_option("--threads", bound.threads,
                     "Solver threads per scenario (1, the default, searches the same way on "
                     "every run)")
        ->check(CLI::Range(1, 64));
    bound_cmd
        ->add_option("--step", bound.step_s,
                     "Grid step in seconds. Default: the services' demand step, or 3600")
        ->check(kNotNan)
        ->check(CLI::Range(1.0, 31536000.0));
    bound_cmd
        ->add_option("--cbc-option", bound.cbc_options,
                     "A CBC parameter NAME=VALUE, as CBC's command line takes it (repeatable), "
                     "to cross-check the solver with another search, e.g. cuts=off")
        ->allow_extra_args(false);
    bound_cmd->add_option("--json", bound.json_file,
                          "Write the bounds as JSON to this file (what 'fleetsim bench' reads)");
    bound_cmd->add_flag("--strict", bound.strict, "Treat unknown keys as errors");

    SweepArgs sweep;
    CLI::App* sweep_cmd = app.add_subcommand(
        "sweep",
        "Run every point of a sweep spec (axes of policies, parameters, seeds, scenario fields "
        "and variants) on all cores, or one shard of them; resumes what a folder holds");
    sweep_cmd->require_subcommand(0, 1);
    sweep_cmd->add_option("spec", sweep.spec, "Sweep spec (JSON, docs/sweeps.md)");
    sweep_cmd->add_option("-o,--out", sweep.out_dir,
                          "Folder for results.csv, results.json, summary.csv and the sweep's "
                          "state (required unless --list)");
    sweep_cmd
        ->add_option("-j,--jobs", sweep.threads,
                     "Runs at a time (default: one per hardware thread)")
        ->check(CLI::Range(1, 4096));
    sweep_cmd->add_option("--shard", sweep.shard,
                          "Run only shard I of N (I/N, 1 <= I <= N): the points whose index is "
                          "I-1 modulo N; merge the shards with 'fleetsim sweep merge'");
    sweep_cmd->add_flag("--keep-runs", sweep.keep_runs,
                        "Also write each run's summary.json and jobs.csv under OUT/runs/RUN_ID/");
    sweep_cmd->add_flag("--list", sweep.list, "Print the points the spec expands to, and stop");
    sweep_cmd->add_flag("--strict", sweep.strict,
                        "Treat unknown keys (in the spec and in every point) as errors");
    sweep_cmd->add_flag("--check-invariants", sweep.check_invariants,
                        "Check the engine's invariants after every event (slower)");
    AddSlurmOptions(sweep_cmd, sweep.slurm,
                    "Hand the sweep to Slurm: write OUT/slurm/sweep.sbatch (a job array, task I "
                    "running shard I/N) and merge.sbatch (after it), and submit both with sbatch");
    SweepMergeArgs sweep_merge;
    CLI::App* sweep_merge_cmd = sweep_cmd->add_subcommand(
        "merge", "Join the records of a sweep's shards and write its results");
    sweep_merge_cmd->add_option("dir", sweep_merge.dirs, "Folders the shards wrote")->required();
    sweep_merge_cmd->add_option("-o,--out", sweep_merge.out_dir,
                                "Folder for the results (default: the first DIR)");

    PlanArgs plan;
    CLI::App* plan_cmd = app.add_subcommand(
        "plan",
        "Find the cheapest fleet of a plan spec's decision grid that meets every target "
        "(docs/planning.md); exit 7 when none does");
    plan_cmd->add_option("spec", plan.spec, "Plan spec (JSON, docs/planning.md)")->required();
    plan_cmd
        ->add_option("-o,--out", plan.out_dir,
                     "Folder for plan.csv, plan.json and the runs' records (a second call "
                     "with the same folder reuses them)")
        ->required();
    plan_cmd
        ->add_option("-j,--jobs", plan.threads, "Runs at a time (default: one per hardware thread)")
        ->check(CLI::Range(1, 4096));
    plan_cmd->add_flag("--exhaustive", plan.exhaustive,
                       "Run every candidate fleet on every seed, then choose (to check the "
                       "search)");
    plan_cmd->add_flag("--strict", plan.strict,
                       "Treat unknown keys (in the spec and in every candidate) as errors");
    plan_cmd->add_option("--shard", plan.shard,
                         "Run only shard I of N (I/N) of the whole grid's runs, recording them "
                         "and writing no result; then 'fleetsim plan SPEC -o OUT --exhaustive' "
                         "chooses from every shard's runs");
    AddSlurmOptions(plan_cmd, plan.slurm,
                    "Hand the whole grid to Slurm: write OUT/slurm/plan.sbatch (a job array, "
                    "task I running shard I/N) and choose.sbatch (after it, choosing as "
                    "--exhaustive), and submit both with sbatch");

    std::vector<std::string> verify_dirs;
    CLI::App* verify_cmd = app.add_subcommand(
        "verify",
        "Check that output folders hold one complete commit each (their manifest matches their "
        "files); exit 1 if not");
    verify_cmd->add_option("dir", verify_dirs, "Folders written by 'run -o' or 'bench -o'")
        ->required();

    CLI::App* list_cmd = app.add_subcommand("list", "List policies, trace formats and the catalog");
    list_cmd->require_subcommand(1);
    CLI::App* list_policies = list_cmd->add_subcommand("policies", "Policies and parameters");
    CLI::App* list_formats =
        list_cmd->add_subcommand("trace-formats", "Trace formats and their options");
    CLI::App* list_gpus = list_cmd->add_subcommand("gpus", "GPU models in the catalog");
    CLI::App* list_templates =
        list_cmd->add_subcommand("node-templates", "Node templates in the catalog");
    std::string mig_model;
    CLI::App* list_mig = list_cmd->add_subcommand("mig-profiles", "MIG profiles of a GPU model");
    list_mig->add_option("model", mig_model, "GPU model name or alias (e.g. H100)")->required();
    std::string catalog_file;
    app.add_option("--catalog", catalog_file,
                   "A catalog file extending the built-in one (docs/fleet-model.md)");
    app.add_option("--policy-module", policy_modules_,
                   "A Python file registering policies (docs/python.md), loaded before the "
                   "command runs (repeatable); they run like built-ins")
        ->allow_extra_args(false);

    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      const int code = app.exit(e, out_, err_);
      return code == 0 ? ToInt(ExitStatus::kOk) : ToInt(ExitStatus::kUsage);
    }
    SetUpLogger(verbosity);
    if (!LoadPolicyModules()) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    if (list_policies->parsed()) {
      return ListPolicies();
    }
    if (list_formats->parsed()) {
      return ListTraceFormats();
    }
    if (verify_cmd->parsed()) {
      return VerifyOutputs(verify_dirs);
    }
    const std::optional<Catalog> catalog = LoadCatalog(catalog_file);
    if (!catalog) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    catalog_ = &*catalog;
    if (run_cmd->parsed()) {
      return Run(run);
    }
    if (validate_cmd->parsed()) {
      return Validate(validate);
    }
    if (fleet_cmd->parsed()) {
      return DescribeFleet(fleet_file, fleet_strict);
    }
    if (import_cmd->parsed()) {
      return Import(import);
    }
    if (compare_cmd->parsed()) {
      return Compare(compare);
    }
    if (import_fleet_cmd->parsed()) {
      return RunImportFleetCommand(import_fleet, *catalog_, out_, err_);
    }
    if (export_cmd->parsed()) {
      return RunExportCommand(export_args, registry_, *catalog_, out_, err_);
    }
    if (bench_cmd->parsed()) {
      return Bench(bench);
    }
    if (fill_cmd->parsed()) {
      return RunFillCommand(fill, out_, err_);
    }
    if (bound_cmd->parsed()) {
      return Bound(bound);
    }
    if (sweep_merge_cmd->parsed()) {
      return RunSweepMerge(sweep_merge, SweepContextHere());
    }
    if (plan_cmd->parsed()) {
      if (plan.slurm.enabled && !plan.shard.empty()) {
        fmt::print(err_, "fleetsim plan: --slurm makes the shards itself; drop --shard\n");
        return ToInt(ExitStatus::kUsage);
      }
      return RunPlanCommand(plan, SweepContextHere());
    }
    if (sweep_cmd->parsed()) {
      return RunSweep(sweep);
    }
    if (list_gpus->parsed()) {
      fmt::print(out_, "{}", GpuTable(*catalog));
    } else if (list_templates->parsed()) {
      fmt::print(out_, "{}", NodeTemplateTable(*catalog));
    } else if (list_mig->parsed()) {
      return ListMigProfiles(*catalog, mig_model);
    }
    return ToInt(ExitStatus::kOk);
  }

 private:
  // --slurm and the options that shape its scripts, for a command with SlurmArgs.
  static void AddSlurmOptions(CLI::App* command, SlurmArgs& slurm, const std::string& help) {
    CLI::Option* slurm_flag = command->add_flag("--slurm", slurm.enabled, help);
    command->add_option("--partition", slurm.partition, "Slurm partition")->needs(slurm_flag);
    command->add_option("--account", slurm.account, "Slurm account")->needs(slurm_flag);
    command->add_option("--time", slurm.time, "Slurm time limit per task (e.g. 30, 2:00:00)")
        ->needs(slurm_flag);
    command->add_option("--array-max", slurm.array_max, "At most K array tasks at once")
        ->needs(slurm_flag)
        ->check(CLI::Range(1, 1000000));
    command
        ->add_option("--runs-per-task", slurm.runs_per_task,
                     "Runs per array task (default: enough for at most 1,000 tasks)")
        ->needs(slurm_flag)
        ->check(CLI::Range(1, 1000000000));
    command->add_flag("--dry-run", slurm.dry_run, "Write the job scripts, submit nothing")
        ->needs(slurm_flag);
  }

  // Loads every --policy-module into the registry, printing why one fails; the paths become
  // absolute (the Slurm scripts of sweeps and plans load them from elsewhere).
  bool LoadPolicyModules() {
    for (std::string& module : policy_modules_) {
      if (Status status = LoadPolicyModule(module, registry_); !status.ok()) {
        fmt::print(err_, "fleetsim: --policy-module {}\n", status.message());
        return false;
      }
      std::error_code ec;
      module = std::filesystem::absolute(module, ec).lexically_normal().string();
    }
    return true;
  }

  SweepContext SweepContextHere() {
    return {.registry = registry_,
            .catalog = catalog_,
            .policy_modules = policy_modules_,
            .out = out_,
            .err = err_,
            .err_is_terminal = err_is_terminal_};
  }

  int RunSweep(const SweepArgs& args) {
    if (args.spec.empty()) {
      fmt::print(err_, "fleetsim sweep: expected a sweep spec (or 'merge DIR...')\n");
      return ToInt(ExitStatus::kUsage);
    }
    if (args.out_dir.empty() && !args.list) {
      fmt::print(err_, "fleetsim sweep: --out is required (or --list)\n");
      return ToInt(ExitStatus::kUsage);
    }
    if (args.slurm.enabled && !args.shard.empty()) {
      fmt::print(err_, "fleetsim sweep: --slurm makes the shards itself; drop --shard\n");
      return ToInt(ExitStatus::kUsage);
    }
    return RunSweepCommand(args, SweepContextHere());
  }

  void SetUpLogger(int verbosity) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(err_);
    logger_ = std::make_shared<spdlog::logger>("fleetsim", sink);
    logger_->set_pattern("%l: %v");
    logger_->set_level(verbosity >= 2   ? spdlog::level::trace
                       : verbosity == 1 ? spdlog::level::debug
                                        : spdlog::level::warn);
  }

  // Loads every file, printing all diagnostics; returns the scenarios if all loaded.
  std::optional<std::vector<Scenario>> LoadAll(const std::vector<std::string>& files, bool strict) {
    std::vector<Scenario> scenarios;
    bool ok = true;
    for (const std::string& file : files) {
      if (IsFillScenarioFile(file)) {
        fmt::print(err_, "{}: a fill scenario (\"kind\": \"fill\"): run it with 'fleetsim fill'\n",
                   file);
        ok = false;
        continue;
      }
      LoadResult result =
          LoadScenarioFile(file, registry_, {.strict = strict, .catalog = catalog_});
      if (!result.file_status.ok()) {
        fmt::print(err_, "{}\n", result.file_status.message());
        ok = false;
        continue;
      }
      fmt::print(err_, "{}", result.diagnostics.Format(file));
      for (const std::string& note : result.notes) {
        fmt::print(err_, "{}\n", note);
      }
      if (!result.scenario) {
        ok = false;
        continue;
      }
      scenarios.push_back(std::move(*result.scenario));
    }
    if (!ok) {
      return std::nullopt;
    }
    return scenarios;
  }

  int Validate(const ValidateArgs& args) {
    std::vector<std::string> simulation_files;
    bool fill_ok = true;
    for (const std::string& file : args.files) {
      if (IsFillScenarioFile(file)) {
        fill_ok = ValidateFillScenario(file, args.strict, err_) && fill_ok;
      } else {
        simulation_files.push_back(file);
      }
    }
    const auto scenarios = LoadAll(simulation_files, args.strict);
    if (!scenarios || !fill_ok) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    for (const std::string& file : args.files) {
      fmt::print(out_, "{}: ok\n", file);
    }
    return ToInt(ExitStatus::kOk);
  }

  // Resolves --policy values; "" stands for "the scenario's own". Empty optional on error.
  std::optional<std::vector<std::string>> ResolvePolicies(const std::vector<std::string>& asked) {
    if (asked.empty()) {
      return std::vector<std::string>{""};
    }
    std::vector<std::string> names;
    for (const std::string& name : asked) {
      if (name == "all") {
        for (const std::string& n : registry_.Names()) {
          names.push_back(n);
        }
      } else if (registry_.Find(name) != nullptr) {
        names.push_back(name);
      } else {
        fmt::print(err_, "fleetsim: unknown policy '{}'{} (valid policies: {}, or 'all')\n", name,
                   DidYouMean(name, registry_.Names()), QuotedList(registry_.Names()));
        return std::nullopt;
      }
    }
    std::vector<std::string> unique;
    for (const std::string& n : names) {
      if (std::find(unique.begin(), unique.end(), n) == unique.end()) {
        unique.push_back(n);
      }
    }
    return unique;
  }

  int Run(const RunArgs& args) {
    const auto policies = ResolvePolicies(args.policies);
    if (!policies) {
      return ToInt(ExitStatus::kUsage);
    }
    SeedArg seed;  // no seeds: each scenario's own
    if (args.seed) {
      const auto parsed = ParseSeeds(*args.seed);
      if (!parsed) {
        fmt::print(err_,
                   "fleetsim: --seed: expected an integer in [0, 18446744073709551615] or a "
                   "range FIRST-LAST of them (FIRST <= LAST, at most {} seeds), found '{}'\n",
                   kMaxSeedsPerRun, *args.seed);
        return ToInt(ExitStatus::kUsage);
      }
      seed = *parsed;
    }
    OutputTargets targets(/*dash_is_standard_output=*/false);
    targets.AddFile("--html", args.html_file);
    targets.AddFolder("--out", args.out_dir);
    for (const std::string& scenario : args.scenarios) {
      targets.AddInput("the scenario", scenario);
    }
    if (!targets.Check("fleetsim", err_)) {
      return ToInt(ExitStatus::kUsage);
    }
    const auto scenarios = LoadAll(args.scenarios, args.strict);
    if (!scenarios) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    if (!NamesDiffer(*scenarios)) {
      return ToInt(ExitStatus::kUsage);
    }
    const bool html = !args.html_file.empty();
    const RunOptions options{.measure_wall_time = args.timing,
                             .logger = logger_,
                             .record_timeline = html,
                             .record_series = !args.out_dir.empty() || html,
                             .check_invariants = args.check_invariants};
    const Batch batch = RunEach(*scenarios, *policies, seed.seeds, options);
    if (batch.reports.empty()) {
      return BatchStatus(batch);
    }
    fmt::print(out_, "{}", MetricsTable(batch.reports));
    // --html staged first, --out written, then the page renamed into place: a failure leaves no
    // page for results that were not written.
    StagedOutputs staged;
    if (html) {
      const HtmlReportOptions page{.reproduce = command_line_, .utilization_buckets = 240};
      if (const int status = staged.Stage({{args.html_file, RunHtml(batch.reports, page)}}, err_);
          status != ToInt(ExitStatus::kOk)) {
        return status;
      }
    }
    if (!args.out_dir.empty()) {
      const int status =
          WriteOutputs(args.out_dir, batch.reports, seed.range || batch.asked > 1, seed.range);
      if (status != ToInt(ExitStatus::kOk)) {
        return status;
      }
    }
    if (const int status = staged.Commit(err_); status != ToInt(ExitStatus::kOk)) {
      return status;
    }
    return BatchStatus(batch);
  }

  // Why a file output may not lie in the --out folder: it could be one of the commit's files
  // (a scenario may be named "report.html"), both written through one temporary.
  // False, after saying so, when two scenarios share a name (their results would mix).
  bool NamesDiffer(const std::vector<Scenario>& scenarios) {
    std::set<std::string> names;
    for (const Scenario& s : scenarios) {
      if (!names.insert(s.name).second) {
        fmt::print(err_,
                   "fleetsim: two scenarios are named '{}'; names must differ to keep "
                   "their results apart\n",
                   s.name);
        return false;
      }
    }
    return true;
  }

  // The reports of a batch of runs, and how many were asked for and failed.
  struct Batch {
    std::vector<RunReport> reports;
    std::size_t asked = 0;
    std::size_t failed = 0;
  };

  // Every scenario under every policy ("" = the scenario's own) and every seed of `seeds` (none:
  // the scenario's own seed), in that order. A run whose policy makes an illegal decision is
  // reported on the spot and left out; the others still run. Shows progress on a terminal.
  Batch RunEach(const std::vector<Scenario>& scenarios, const std::vector<std::string>& policies,
                const std::vector<std::uint64_t>& seeds, RunOptions options) {
    Batch batch;
    batch.asked = scenarios.size() * policies.size() * std::max<std::size_t>(1, seeds.size());
    std::size_t done = 0;
    for (const Scenario& scenario : scenarios) {
      const std::vector<std::uint64_t> own{scenario.seed};
      for (const std::string& name : policies) {
        const PolicyChoice policy = ChoosePolicy(scenario, registry_, name);
        for (const std::uint64_t seed : seeds.empty() ? own : seeds) {
          ShowProgress(done++, batch.asked, scenario.name, policy.name);
          options.seed = seed;
          RunOutcome outcome = RunScenario(scenario, registry_, policy, options);
          if (!outcome.status.ok()) {
            ShowProgress(batch.asked, batch.asked, "", "");
            fmt::print(err_, "fleetsim: scenario '{}', policy '{}', seed {}: {}\n", scenario.name,
                       policy.name, seed, outcome.status.message());
            ++batch.failed;
            continue;
          }
          batch.reports.push_back(std::move(outcome.report));
        }
      }
    }
    ShowProgress(batch.asked, batch.asked, "", "");
    return batch;
  }

  // After the others' results are out: kOk, or kPolicyError saying how many runs failed.
  int BatchStatus(const Batch& batch) {
    if (batch.failed == 0) {
      return ToInt(ExitStatus::kOk);
    }
    fmt::print(err_,
               "fleetsim: {} of {} runs failed (an illegal policy decision, named above); the "
               "others' results are complete\n",
               batch.failed, batch.asked);
    return ToInt(ExitStatus::kPolicyError);
  }

  // "[k/n] scenario x policy" rewritten in place on a terminal; cleared when k == n. Silent when
  // stderr is not a terminal, so logs and pipes stay clean.
  void ShowProgress(std::size_t done, std::size_t total, const std::string& scenario,
                    const std::string& policy) {
    if (!err_is_terminal_ || total < 2) {
      return;
    }
    if (done == total) {
      fmt::print(err_, "\r\033[K");
    } else {
      fmt::print(err_, "\r\033[K[{}/{}] {} x {}", done + 1, total, scenario, policy);
    }
    err_.flush();
  }

  // One run asked for: its files in `dir`; more (`many`, even if only one succeeded):
  // DIR/SCENARIO/POLICY/ and comparison.csv; for a seed range (however many runs),
  // DIR/SCENARIO/POLICY/seed-N/ and comparison.csv.
  int WriteOutputs(const std::string& dir, const std::vector<RunReport>& reports, bool many,
                   bool seed_directories) {
    DirectorySink sink(DiskFileSystem(), dir);
    if (!many) {
      StageRunFiles("", reports[0], sink);
    } else {
      for (const RunReport& r : reports) {
        const std::string seed = seed_directories ? fmt::format("seed-{}/", r.seed) : "";
        StageRunFiles(r.scenario.name + "/" + r.policy.name + "/" + seed, r, sink);
      }
      sink.Stage("comparison.csv", ComparisonCsv(reports));
    }
    if (const Status status = sink.Commit(); !status.ok()) {
      fmt::print(err_, "fleetsim: cannot write results: {}\n", status.message());
      return ToInt(ExitStatus::kOutputError);
    }
    return ToInt(ExitStatus::kOk);
  }

  // The built-in catalog, extended by `file` when one is given; nullopt after printing errors.
  std::optional<Catalog> LoadCatalog(const std::string& file) {
    if (file.empty()) {
      return BuiltinCatalog();
    }
    CatalogLoadResult result = LoadCatalogFile(DiskFileSystem(), file);
    if (!result.file_status.ok()) {
      fmt::print(err_, "{}\n", result.file_status.message());
      return std::nullopt;
    }
    fmt::print(err_, "{}", result.diagnostics.Format(file));
    return result.catalog;
  }

  int DescribeFleet(const std::string& file, bool strict) {
    const auto scenarios = LoadAll({file}, strict);
    if (!scenarios) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    const FleetSpec& fleet = scenarios->front().fleet;
    fmt::print(out_, "{}", FleetSummary(fleet, Topology(fleet)));
    return ToInt(ExitStatus::kOk);
  }

  int ListMigProfiles(const Catalog& catalog, const std::string& model) {
    const GpuModel* gpu = catalog.FindGpu(model);
    if (gpu == nullptr) {
      fmt::print(err_, "fleetsim: unknown GPU model '{}'{} (models: {})\n", model,
                 catalog.SuggestGpu(model), QuotedList(catalog.GpuNames()));
      return ToInt(ExitStatus::kUsage);
    }
    fmt::print(out_, "{}", MigProfileTable(*gpu));
    return ToInt(ExitStatus::kOk);
  }

  // Splits "name=value" options; nullopt after printing the problem.
  std::optional<std::map<std::string, std::string>> ParseOptionArgs(
      const std::vector<std::string>& args) {
    std::map<std::string, std::string> options;
    for (const std::string& arg : args) {
      const std::size_t eq = arg.find('=');
      if (eq == std::string::npos || eq == 0) {
        fmt::print(err_, "fleetsim: --option: expected NAME=VALUE, found '{}'\n", arg);
        return std::nullopt;
      }
      options[arg.substr(0, eq)] = arg.substr(eq + 1);
    }
    return options;
  }

  static std::string OutputFormat(const ImportArgs& args) {
    if (!args.to.empty()) {
      return args.to;
    }
    const bool csv =
        args.output.size() >= 4 && args.output.compare(args.output.size() - 4, 4, ".csv") == 0;
    return csv ? "csv" : "jsonl";
  }

  int Import(const ImportArgs& args) {
    const TraceFormat* format = FindTraceFormat(args.from);
    if (format == nullptr) {
      fmt::print(err_, "fleetsim: unknown trace format '{}'{} (formats: {})\n", args.from,
                 DidYouMean(args.from, TraceFormatNames()), QuotedList(TraceFormatNames()));
      return ToInt(ExitStatus::kUsage);
    }
    const auto given = ParseOptionArgs(args.options);
    TraceOptionValues options;
    if (!given) {
      return ToInt(ExitStatus::kUsage);
    }
    if (const Status status = ResolveTraceOptions(*format, *given, options); !status.ok()) {
      fmt::print(err_, "fleetsim: {}\n", status.message());
      return ToInt(ExitStatus::kUsage);
    }
    OutputTargets targets(/*dash_is_standard_output=*/true);
    targets.AddFile("-o", args.output);
    targets.AddInput("the trace", args.input);
    if (!targets.Check("fleetsim", err_)) {
      return ToInt(ExitStatus::kUsage);
    }
    const TraceReadOptions read_options{.on_bad_row = *ParseBadRowPolicy(args.on_bad_row),
                                        .catalog = catalog_};
    const bool to_stdout = args.output == "-";
    std::optional<StagedFile> file;
    if (!to_stdout) {
      file.emplace(args.output);
      if (!file->ok()) {
        fmt::print(err_, "fleetsim: cannot write the output: {}\n", file->status().message());
        return ToInt(ExitStatus::kOutputError);
      }
    }
    std::ostream& sink = to_stdout ? out_ : file->stream();
    const std::unique_ptr<JobWriter> writer = MakeJobWriter(OutputFormat(args), sink);
    const TraceReport report = ConvertTrace(*format, args.input, options, read_options, *writer);
    if (!report.ok()) {
      fmt::print(err_, "{}\n", report.status.message());
      return ToInt(ExitStatus::kInvalidInput);
    }
    if (file) {
      if (const Status status = file->Commit(); !status.ok()) {
        fmt::print(err_, "fleetsim: cannot write the output: {}\n", status.message());
        return ToInt(ExitStatus::kOutputError);
      }
    }
    // Not into the converted trace, when that went to standard output by any name.
    std::ostream& summary = targets.WritesStandardOutput() ? err_ : out_;
    for (const std::string& line : report.SummaryLines()) {
      fmt::print(summary, "{}\n", line);
    }
    return ToInt(ExitStatus::kOk);
  }

  // `verify`: each folder's problems on stderr, or "DIR: complete" on stdout.
  int VerifyOutputs(const std::vector<std::string>& dirs) {
    bool complete = true;
    for (const std::string& dir : dirs) {
      const std::vector<std::string> problems = VerifyOutputFolder(DiskFileSystem(), dir);
      for (const std::string& problem : problems) {
        fmt::print(err_, "{}\n", problem);
      }
      if (problems.empty()) {
        fmt::print(out_, "{}: complete\n", dir);
      }
      complete = complete && problems.empty();
    }
    return ToInt(complete ? ExitStatus::kOk : ExitStatus::kInvalidInput);
  }

  int Compare(const CompareArgs& args) {
    CompareOptions options;
    if (const Status status = ParseTolerances(args.tolerances, options); !status.ok()) {
      fmt::print(err_, "fleetsim: --tolerance: {}\n", status.message());
      return ToInt(ExitStatus::kUsage);
    }
    const std::optional<CompareFormat> format = CompareFormatNamed(args.format);
    if (!format) {
      fmt::print(err_, "fleetsim: --format: unknown report format '{}'{} (formats: {})\n",
                 args.format, DidYouMean(args.format, CompareFormatNames()),
                 QuotedList(CompareFormatNames()));
      return ToInt(ExitStatus::kUsage);
    }
    OutputTargets targets(/*dash_is_standard_output=*/true);
    targets.AddFile("-o", args.output);
    targets.AddInput("the baseline", args.baseline);
    targets.AddInput("the current results", args.current);
    if (!targets.Check("fleetsim", err_)) {
      return ToInt(ExitStatus::kUsage);
    }
    options.strict = args.strict;
    options.seeds = args.seeds;
    const CompareOutcome outcome = CompareResultFiles(args.baseline, args.current, options);
    if (!outcome.errors.empty()) {
      fmt::print(err_, "{}", outcome.errors);
      return ToInt(ExitStatus::kInvalidInput);
    }
    if (!outcome.usage_errors.empty()) {
      for (const std::string& error : outcome.usage_errors) {
        fmt::print(err_, "fleetsim: {}\n", error);
      }
      return ToInt(ExitStatus::kUsage);
    }
    const std::string report = CompareReport(outcome, *format, args.only_drift);
    if (args.output.empty() || args.output == "-" ||
        IsStandardOutput(args.output)) {  // no summary line after it
      fmt::print(out_, "{}", report);
    } else {
      StagedFile file(args.output);
      if (file.ok()) {
        file.stream() << report;
      }
      if (const Status status = file.ok() ? file.Commit() : file.status(); !status.ok()) {
        fmt::print(err_, "fleetsim: cannot write the output: {}\n", status.message());
        return ToInt(ExitStatus::kOutputError);
      }
      fmt::print(out_, "{}\n", CompareSummaryLine(outcome));
    }
    return ToInt(outcome.drift() ? ExitStatus::kDrift : ExitStatus::kOk);
  }

  // Scenario files named or found in the directories named (sorted, the figures file left out).
  std::optional<std::vector<std::string>> BenchFiles(const std::vector<std::string>& paths) {
    std::vector<std::string> files;
    for (const std::string& path : paths) {
      std::error_code error;
      if (!std::filesystem::is_directory(path, error)) {
        files.push_back(path);
        continue;
      }
      std::vector<std::string> found;
      for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
        const std::filesystem::path& file = entry.path();
        if (entry.is_regular_file() && file.extension() == ".json" &&
            file.filename() != kPublishedFiguresFile) {
          found.push_back(file.string());
        }
      }
      if (error || found.empty()) {
        fmt::print(err_, "fleetsim: {}: {}\n", path,
                   error ? error.message() : "no scenario files (*.json) in this directory");
        return std::nullopt;
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    }
    return files;
  }

  // The file asked for (`given`), else `name` in the first directory given; nullopt if none.
  static std::optional<std::string> SuiteFilePath(const std::string& given, const char* name,
                                                  const std::vector<std::string>& paths) {
    if (!given.empty()) {
      return given;
    }
    for (const std::string& path : paths) {
      std::error_code error;
      if (std::filesystem::is_directory(path, error)) {
        const auto file = std::filesystem::path(path) / name;
        if (std::filesystem::exists(file, error)) {
          return file.string();
        }
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  int Bench(const BenchArgs& args) {
    const auto policies =
        ResolvePolicies(args.policies.empty() ? std::vector<std::string>{"all"} : args.policies);
    if (!policies) {
      return ToInt(ExitStatus::kUsage);
    }
    OutputTargets targets(/*dash_is_standard_output=*/false);
    targets.AddFile("--json", args.json_file);
    targets.AddFile("--html", args.html_file);
    targets.AddFolder("--out", args.out_dir);
    for (const std::string& path :
         args.paths.empty() ? std::vector<std::string>{kDefaultBenchDirectory} : args.paths) {
      targets.AddInput("the scenario path", path);
    }
    targets.AddInput("the published figures file", args.published_file);
    targets.AddInput("the bounds file", args.bounds_file);
    targets.AddInput("the goldens file", args.check_file);
    if (!targets.Check("fleetsim", err_)) {
      return ToInt(ExitStatus::kUsage);
    }
    std::optional<std::string> golden;  // --check's goldens, read and checked before any run
    if (!args.check_file.empty() && !(golden = ReadGoldens(args.check_file))) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    const std::vector<std::string> paths =
        args.paths.empty() ? std::vector<std::string>{kDefaultBenchDirectory} : args.paths;
    const auto files = BenchFiles(paths);
    if (!files) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    std::optional<PublishedSet> published;
    if (const auto figures_path =
            SuiteFilePath(args.published_file, kPublishedFiguresFile, paths)) {
      PublishedLoad load = LoadPublishedFigures(*figures_path);
      if (!load.status.ok()) {
        fmt::print(err_, "{}\n", load.status.message());
        return ToInt(ExitStatus::kInvalidInput);
      }
      published = std::move(load.figures);
    }
    std::optional<BoundFigures> bounds;
    if (const auto bounds_path = SuiteFilePath(args.bounds_file, kBoundsFile, paths)) {
      BoundFiguresLoad load = LoadBoundFigures(*bounds_path);
      if (!load.status.ok()) {
        fmt::print(err_, "{}\n", load.status.message());
        return ToInt(ExitStatus::kInvalidInput);
      }
      bounds = std::move(load.figures);
    }
    const auto scenarios = LoadAll(*files, args.strict);
    if (!scenarios) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    if (!NamesDiffer(*scenarios)) {
      return ToInt(ExitStatus::kUsage);
    }
    if (published) {
      WarnOfUnmatchedFigures(*published, *scenarios);
    }
    if (bounds) {
      WarnOfUnmatchedBounds(*bounds, *scenarios);
    }
    const RunOptions options{.logger = logger_,
                             .record_timeline = !args.html_file.empty(),
                             .record_series = !args.out_dir.empty(),
                             .check_invariants = args.check_invariants};
    const Batch batch = RunEach(*scenarios, *policies, {}, options);
    if (batch.reports.empty()) {
      return BatchStatus(batch);
    }
    const BoundFigures* bound_figures = bounds ? &*bounds : nullptr;
    fmt::print(out_, "{}",
               BenchTables(batch.reports, published ? &*published : nullptr, bound_figures));
    const PublishedSet* published_figures = published ? &*published : nullptr;
    if (const int status = WriteBenchOutputs(args, batch.reports, batch.asked > 1, bound_figures,
                                             published_figures);
        status != ToInt(ExitStatus::kOk)) {
      return status;
    }
    if (const int status = BatchStatus(batch); status != ToInt(ExitStatus::kOk)) {
      return status;
    }
    return golden ? CheckAgainst(args.check_file, *golden, batch.reports, bound_figures)
                  : ToInt(ExitStatus::kOk);
  }

  // `bench --check GOLDEN`: the goldens' text, once they read as a result file; nullopt (the
  // problem on stderr) when they do not.
  std::optional<std::string> ReadGoldens(const std::string& path) {
    std::string text;
    if (const Status status = DiskFileSystem().ReadFile(path, text); !status.ok()) {
      fmt::print(err_, "fleetsim: --check: {}\n", status.message());
      return std::nullopt;
    }
    const std::string no_results = R"({"format_version": 1, "results": []})";
    if (const CompareOutcome read = CompareResults(text, path, no_results, "", {});
        !read.errors.empty()) {
      fmt::print(err_, "{}", read.errors);
      return std::nullopt;
    }
    return text;
  }

  // `bench --check GOLDEN`: this run's results (as --json writes them) against the goldens,
  // exactly and strictly; the report after the tables.
  int CheckAgainst(const std::string& golden, const std::string& golden_text,
                   const std::vector<RunReport>& reports, const BoundFigures* bounds) {
    CompareOptions strict;
    strict.strict = true;
    const CompareOutcome outcome =
        CompareResults(golden_text, golden, BenchJson(reports, bounds), "this run", strict);
    fmt::print(out_, "\n{}", CompareReport(outcome, CompareFormat::kText, false));
    return ToInt(outcome.drift() ? ExitStatus::kDrift : ExitStatus::kOk);
  }

  // Published figures for a scenario name that is not in the suite are never shown: say so (a
  // misspelt name would otherwise hide them silently).
  void WarnOfUnmatchedFigures(const PublishedSet& published, const std::vector<Scenario>& suite) {
    for (const auto& entry : published.scenarios) {
      const std::string& name = entry.first;
      const bool found = std::any_of(suite.begin(), suite.end(),
                                     [&](const Scenario& s) { return s.name == name; });
      if (!found) {
        fmt::print(err_,
                   "fleetsim: warning: published figures for '{}', which no scenario here "
                   "is named\n",
                   name);
      }
    }
  }

  // A bound for a scenario name that is not in the suite is never shown: say so.
  void WarnOfUnmatchedBounds(const BoundFigures& bounds, const std::vector<Scenario>& suite) {
    for (const auto& entry : bounds.scenarios) {
      const std::string& name = entry.first;
      const bool found = std::any_of(suite.begin(), suite.end(),
                                     [&](const Scenario& s) { return s.name == name; });
      if (!found) {
        fmt::print(err_, "fleetsim: warning: a bound for '{}', which no scenario here is named\n",
                   name);
      }
    }
  }

  // Stages --json and --html (creating their directories), writes --out, then renames the staged
  // files into place: a failure before the renames leaves no result file behind.
  int WriteBenchOutputs(const BenchArgs& args, const std::vector<RunReport>& reports, bool many,
                        const BoundFigures* bounds, const PublishedSet* published) {
    std::vector<std::pair<std::string, std::string>> files;  // path, contents
    if (!args.json_file.empty()) {
      files.emplace_back(args.json_file, BenchJson(reports, bounds));
    }
    if (!args.html_file.empty()) {
      files.emplace_back(args.html_file,
                         BenchHtml(reports, {.published = published, .reproduce = command_line_}));
    }
    StagedOutputs staged;
    if (const int status = staged.Stage(files, err_); status != ToInt(ExitStatus::kOk)) {
      return status;
    }
    if (!args.out_dir.empty()) {
      if (const int status = WriteOutputs(args.out_dir, reports, many, false);
          status != ToInt(ExitStatus::kOk)) {
        return status;
      }
    }
    return staged.Commit(err_);
  }

  int Bound(const BoundArgs& args) {
    OutputTargets targets(/*dash_is_standard_output=*/false);
    targets.AddFile("--json", args.json_file);
    for (const std::string& scenario : args.scenarios) {
      targets.AddInput("the scenario", scenario);
    }
    if (!targets.Check("fleetsim", err_)) {
      return ToInt(ExitStatus::kUsage);
    }
    const auto scenarios = LoadAll(args.scenarios, args.strict);
    if (!scenarios) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    if (!NamesDiffer(*scenarios)) {
      return ToInt(ExitStatus::kUsage);
    }
    return RunBoundCommand(args, *scenarios, args.scenarios, out_, err_);
  }

  int ListTraceFormats() {
    for (const TraceFormat& format : TraceFormats()) {
      fmt::print(out_, "{}\n    {}\n", format.name, format.summary);
      for (const TraceOptionSpec& option : format.options) {
        fmt::print(out_, "    - {} (default '{}'): {}\n", option.name, option.default_value,
                   option.doc);
      }
    }
    return ToInt(ExitStatus::kOk);
  }

  int ListPolicies() {
    for (const PolicyInfo& info : registry_.policies()) {
      fmt::print(out_, "{}\n    {}\n", info.name, info.summary);
      for (const ParamSpec& p : info.params) {
        fmt::print(out_, "    - {} ({}, default {}, {} {}): {}\n", p.name, ParamTypeName(p.type),
                   FormatParamValue(p.default_value),
                   p.type == ParamType::kChoice ? "one of" : "range", ParamRangeText(p), p.doc);
      }
    }
    return ToInt(ExitStatus::kOk);
  }

  std::ostream& out_;
  std::ostream& err_;
  bool err_is_terminal_ = false;  // progress is shown only then
  PolicyRegistry registry_;
  std::vector<std::string> policy_modules_;  // --policy-module
  std::shared_ptr<spdlog::logger> logger_;
  const Catalog* catalog_ = nullptr;  // built-in, or extended by --catalog; set in Main
  std::string command_line_;          // ReproduceCommand: the reports' reproduce line
};

}  // namespace

int Main(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
         bool err_is_terminal) {
  int status = ToInt(ExitStatus::kOk);
  try {
    status = Cli(out, err, err_is_terminal).Main(argc, argv);
  } catch (const std::bad_alloc&) {
    // Memory ran out (a machine's, or a limit's: ulimit -v, a cgroup). Outputs are staged in
    // memory and committed last, so nothing was written unless the commit itself was under
    // way, which a folder's manifest then shows.
    fmt::print(err,
               "fleetsim: out of memory: the command needed more memory than it could get "
               "(a huge grid, trace or fleet?); no output file was committed\n");
    return ToInt(ExitStatus::kOutOfMemory);
  }
  // What went to `out` (a listing, an import to '-', a report) must have been written: a full
  // device or a closed pipe is an output error, not success. The flush makes a buffered write
  // fail here rather than silently at exit. A command whose outcome is reported there (drift, no
  // fleet found: the report lists what) exits 4 too, as that report was lost; the other failures
  // keep their own status, their cause being on stderr (and a sweep's in results.csv).
  out.flush();
  if (!out) {
    fmt::print(err,
               "fleetsim: cannot write to standard output (a full device or a closed "
               "pipe?): the output is incomplete\n");
    const bool reported_on_out = status == ToInt(ExitStatus::kOk) ||
                                 status == ToInt(ExitStatus::kDrift) ||
                                 status == ToInt(ExitStatus::kInfeasible);
    return reported_on_out ? ToInt(ExitStatus::kOutputError) : status;
  }
  return status;
}

}  // namespace fleetsim::cli
