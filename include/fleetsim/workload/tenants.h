// Tenants: the organization jobs are accounted to (a job's `tenant` names one), as a tree of
// accounts/queues. Fair-share policies read it: Slurm's fair-share uses `shares` (an
// association's RawShares), KAI's queues use quota, over-quota weight, limit and priority. A
// scenario lists them under "tenants" (docs/scenario-format.md); a job whose tenant is not listed
// belongs to an implicit top-level tenant with the defaults below. Value types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fleetsim {

inline constexpr std::int64_t kUnlimitedGpus = -1;

struct TenantSpec {
  std::string name{};
  std::string parent{};                      // "" = top level; else another tenant's name
  double shares = 1;                         // Slurm RawShares among its siblings, > 0
  std::int64_t quota_gpus = 0;               // KAI deserved GPUs: -1 unlimited, 0 no guarantee
  double over_quota_weight = 1;              // KAI share of what is left beyond quotas, >= 0
  std::int64_t limit_gpus = kUnlimitedGpus;  // KAI most GPUs it may hold: -1 no limit
  std::int64_t priority = 0;                 // KAI queue priority: higher levels get leftovers first
};

// Tenants in file order; names are unique and parents exist (the scenario loader checks).
using Organization = std::vector<TenantSpec>;

}  // namespace fleetsim
