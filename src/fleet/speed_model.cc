// Relative GPU speeds and job run times.
#include "fleetsim/fleet/speed_model.h"

#include <algorithm>
#include <cmath>

#include "fleetsim/core/check.h"

namespace fleetsim {

SpeedModel::SpeedModel(const GpuModel& reference, SpeedModelParams params)
    : reference_name_(reference.name),
      reference_bf16_(reference.bf16_dense_tflops),
      reference_bandwidth_(reference.memory_bandwidth_tbs),
      params_(params) {
  FLEETSIM_CHECK(params.cross_domain_factor > 0 && params.cross_domain_factor <= 1,
                 "the cross-domain factor must be in (0, 1]");
}

std::optional<double> SpeedModel::GpuSpeed(const GpuModel& gpu, WorkBound bound) const {
  const std::optional<double>& mine =
      bound == WorkBound::kCompute ? gpu.bf16_dense_tflops : gpu.memory_bandwidth_tbs;
  const std::optional<double>& reference =
      bound == WorkBound::kCompute ? reference_bf16_ : reference_bandwidth_;
  if (!mine || !reference || *mine <= 0 || *reference <= 0) {
    return std::nullopt;
  }
  return *mine / *reference;
}

double SpeedModel::MigShare(const MigProfile& profile, WorkBound bound) {
  return bound == WorkBound::kCompute
             ? static_cast<double>(profile.compute_slices) / kMigComputeSlices
             : static_cast<double>(profile.memory_slices) / kMigMemorySlices;
}

SimDuration SpeedModel::Duration(double reference_gpu_hours, std::int64_t gpus,
                                 double per_gpu_speed, std::int64_t domains) const {
  FLEETSIM_CHECK(reference_gpu_hours > 0 && gpus > 0 && per_gpu_speed > 0 && domains > 0,
                 "Duration needs positive work, GPUs, speed and domains");
  const double factor = domains > 1 ? params_.cross_domain_factor : 1.0;
  const double hours = reference_gpu_hours / (static_cast<double>(gpus) * per_gpu_speed * factor);
  return std::max<SimDuration>(1, static_cast<SimDuration>(std::ceil(hours * 3'600'000.0)));
}

}  // namespace fleetsim
