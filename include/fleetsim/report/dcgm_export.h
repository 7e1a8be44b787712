// A run as per-GPU telemetry in dcgm-exporter's words (docs/exports.md#dcgm): an OpenMetrics
// text time series of DCGM_FI_DEV_GPU_UTIL, DCGM_FI_DEV_FB_USED, DCGM_FI_DEV_POWER_USAGE and
// DCGM_FI_DEV_XID_ERRORS, each GPU labelled gpu, UUID, device, modelName and Hostname as the
// exporter labels it, sampled every interval from time 0 to the end of the run, for
// `promtool tsdb create-blocks-from openmetrics`. Pure functions.
#pragma once

#include <cstdint>
#include <string>

#include "fleetsim/core/status.h"
#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/report/fleet_hosts.h"
#include "fleetsim/results/run_report.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

// The most samples x GPUs an export writes (four lines of about 175 bytes each per sample and
// GPU: some 700 MB at the limit).
inline constexpr std::int64_t kMaxDcgmPoints = 1'000'000;
// What an up GPU that no job holds draws, as a share of its TDP.
inline constexpr double kIdlePowerShare = 0.1;
// The XID written for the GPUs of a node down after a hardware failure ("GPU has fallen off
// the bus").
inline constexpr int kFailureXid = 79;

struct DcgmExportOptions {
  std::int64_t epoch = 0;        // Unix seconds at simulated time 0
  std::int64_t interval_s = 60;  // between samples, > 0
};

// Samples per GPU: one at every multiple of the interval from 0 to before the end of the run
// (at the end itself every job's last segment and every outage is closed, which a scrape of the
// cluster would not see); one when the run is empty.
std::int64_t DcgmSampleCount(const RunReport& report, std::int64_t interval_s);

// OK, or why the export would be too large (more than kMaxDcgmPoints), with the smallest
// interval that fits. The report must carry its allocation timeline.
Status CheckDcgmExportSize(const RunReport& report, std::int64_t interval_s);

// The name nvidia-smi and dcgm-exporter give the model ("NVIDIA H100 80GB HBM3"); for a model
// not in fleetsim's table, "NVIDIA " + its catalog name.
std::string NvidiaProductName(const GpuModel& model);

// A deterministic "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" from the GPU's host and index.
std::string GpuUuid(const FleetHosts& hosts, GpuId gpu);

// The export of `report` (with its allocation timeline; CheckDcgmExportSize first). `workload`
// is the run's, `fleet` the scenario's.
std::string DcgmExport(const RunReport& report, const Workload& workload, const FleetSpec& fleet,
                       const DcgmExportOptions& options);

}  // namespace fleetsim
