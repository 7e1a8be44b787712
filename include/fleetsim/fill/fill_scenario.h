// Fill scenarios: scenario files of kind "fill" (docs/scenario-format.md "Fill scenarios"), the
// arrival-only experiment of Weng et al. on an openb node list and pod list, run under several
// placement policies and seeds, optionally with the paper artifact's shipped results to compare
// against. Loading validates every field at once and reports each problem at its JSON pointer;
// paths are relative to the scenario file. Value types; thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/diagnostics.h"
#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"
#include "fleetsim/fleet/gpu_share_placement.h"

namespace fleetsim {

// The artifact's results for one workload (trace variant).
struct PublishedFillFiles {
  std::string workload;             // the `workload` column's value ("default")
  std::string allocation;           // fgd_expected_allo_discrete.csv, resolved
  std::string fragmentation_ratio;  // fgd_expected_frag_ratio_discrete.csv, resolved
};

struct FillScenario {
  std::string name;
  std::string description;
  std::string nodes;  // resolved paths
  std::string pods;
  std::vector<GpuSharePolicy> policies;  // in file order
  std::uint64_t first_seed = 42;
  std::int64_t seeds = 10;
  double target_share = 1.3;
  double typical_popularity = 0.95;
  std::optional<PublishedFillFiles> published;
};

// Whether the JSON text's top level says "kind": "fill" (for commands that take both kinds).
bool IsFillScenarioText(const std::string& text);

struct FillLoadResult {
  std::optional<FillScenario> scenario;  // set when there are no errors
  Diagnostics diagnostics;
  Status file_status;  // unreadable file or invalid JSON
};

// Reads and checks the fill scenario at `path` on `files` (its node and pod lists must be files
// there too).
FillLoadResult LoadFillScenarioFile(const FileSystem& files, const std::string& path);

}  // namespace fleetsim
