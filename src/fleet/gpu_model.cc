// GPU models: look-ups in a model's MIG profile table.
#include "fleetsim/fleet/gpu_model.h"

namespace fleetsim {

const MigProfile* GpuModel::FindMigProfile(const std::string& profile) const {
  for (const MigProfile& candidate : mig_profiles) {
    if (candidate.name == profile) {
      return &candidate;
    }
  }
  return nullptr;
}

}  // namespace fleetsim
