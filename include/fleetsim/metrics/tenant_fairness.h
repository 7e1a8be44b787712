// Fairness across tenants: Jain's index over each tenant's useful GPU-hours divided by its
// entitlement, J = (Σx)² / (n Σx²), in (0, 1], 1 when every tenant got the same output per unit of
// entitlement. A tenant's entitlement is its normalized share of the organization: its `shares`
// over the sum of its siblings' (an unlisted tenant is an implicit top-level one with shares 1),
// multiplied down the tree. Only tenants that submitted at least one job count; with fewer than two
// there is no index. docs/metrics.md#fairness-across-tenants defines it and says what it does not
// capture (a tenant that asked for little is not starved by getting little).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fleetsim/metrics/job_log.h"
#include "fleetsim/workload/tenants.h"

namespace fleetsim {

// A tenant's entitlement in (0, 1]. `unlisted_top_level` names the tenants that jobs use but the
// organization does not list (each an implicit top-level tenant with shares 1).
double TenantEntitlement(const std::string& tenant, const Organization& organization,
                         const std::vector<std::string>& unlisted_top_level);

// Jain's index over the tenants of `jobs` (JobRecordRow::tenant, useful_gpu_hours); nullopt with
// fewer than two tenants, or when no tenant got any useful work.
std::optional<double> TenantFairness(const std::vector<JobRecordRow>& jobs,
                                     const Organization& organization);

}  // namespace fleetsim
