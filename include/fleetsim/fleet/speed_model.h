// The speed model: how fast a job's work goes on the GPUs it gets. Work is measured in reference
// GPU-hours (one hour on one reference GPU, H100 SXM by default). A GPU's speed relative to the
// reference depends on what bounds the work: compute-bound work (training) scales with dense
// BF16 tensor throughput, memory-bound work (inference decode) with memory bandwidth. A MIG
// instance runs at its share of the GPU (compute slices / 7 for compute-bound work, memory
// slices / 8 for memory-bound work). A multi-GPU job whose GPUs span more than one NVLink domain
// runs at a configurable fraction of full speed. Limits (stated in docs/fleet-model.md): no
// per-model efficiency curves, no communication model beyond that one factor, FP8/FP4 speedups
// not applied. Immutable; thread-safe.
#pragma once

#include <optional>
#include <string>

#include "fleetsim/core/time.h"
#include "fleetsim/fleet/gpu_model.h"

namespace fleetsim {

enum class WorkBound { kCompute, kMemory };

// The catalog GPU whose hours measure work (work_gpu_hours) unless a run says otherwise.
inline constexpr const char* kDefaultReferenceGpu = "H100-SXM";

struct SpeedModelParams {
  double cross_domain_factor = 0.8;  // throughput multiplier when a job spans > 1 NVLink domain
};

class SpeedModel {
 public:
  SpeedModel(const GpuModel& reference, SpeedModelParams params);

  // Speed of a whole `gpu` relative to the reference, or nullopt when the catalog lacks the
  // figure this kind of work needs (e.g. BF16 throughput of an unreleased part).
  std::optional<double> GpuSpeed(const GpuModel& gpu, WorkBound bound) const;
  // Share of a whole GPU a MIG instance delivers.
  static double MigShare(const MigProfile& profile, WorkBound bound);

  // Run time of `reference_gpu_hours` of work on `gpus` GPUs each running at `per_gpu_speed`
  // (from GpuSpeed, times MigShare for an instance), spanning `domains` NVLink domains; rounded
  // up to the millisecond and at least 1 ms.
  SimDuration Duration(double reference_gpu_hours, std::int64_t gpus, double per_gpu_speed,
                       std::int64_t domains) const;

  const std::string& reference_name() const { return reference_name_; }

 private:
  std::string reference_name_;
  std::optional<double> reference_bf16_;
  std::optional<double> reference_bandwidth_;
  SpeedModelParams params_;
};

}  // namespace fleetsim
