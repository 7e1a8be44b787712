// Tenants: the organization jobs are accounted to (a job's `tenant` names one), as a tree of
// accounts/queues. Fair-share policies read it: Slurm's fair-share uses `shares` (an
// association's RawShares), KAI's queues use quota, over-quota weight, limit and priority. A
// scenario lists them under "tenants" (docs/scenario-format.md); a job whose tenant is not listed
// belongs to an implicit top-level tenant with the defaults below. Value types, and the check
// that they form a tree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
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
  std::int64_t priority = 0;  // KAI queue priority: higher levels get leftovers first
};

// Tenants in file order; names are unique and parents exist (TenantTreeProblems checks, for the
// scenario loader and the KAI queue importer alike).
using Organization = std::vector<TenantSpec>;

// What is wrong with one tenant of a tree: its name or its parent, and why.
enum class TenantField { kName, kParent };
struct TenantProblem {
  std::size_t index = 0;  // in the Organization
  TenantField field = TenantField::kName;
  std::string message;  // "unknown parent tenant 'x', did you mean 'y'? (tenants: ...)"
};

// Where an input gave tenant `index`'s field ("/tenants/3/name"), for messages that point at
// another tenant ("first used at ...").
using TenantLocator = std::function<std::string(std::size_t index, TenantField field)>;

// Names used twice (the later uses; names that are not plain names are left to the caller, which
// reports them with its own words), parents that are not listed, and tenants that are their own
// ancestors, in tenant order. `noun` names a tenant in the messages ("tenant", "queue").
std::vector<TenantProblem> TenantTreeProblems(const Organization& tenants,
                                              const TenantLocator& where,
                                              std::string_view noun = "tenant");

}  // namespace fleetsim
