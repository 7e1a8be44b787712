// Fairness across tenants: Jain's index over the tenants that submitted jobs, J = (Σx)² / (n Σx²)
// in (0, 1], with x = the useful GPU-hours of the jobs booked to a tenant over their entitlement;
// 1 when every tenant got the same output per unit of entitlement. Jobs never submitted
// (FinalState::kNotSubmitted) are ignored; rejected ones count, with the 0 they got.
//
// Entitlement splits the organization over its *active* part, as a fair-share scheduler hands an
// idle tenant's share to its siblings: a tenant is active if jobs were submitted to it or to a
// tenant below it, and an active tenant's share is its `shares` over the sum of its active
// siblings' `shares`, multiplied down the tree. A tenant the organization does not list is a
// top-level one with shares 1. Jobs booked to a tenant that has sub-tenants form one more,
// implicit child of it with shares 1 (an index member of their own, distinct from the
// sub-tenants), so the subtree's entitlement is split rather than counted twice. The members'
// entitlements sum to 1. With fewer than two members there is no index.
// docs/metrics.md#fairness-across-tenants defines it and says what it does not capture (a tenant
// that asked for little is not starved by getting little).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fleetsim/metrics/job_log.h"
#include "fleetsim/workload/tenants.h"

namespace fleetsim {

// The entitlement, in [0, 1], of the jobs booked to `tenant`, when `submitting` names the tenants
// that jobs were submitted to (listed or not; they and their ancestors are the active tenants).
// 0 when `tenant` is not in `submitting`.
double TenantEntitlement(const std::string& tenant, const Organization& organization,
                         const std::set<std::string>& submitting);

// Jain's index over the tenants of the submitted `jobs` (JobRecordRow::tenant, useful_gpu_hours,
// state); nullopt with fewer than two such tenants, or when none got any useful work.
std::optional<double> TenantFairness(const std::vector<JobRecordRow>& jobs,
                                     const Organization& organization);

}  // namespace fleetsim
