// Writing the sweep's Slurm job scripts and submitting them with sbatch.
#include "cli/slurm_submit.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <charconv>
#include <cstdio>
#include <filesystem>

#include "cli/exit_status.h"
#include "cli/shell_words.h"
#include "fleetsim/report/output_sink.h"

namespace fleetsim::cli {

namespace {

namespace fs = std::filesystem;

std::optional<std::size_t> ParseCount(const std::string& text) {
  std::size_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return std::nullopt;
  }
  return value;
}

// "I/N" with 1 <= I <= N.
std::optional<Shard> ParseShard(const std::string& text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) {
    return std::nullopt;
  }
  const auto index = ParseCount(text.substr(0, slash));
  const auto count = ParseCount(text.substr(slash + 1));
  if (!index || !count || *index < 1 || *index > *count) {
    return std::nullopt;
  }
  return Shard{.index = *index, .count = *count};
}

std::string_view WorkName(SlurmWork work) { return work == SlurmWork::kPlan ? "plan" : "sweep"; }

std::string_view WorkDoc(SlurmWork work) {
  return work == SlurmWork::kPlan ? "docs/planning.md" : "docs/sweeps.md";
}

// A job name Slurm shows as is: letters, digits, '.', '_' and '-'.
std::string JobName(const std::string& name) {
  std::string out = "fleetsim-";
  for (const char c : name) {
    out +=
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ? c : '_';
  }
  return out;
}

std::string CommonDirectives(const SlurmArgs& args) {
  std::string out;
  if (!args.partition.empty()) {
    out += "#SBATCH --partition=" + args.partition + "\n";
  }
  if (!args.account.empty()) {
    out += "#SBATCH --account=" + args.account + "\n";
  }
  if (!args.time.empty()) {
    out += "#SBATCH --time=" + args.time + "\n";
  }
  return out;
}

// Runs `command` with /bin/sh, returning its exit status and what it printed (both streams).
int Capture(const std::string& command, std::string& output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) {
    output = "cannot start /bin/sh";
    return -1;
  }
  char buffer[4096];
  std::size_t read = 0;
  while ((read = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    output.append(buffer, read);
  }
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Submits a script; its job id, or "" after printing why not.
std::string Submit(const std::string& sbatch_arguments, std::ostream& err) {
  std::string output;
  const int status = Capture("sbatch --parsable " + sbatch_arguments, output);
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) {
    output.pop_back();
  }
  const std::string id = output.substr(0, output.find(';'));  // "id;cluster" on federations
  const bool numeric = !id.empty() && id.find_first_not_of("0123456789") == std::string::npos;
  if (status != 0 || !numeric) {
    fmt::print(err, "fleetsim: sbatch {} failed (exit {}): {}\n", sbatch_arguments, status,
               output.empty() ? "no output (is Slurm's sbatch on the PATH?)" : output);
    return "";
  }
  return id;
}

Status WriteScript(const fs::path& path, const std::string& text) {
  StagedFile file(path.string());
  if (!file.ok()) {
    return file.status();
  }
  file.stream() << text;
  if (Status status = file.Commit(); !status.ok()) {
    return status;
  }
  std::error_code ec;
  fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add, ec);
  return Status::Ok();
}

}  // namespace

std::optional<Shard> ShardOption(const std::string& text, std::ostream& err) {
  if (text.empty()) {
    return Shard{};
  }
  const std::optional<Shard> shard = ParseShard(text);
  if (!shard) {
    fmt::print(err, "fleetsim: --shard: expected I/N with 1 <= I <= N, found '{}'\n", text);
  }
  return shard;
}

std::size_t ArrayTasks(std::size_t points, std::size_t runs_per_task) {
  if (points == 0) {
    return 1;
  }
  const std::size_t per_task = runs_per_task > 0
                                   ? runs_per_task
                                   : (points + kMaxDefaultArrayTasks - 1) / kMaxDefaultArrayTasks;
  return (points + per_task - 1) / per_task;
}

// " --policy-module FILE" for each of the sweep's policy modules.
std::string ModuleArgs(const SlurmSweep& sweep) {
  std::string args;
  for (const std::string& module : sweep.policy_modules) {
    args += " --policy-module " + ShellQuoted(module);
  }
  return args;
}

std::string SweepSbatch(const SlurmSweep& sweep, const SlurmArgs& args, std::size_t tasks) {
  const std::string_view kind = WorkName(sweep.work);
  std::string out = "#!/bin/bash\n";
  out += fmt::format(
      "# Written by 'fleetsim {0} --slurm' for {0} '{1}': task I of this array runs shard I/{2}\n"
      "# of the {0}'s {3} runs. A task that fails leaves its shard to a resubmission of this\n"
      "# script (finished runs are skipped); {4}.\n",
      kind, sweep.name, tasks, sweep.points, WorkDoc(sweep.work));
  out += "#SBATCH --job-name=" + JobName(sweep.name) + "\n";
  out += fmt::format("#SBATCH --array=1-{}{}\n", tasks,
                     args.array_max > 0 ? fmt::format("%{}", args.array_max) : "");
  out += "#SBATCH --output=" + sweep.out_dir + "/slurm/task-%A_%a.log\n";
  out += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
  out += CommonDirectives(args);
  out += fmt::format("{} {} {} --out {} --shard \"${{SLURM_ARRAY_TASK_ID}}/{}\" -j 1{}{}\n",
                     ShellQuoted(sweep.fleetsim), kind, ShellQuoted(sweep.spec_path),
                     ShellQuoted(sweep.out_dir), tasks, sweep.strict ? " --strict" : "",
                     ModuleArgs(sweep));
  out +=
      "status=$?\n"
      "# 6: some runs failed and are recorded with their causes; the shard is done, and the\n"
      "# job after the array reports them.\n"
      "if [ \"$status\" -eq 6 ]; then exit 0; fi\n"
      "exit \"$status\"\n";
  return out;
}

