// `fleetsim import-fleet`.
#include "cli/import_fleet_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <memory>

#include "cli/exit_status.h"
#include "fleetsim/cluster_config/kubernetes_nodes.h"
#include "fleetsim/cluster_config/slurm_config.h"
#include "fleetsim/core/diagnostics.h"
#include "fleetsim/report/output_sink.h"

namespace fleetsim::cli {

namespace {

const std::vector<std::string> kSources = {"slurm", "kubernetes"};

// Writes `text` to `path` through a temporary beside it; "-" writes to `out`.
Status WriteWhole(const std::string& path, const std::string& text, std::ostream& out) {
  if (path == "-") {
    out << text;
    return Status::Ok();
  }
  StagedFile file(path);
  if (!file.ok()) {
    return file.status();
  }
  file.stream() << text;
  return file.Commit();
}

struct Imported {
  ImportedFleet fleet;
  Status status;
};

Imported ImportFrom(const ImportFleetArgs& args, const Catalog& catalog, GpuTypeMap types) {
  if (args.from == "kubernetes") {
    KubernetesImportOptions options;
    options.types = std::move(types);
    options.sharing_config = args.sharing;
    options.catalog = &catalog;
    KubernetesImport imported = ImportKubernetesNodes(args.input, options);
    return {std::move(imported.fleet), std::move(imported.status)};
  }
  SlurmImportOptions options;
  options.types = std::move(types);
  options.catalog = &catalog;
  SlurmImport imported = ImportSlurmFleet(args.input, args.gres, options);
  return {std::move(imported.fleet), std::move(imported.status)};
}

}  // namespace

CLI::App* AddImportFleetCommand(CLI::App& app, ImportFleetArgs& args) {
  CLI::App* command = app.add_subcommand(
      "import-fleet",
      "Make a fleet file (for a scenario's \"fleet\": \"FILE\") from a cluster's configuration");
  command
      ->add_option("--from", args.from,
                   "What the input is: slurm (slurm.conf) or kubernetes (kubectl get nodes -o "
                   "json or yaml)")
      ->required();
  command->add_option("input", args.input, "The configuration file")->required();
  command->add_option("--gres", args.gres, "slurm: the cluster's gres.conf");
  command->add_option("--sharing", args.sharing,
                      "kubernetes: the NVIDIA device plugin's config (or its ConfigMap), for "
                      "time-slicing replicas");
  command->add_option("--map", args.maps,
                      "TYPE=MODEL: the catalog GPU model of a GPU type the configuration names "
                      "(repeatable); 'untyped=MODEL' for GPUs given without a type");
  command->add_option("-o,--out", args.output, "The fleet file to write; '-' writes to stdout")
      ->required();
  command->add_option("--parameters-out", args.parameters_output,
                      "Also write the scheduler parameters read (by policy name) to this file");
  return command;
}

int RunImportFleetCommand(const ImportFleetArgs& args, const Catalog& catalog, std::ostream& out,
                          std::ostream& err) {
  if (std::find(kSources.begin(), kSources.end(), args.from) == kSources.end()) {
    fmt::print(err, "fleetsim import-fleet: unknown --from '{}'{} (sources: {})\n", args.from,
               DidYouMean(args.from, kSources), QuotedList(kSources));
    return ToInt(ExitStatus::kUsage);
  }
  GpuTypeMap types;
  if (Status status = ParseGpuTypeMap(args.maps, types); !status.ok()) {
    fmt::print(err, "fleetsim import-fleet: {}\n", status.message());
    return ToInt(ExitStatus::kUsage);
  }
  const Imported imported = ImportFrom(args, catalog, std::move(types));
  if (!imported.status.ok()) {
    fmt::print(err, "{}\n", imported.status.message());
    return ToInt(ExitStatus::kInvalidInput);
  }
  if (Status status = WriteWhole(args.output, FleetFileText(imported.fleet), out); !status.ok()) {
    fmt::print(err, "fleetsim: cannot write the fleet file: {}\n", status.message());
    return ToInt(ExitStatus::kOutputError);
  }
  if (!args.parameters_output.empty()) {
    const std::string text = imported.fleet.parameters.is_null()
                                 ? std::string("{}\n")
                                 : imported.fleet.parameters.dump(2) + "\n";
    if (Status status = WriteWhole(args.parameters_output, text, out); !status.ok()) {
      fmt::print(err, "fleetsim: cannot write the parameters file: {}\n", status.message());
      return ToInt(ExitStatus::kOutputError);
    }
  }
  std::ostream& summary = args.output == "-" ? err : out;
  const std::size_t pools = imported.fleet.fleet["pools"].size();
  fmt::print(summary, "{}: {} pool{} ({})\n", args.input, pools, pools == 1 ? "" : "s", args.from);
  for (const std::string& note : imported.fleet.notes) {
    fmt::print(summary, "{}: note: {}\n", args.input, note);
  }
  if (!imported.fleet.parameters.is_null()) {
    for (const auto& [policy, values] : imported.fleet.parameters.items()) {
      fmt::print(summary, "{}: parameters for '{}': {}\n", args.input, policy, values.dump());
    }
  }
  return ToInt(ExitStatus::kOk);
}

}  // namespace fleetsim::cli
