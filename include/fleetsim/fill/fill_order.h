// A fill run's inputs given from outside instead of drawn from the seed: the arrival order and
// the node tie rank, read from a fill order file (docs/scenario-format.md#fill-order-files), e.g.
// another simulator's, to compare decisions on identical inputs. (The paper artifact's own come
// from artifact_streams.h, no file needed.) Reads files; otherwise stateless.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"
#include "fleetsim/fill/fill_workload.h"

namespace fleetsim {

struct FillOrder {
  std::vector<std::size_t> arrivals;    // indices into FillWorkload::pods, in arrival order
  std::vector<std::uint32_t> tie_rank;  // per node of the workload: lower wins ties
};

// The order file of one scenario and seed in `dir`: "<dir>/<scenario>-<seed>.csv".
std::string FillOrderPath(const std::string& dir, const std::string& scenario, std::uint64_t seed);

// Reads an order file on `files` against `workload`. Fails with "file:line: message" (or "file:
// message" for what is missing at the end); on error `out` is left as it was.
Status LoadFillOrder(const FileSystem& files, const std::string& path, const FillWorkload& workload,
                     FillOrder& out);

}  // namespace fleetsim