std::string MergeSbatch(const SlurmSweep& sweep, const SlurmArgs& args) {
  const bool plan = sweep.work == SlurmWork::kPlan;
  const std::string step = plan ? "choose" : "merge";
  std::string out = "#!/bin/bash\n";
  out += fmt::format(
      "# Written by 'fleetsim {} --slurm' for {} '{}': once every task of the array\n"
      "# succeeded, {}.\n",
      WorkName(sweep.work), WorkName(sweep.work), sweep.name,
      plan ? "chooses the fleet from every run the shards recorded (exit 7: no fleet meets "
             "every target)"
           : "writes the results from the shards' records");
  out += "#SBATCH --job-name=" + JobName(sweep.name) + "-" + step + "\n";
  out += "#SBATCH --output=" + sweep.out_dir + "/slurm/" + step + "-%j.log\n";
  out += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
  out += CommonDirectives(args);
  if (plan) {
    out +=
        fmt::format("exec {} plan {} --out {} --exhaustive -j 1{}{}\n", ShellQuoted(sweep.fleetsim),
                    ShellQuoted(sweep.spec_path), ShellQuoted(sweep.out_dir),
                    sweep.strict ? " --strict" : "", ModuleArgs(sweep));
  } else {
    out += fmt::format("exec {} sweep merge {}\n", ShellQuoted(sweep.fleetsim),
                       ShellQuoted(sweep.out_dir));
  }
  return out;
}

int SubmitSweep(const SlurmSweep& sweep, const SlurmArgs& args, std::ostream& out,
                std::ostream& err) {
  const std::size_t tasks = ArrayTasks(sweep.points, args.runs_per_task);
  const fs::path dir = fs::path(sweep.out_dir) / "slurm";
  std::error_code ec;
  fs::create_directories(dir, ec);
  const bool plan = sweep.work == SlurmWork::kPlan;
  const fs::path array_script = dir / (plan ? "plan.sbatch" : "sweep.sbatch");
  const fs::path merge_script = dir / (plan ? "choose.sbatch" : "merge.sbatch");
  for (const auto& [path, text] : {std::pair{array_script, SweepSbatch(sweep, args, tasks)},
                                   std::pair{merge_script, MergeSbatch(sweep, args)}}) {
    if (const Status status = ec ? Status::IoError(ec.message()) : WriteScript(path, text);
        !status.ok()) {
      fmt::print(err, "fleetsim: cannot write {}: {}\n", path.string(), status.message());
      return ToInt(ExitStatus::kOutputError);
    }
  }
  if (args.dry_run) {
    fmt::print(out,
               "wrote {} ({} tasks for {} runs) and {}; submit them with:\n"
               "  id=$(sbatch --parsable {})\n  sbatch --dependency=afterok:$id {}\n",
               array_script.string(), tasks, sweep.points, merge_script.string(),
               ShellQuoted(array_script.string()), ShellQuoted(merge_script.string()));
    return ToInt(ExitStatus::kOk);
  }
  const std::string array_id = Submit(ShellQuoted(array_script.string()), err);
  if (array_id.empty()) {
    return ToInt(ExitStatus::kInvalidInput);
  }
  const std::string merge_id = Submit(
      fmt::format("--dependency=afterok:{} {}", array_id, ShellQuoted(merge_script.string())), err);
  if (merge_id.empty()) {
    fmt::print(err, "fleetsim: the array job {} was submitted; cancel it with: scancel {}\n",
               array_id, array_id);
    return ToInt(ExitStatus::kInvalidInput);
  }
  fmt::print(
      out,
      "submitted {} '{}': array job {} ({} tasks for {} runs), {} job {} after it\n"
      "follow them:  squeue -j {},{}   (sacct -j {} where accounting is on)\n"
      "task logs:    {}/task-{}_*.log\n"
      "results:      {}/{} once job {} has finished\n"
      "a failed task: resubmit with  sbatch --array=I {}  (finished runs are skipped), "
      "then  {}\n",
      WorkName(sweep.work), sweep.name, array_id, tasks, sweep.points, plan ? "choose" : "merge",
      merge_id, array_id, merge_id, array_id, dir.string(), array_id, sweep.out_dir,
      plan ? "plan.json" : "results.csv", merge_id, array_script.string(),
      plan ? fmt::format("fleetsim plan {} --out {} --exhaustive", sweep.spec_path, sweep.out_dir)
           : fmt::format("fleetsim sweep merge {}", sweep.out_dir));
  return ToInt(ExitStatus::kOk);
}

}  // namespace fleetsim::cli
