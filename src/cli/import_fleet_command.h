// `fleetsim import-fleet`: a fleet file (and scheduler parameters) from a real cluster's
// configuration (include/fleetsim/cluster_config/), written where a scenario's "fleet": "FILE"
// reads it (docs/cli.md#fleetsim-import-fleet). Internal to the command-line tool.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "fleetsim/fleet/catalog.h"

namespace fleetsim::cli {

struct ImportFleetArgs {
  std::string from;  // "slurm", "kubernetes" or "kai"
  std::string input;
  std::string gres;               // slurm: gres.conf, optional
  std::string topology;           // slurm: topology.conf, optional
  std::string sharing;            // kubernetes: the device plugin's sharing config, optional
  std::vector<std::string> maps;  // "TYPE=MODEL"
  std::string output;             // the fleet file, or "-" for stdout
  std::string parameters_output;  // the policy parameters file; "" = not written
};

// Declares the subcommand and its options on `app`.
CLI::App* AddImportFleetCommand(CLI::App& app, ImportFleetArgs& args);

// Reads, writes the files (each through a temporary, only when everything was read), prints the
// notes; returns the exit status.
int RunImportFleetCommand(const ImportFleetArgs& args, const Catalog& catalog, std::ostream& out,
                          std::ostream& err);

}  // namespace fleetsim::cli
