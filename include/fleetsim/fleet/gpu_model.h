// GPU models as the catalog describes them: memory, bandwidth, dense tensor throughput, NVLink,
// power, list prices by tier, and the MIG profile table. Values come from
// scenarios/catalog/catalog.json (data, not code; see docs/fleet-model.md for sources), and a
// field the sources could not verify is flagged so reports can say so.
// Value types; thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fleetsim {

// The number of memory slices of a MIG-capable GPU (all current parts: 8, positions 0..7), and
// of compute slices (7).
inline constexpr int kMigMemorySlices = 8;
inline constexpr int kMigComputeSlices = 7;
inline constexpr int kMigMaxInstances = 7;

// One MIG GPU-instance profile, e.g. H100's 3g.40gb: 3 compute slices, 4 memory slices,
// valid starts {0, 4} (memory-slice index), at most 2 per GPU.
struct MigProfile {
  std::string name{};             // "3g.40gb", "1g.10gb+me"
  int compute_slices = 0;         // g
  int memory_slices = 0;          // size of the placement, in memory slices
  std::vector<int> starts;        // valid placement starts (memory-slice index), ascending
  int max_instances = 0;          // per GPU
  bool media_extensions = false;  // a "+me" profile (at most one per GPU)
  double memory_gb = 0;           // nominal memory, from the profile name
};

enum class PriceTier { kOnDemand, kReserved, kSpot };

struct TierPrices {
  std::optional<double> on_demand{};  // USD per GPU-hour
  std::optional<double> reserved{};
  std::optional<double> spot{};
};

struct GpuModel {
  std::string name{};                  // catalog key, e.g. "H100-SXM"
  std::vector<std::string> aliases{};  // other names it is found by, e.g. "H100"
  std::string description{};
  double memory_gb = 0;
  std::optional<double> memory_bandwidth_tbs{};  // TB/s
  std::optional<double> bf16_dense_tflops{};
  std::optional<double> fp8_dense_tflops{};
  std::optional<double> fp4_dense_tflops{};
  double nvlink_gbs = 0;  // per GPU, bidirectional, GB/s (0: none)
  std::optional<double> tdp_w{};
  std::vector<MigProfile> mig_profiles{};  // empty: no MIG
  TierPrices prices{};
  std::vector<std::string> sources{};     // source tags, documented in docs/fleet-model.md
  std::vector<std::string> unverified{};  // names of fields the sources could not verify

  bool supports_mig() const { return !mig_profiles.empty(); }
  const MigProfile* FindMigProfile(const std::string& profile) const;
};

}  // namespace fleetsim
