// A run's jobs as Slurm accounting rows, `sacct --parsable2 --allocations` with the columns
// JobID|User|Account|Partition|Submit|Start|End|Elapsed|Timelimit|AllocTRES|ReqTRES|State|NodeList
// (docs/exports.md#sacct): what `fleetsim import --from sacct` reads back. Times are the epoch
// plus simulated time, in whole seconds (milliseconds dropped). Pure functions.
#pragma once

#include <cstdint>
#include <string>

#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/results/run_report.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

// The catalog model as a Slurm GRES type: its name lower-cased ("h100-sxm"), which the sacct
// importer resolves to that model exactly.
std::string GresTypeOf(const GpuModel& model);

// The rows of `report`'s jobs (the report must carry its allocation timeline: the GPUs each job
// held last) as sacct prints them, header first. `workload` is the run's (its jobs in JobIndex
// order, as the report's rows), `fleet` the scenario's, `epoch` the Unix time of simulated time 0.
// Jobs whose submit time is after the end of the run are left out.
std::string SacctExport(const RunReport& report, const Workload& workload, const FleetSpec& fleet,
                        std::int64_t epoch);

}  // namespace fleetsim
