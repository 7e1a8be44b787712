// MIG geometry on one GPU: which GPU instances fit where. A GPU's state is the occupancy of its
// 8 memory slices (a bit mask) and of its 7 compute slices, plus instance counts. A profile
// placed at memory start s with g compute slices and m memory slices occupies memory slices
// s..s+m-1 and compute slices s..s+g-1 (memory slice 7 has no compute slice of its own), so a 3g
// at 0 strands compute slice 3, 4g+3g fits, and 4g+4g does not. Admission: the start is valid for
// the profile, no memory or compute overlap, at most 7 instances, at most max_instances of the
// profile, at most one "+me" instance. Facts and sources: docs/fleet-model.md.
// Value types; thread-compatible.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/core/status.h"
#include "fleetsim/fleet/gpu_model.h"

namespace fleetsim {

// One placed GPU instance.
struct MigPlacement {
  const MigProfile* profile = nullptr;
  int start = 0;  // memory-slice index
};

class MigGpuState {
 public:
  // OK when `profile` can be placed at `start` on this GPU; otherwise refused, saying why.
  Status CheckPlacement(const MigProfile& profile, int start) const;
  // CheckPlacement(profile, start).ok(), without building a message: the query placement loops
  // make.
  bool CanPlace(const MigProfile& profile, int start) const;

  // Precondition (checked): CanPlace(profile, start).
  void Place(const MigProfile& profile, int start);
  // Precondition (checked): an instance of `profile` is placed at `start`.
  void Remove(const MigProfile& profile, int start);

  // The start at which placing `profile` keeps the most capacity for the GPU's other profiles
  // (the placement that leaves the largest set of other profiles still placeable, ties broken by
  // the lowest start), or nullopt if it fits nowhere. `all_profiles` is the GPU's profile table.
  std::optional<int> BestStart(const MigProfile& profile,
                               const std::vector<MigProfile>& all_profiles) const;

  std::uint8_t memory_mask() const { return memory_mask_; }    // bit i: memory slice i used
  std::uint8_t compute_mask() const { return compute_mask_; }  // bit i: compute slice i used
  int instances() const { return instances_; }
  int free_compute_slices() const;
  bool empty() const { return instances_ == 0; }
  const std::vector<MigPlacement>& placements() const { return placements_; }

 private:
  std::uint8_t memory_mask_ = 0;
  std::uint8_t compute_mask_ = 0;
  int instances_ = 0;
  int media_extension_instances_ = 0;
  std::map<std::string, int> count_by_profile_;
  std::vector<MigPlacement> placements_;
};

// A static layout such as {"4g.40gb": 1, "3g.40gb": 1}: checks that the instances can all be
// placed on one GPU of `model`, and if so returns their placements (found by search, largest
// profiles first). On failure `status` explains why in words a user can act on: an unknown
// profile (with "did you mean"), too many instances of a profile, too many in all, or which
// instances collide and over which slices.
struct LayoutCheck {
  std::vector<MigPlacement> placements;
  Status status;  // an invalid-input error when the layout cannot be placed
};
LayoutCheck PlaceLayout(const GpuModel& model, const std::map<std::string, int>& layout);

// A MIG instance as Slurm and Kubernetes name one: "a100_3g.20gb" (a GRES type: model, '_',
// profile), "3g.20gb", "1g.10gb+me", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb" (a product label).
struct MigTypeName {
  std::string model;    // "" when the name has none
  std::string profile;  // "3g.20gb"
  int memory_gb = 0;    // 20
};

// The model and profile of a name that ends in a MIG profile ("<g>g.<m>gb", optionally "+me"),
// after '_' or "-MIG-" or alone; nullopt for any other name.
std::optional<MigTypeName> SplitMigTypeName(std::string_view name);

}  // namespace fleetsim
