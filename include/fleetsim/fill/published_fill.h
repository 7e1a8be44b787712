// The paper artifact's shipped fill results (`fgd_expected_allo_discrete.csv`,
// `fgd_expected_frag_ratio_discrete.csv`: one row per workload × policy × seed, columns x = 0..130)
// for one workload, by policy, to compare fleetsim's curves against (docs/validation.md). The
// artifact names policies "01-Random" ... "06-FGD"; they map to GpuSharePolicy by name.
// Value types; thread-compatible.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"
#include "fleetsim/fill/fill_curves.h"
#include "fleetsim/fill/fill_scenario.h"

namespace fleetsim {

// Per seed (file order), the value at x = 0..max (nullopt for an empty cell).
using PublishedSeries = std::vector<std::vector<std::optional<double>>>;

struct PublishedFill {
  std::map<GpuSharePolicy, PublishedSeries> allocation;
  std::map<GpuSharePolicy, PublishedSeries> fragmentation_ratio;
};

// The artifact's policy name ("03-GpuClustering") as a policy; nullopt if it is none of the six.
std::optional<GpuSharePolicy> PolicyOfArtifactName(const std::string& name);

// Reads both files for `files.workload` on `file_system`. Fails with "file:line: message".
Status LoadPublishedFill(const FileSystem& file_system, const PublishedFillFiles& files,
                         PublishedFill& out);

// Mean and sample sd at x over the seeds that have a value.
SeedStats PublishedStatsAt(const PublishedSeries& series, int x);

}  // namespace fleetsim
