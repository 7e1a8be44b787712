// `fleetsim import-fleet`.
#include "cli/import_fleet_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <memory>
#include <tuple>
#include <utility>

#include "cli/exit_status.h"
#include "cli/output_targets.h"
#include "cli/staged_outputs.h"
#include "fleetsim/cluster_config/kai_queues.h"
#include "fleetsim/cluster_config/kubernetes_nodes.h"
#include "fleetsim/cluster_config/slurm_config.h"
#include "fleetsim/core/diagnostics.h"
#include "fleetsim/core/file_system.h"
#include "fleetsim/report/output_sink.h"

namespace fleetsim::cli {

namespace {

const std::vector<std::string> kSources = {"slurm", "kubernetes", "kai"};

// What an import gives: the text -o writes, the count it reports, parameters and notes.
struct Imported {
  Status status;
  std::string text;
  std::string count;  // "3 pools", "2 tenants"
  nlohmann::ordered_json parameters;
  std::vector<std::string> notes;
};

std::string Counted(std::size_t n, const char* noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

Imported FromFleet(ImportedFleet fleet, Status status) {
  if (!status.ok()) {
    return {std::move(status), "", "", {}, {}};
  }
  return {Status::Ok(), FleetFileText(fleet), Counted(fleet.fleet["pools"].size(), "pool"),
          std::move(fleet.parameters), std::move(fleet.notes)};
}

Imported ImportFrom(const ImportFleetArgs& args, const Catalog& catalog, GpuTypeMap types) {
  if (args.from == "kai") {
    KaiImport queues = ImportKaiQueues(args.input);
    if (!queues.status.ok()) {
      return {std::move(queues.status), "", "", {}, {}};
    }
    return {
        Status::Ok(),
        queues.tenants.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n",
        Counted(queues.tenants.size(), "tenant"),
        {},
        std::move(queues.notes)};
  }
  if (args.from == "kubernetes") {
    KubernetesImportOptions options;
    options.types = std::move(types);
    options.sharing_config = args.sharing;
    options.catalog = &catalog;
    KubernetesImport imported = ImportKubernetesNodes(args.input, options);
    return FromFleet(std::move(imported.fleet), std::move(imported.status));
  }
  SlurmImportOptions options;
  options.types = std::move(types);
  options.catalog = &catalog;
  options.topology = args.topology;
  SlurmImport imported = ImportSlurmFleet(args.input, args.gres, options);
  return FromFleet(std::move(imported.fleet), std::move(imported.status));
}

// The first option given that the source does not read, with the source that reads it; "" when
// every option given is the source's.
std::pair<std::string, std::string> OptionNotFor(const ImportFleetArgs& args) {
  const std::vector<std::tuple<std::string, const std::string*, std::string>> options = {
      {"--gres", &args.gres, "slurm"},
      {"--topology", &args.topology, "slurm"},
      {"--sharing", &args.sharing, "kubernetes"}};
  for (const auto& [option, value, source] : options) {
    if (!value->empty() && args.from != source) {
      return {option, source};
    }
  }
  return {"", ""};
}

}  // namespace

CLI::App* AddImportFleetCommand(CLI::App& app, ImportFleetArgs& args) {
  CLI::App* command = app.add_subcommand(
      "import-fleet",
      "Make a fleet file (for a scenario's \"fleet\": \"FILE\") from a cluster's configuration");
  command
      ->add_option("--from", args.from,
                   "What the input is: slurm (slurm.conf), kubernetes (kubectl get nodes -o "
                   "json or yaml) or kai (KAI Queue objects: writes the scenario's tenants)")
      ->required();
  command->add_option("input", args.input, "The configuration file")->required();
  command->add_option("--gres", args.gres, "slurm: the cluster's gres.conf");
  command->add_option("--topology", args.topology,
                      "slurm: the cluster's topology.conf (topology/block: NVLink blocks become "
                      "domains and racks; topology/tree: checked, not modelled)");
  command->add_option("--sharing", args.sharing,
                      "kubernetes: the NVIDIA device plugin's config (or its ConfigMap), for "
                      "time-slicing replicas");
  command->add_option("--map", args.maps,
                      "TYPE=MODEL: the catalog GPU model of a GPU type the configuration names "
                      "(repeatable); 'untyped=MODEL' for GPUs given without a type");
  command
      ->add_option("-o,--out", args.output,
                   "The fleet file (for kai: the tenants file) to write; '-' writes to stdout")
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
  if (const auto [option, source] = OptionNotFor(args); !option.empty()) {
    fmt::print(err, "fleetsim import-fleet: {} is read only with --from {}, not --from {}\n",
               option, source, args.from);
    return ToInt(ExitStatus::kUsage);
  }
  OutputTargets targets(/*dash_is_standard_output=*/true);
  targets.AddFile("-o", args.output);
  targets.AddFile("--parameters-out", args.parameters_output);
  targets.AddInput("the input", args.input);
  targets.AddInput("the gres.conf", args.gres);
  targets.AddInput("the topology.conf", args.topology);
  targets.AddInput("the sharing config", args.sharing);
  if (!targets.Check("fleetsim import-fleet", err)) {
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
  std::vector<std::pair<std::string, std::string>> files = {{args.output, imported.text}};
  if (!args.parameters_output.empty()) {
    files.emplace_back(args.parameters_output,
                       imported.parameters.is_null()
                           ? std::string("{}\n")
                           : imported.parameters.dump(
                                 2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
                                 "\n");
  }
  StagedOutputs staged(&out);
  if (const int status = staged.Stage(files, err); status != ToInt(ExitStatus::kOk)) {
    return status;
  }
  if (const int status = staged.Commit(err); status != ToInt(ExitStatus::kOk)) {
    return status;
  }
  // Not into the fleet or parameters, when those went to standard output by any name.
  std::ostream& summary = targets.WritesStandardOutput() ? err : out;
  fmt::print(summary, "{}: {} ({})\n", args.input, imported.count, args.from);
  for (const std::string& note : imported.notes) {
    fmt::print(summary, "{}: note: {}\n", args.input, note);
  }
  if (!imported.parameters.is_null()) {
    for (const auto& [policy, values] : imported.parameters.items()) {
      fmt::print(summary, "{}: parameters for '{}': {}\n", args.input, policy,
                 values.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
    }
  }
  return ToInt(ExitStatus::kOk);
}

}  // namespace fleetsim::cli
