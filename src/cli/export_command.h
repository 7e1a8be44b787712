// `fleetsim export`: a run directory (`fleetsim run --out`) in other tools' vocabulary — its
// jobs as sacct rows, its GPUs as dcgm-exporter telemetry (docs/exports.md). The run directory
// holds no placements, so the command runs the scenario again with the run's policy, parameters
// and seed and checks that it gives the run's jobs.csv byte for byte before it writes anything
// (docs/cli.md#fleetsim-export). Internal to the command-line tool.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "CLI/CLI.hpp"
#include "fleetsim/fleet/catalog.h"
#include "fleetsim/policy/registry.h"

namespace fleetsim::cli {

struct ExportArgs {
  std::string run_dir;
  std::string scenario;
  std::string sacct;                          // "" = not written
  std::string dcgm;                           // "" = not written
  std::string interval = "60s";               // between DCGM samples
  std::string epoch = "2026-01-01T00:00:00";  // the UTC time of simulated time 0
};

// Declares the subcommand and its options on `app`.
CLI::App* AddExportCommand(CLI::App& app, ExportArgs& args);

// Runs the scenario again, checks it against the run directory, writes the outputs asked for
// (all or none); returns the exit status.
int RunExportCommand(const ExportArgs& args, const PolicyRegistry& registry, const Catalog& catalog,
                     std::ostream& out, std::ostream& err);

// A positive whole number of seconds, minutes, hours or days ("90", "90s", "5m", "1h", "1d") as
// seconds; nullopt for anything else.
std::optional<std::int64_t> ParseInterval(const std::string& text);

}  // namespace fleetsim::cli
