// Jain's fairness index over tenants' useful GPU-hours per unit of entitlement, the entitlement
// split over the active part of the tenant tree.
#include "fleetsim/metrics/tenant_fairness.h"

#include <algorithm>
#include <map>

namespace fleetsim {

namespace {

const TenantSpec* FindTenant(const Organization& organization, const std::string& name) {
  const auto it = std::find_if(organization.begin(), organization.end(),
                               [&](const TenantSpec& t) { return t.name == name; });
  return it == organization.end() ? nullptr : &*it;
}

bool HasSubTenants(const Organization& organization, const std::string& name) {
  return std::any_of(organization.begin(), organization.end(),
                     [&](const TenantSpec& t) { return t.parent == name; });
}

// The active tenants: those in `submitting` and, for the listed ones, their ancestors.
std::set<std::string> ActiveTenants(const Organization& organization,
                                    const std::set<std::string>& submitting) {
  std::set<std::string> active = submitting;
  for (const std::string& tenant : submitting) {
    for (const TenantSpec* spec = FindTenant(organization, tenant);
         spec != nullptr && !spec->parent.empty(); spec = FindTenant(organization, spec->parent)) {
      active.insert(spec->parent);
    }
  }
  return active;
}

// The sum of `shares` over the active children of `parent` (top level: ""). At the top level each
// unlisted submitting tenant adds 1; under a listed tenant that jobs were booked to, its implicit
// own-jobs child adds 1.
double ActiveChildShares(const std::string& parent, const Organization& organization,
                         const std::set<std::string>& submitting,
                         const std::set<std::string>& active) {
  double sum = 0;
  if (parent.empty()) {
    sum += static_cast<double>(std::count_if(
        submitting.begin(), submitting.end(),
        [&](const std::string& t) { return FindTenant(organization, t) == nullptr; }));
  } else if (submitting.count(parent) != 0) {
    sum += 1;
  }
  for (const TenantSpec& t : organization) {
    if (t.parent == parent && active.count(t.name) != 0) {
      sum += t.shares;
    }
  }
  return sum;
}

// The entitlement of the subtree of the listed, active tenant `spec`.
double SubtreeEntitlement(const TenantSpec& spec, const Organization& organization,
                          const std::set<std::string>& submitting,
                          const std::set<std::string>& active) {
  double entitlement = 1;
  for (const TenantSpec* node = &spec; node != nullptr;
       node = node->parent.empty() ? nullptr : FindTenant(organization, node->parent)) {
    entitlement *= node->shares / ActiveChildShares(node->parent, organization, submitting, active);
  }
  return entitlement;
}

// Useful GPU-hours by tenant over the jobs that were submitted (rejected ones included).
std::map<std::string, double> UsefulBySubmittingTenant(const std::vector<JobRecordRow>& jobs) {
  std::map<std::string, double> useful_by_tenant;
  for (const JobRecordRow& job : jobs) {
    if (job.state != FinalState::kNotSubmitted) {
      useful_by_tenant[job.tenant] += job.useful_gpu_hours;
    }
  }
  return useful_by_tenant;
}

// Jain's index (Σx)² / (n Σx²); nullopt when every x is 0.
std::optional<double> JainIndex(const std::vector<double>& xs) {
  double sum = 0;
  double sum_of_squares = 0;
  for (const double x : xs) {
    sum += x;
    sum_of_squares += x * x;
  }
  if (sum_of_squares <= 0) {
    return std::nullopt;
  }
  return sum * sum / (static_cast<double>(xs.size()) * sum_of_squares);
}

}  // namespace

double TenantEntitlement(const std::string& tenant, const Organization& organization,
                         const std::set<std::string>& submitting) {
  if (submitting.count(tenant) == 0) {
    return 0;
  }
  const std::set<std::string> active = ActiveTenants(organization, submitting);
  const TenantSpec* spec = FindTenant(organization, tenant);
  if (spec == nullptr) {
    return 1.0 / ActiveChildShares("", organization, submitting, active);
  }
  const double subtree = SubtreeEntitlement(*spec, organization, submitting, active);
  if (!HasSubTenants(organization, tenant)) {
    return subtree;
  }
  // The tenant's own jobs: an implicit child of it with shares 1.
  return subtree / ActiveChildShares(tenant, organization, submitting, active);
}

std::optional<double> TenantFairness(const std::vector<JobRecordRow>& jobs,
                                     const Organization& organization) {
  const std::map<std::string, double> useful_by_tenant = UsefulBySubmittingTenant(jobs);
  if (useful_by_tenant.size() < 2) {
    return std::nullopt;
  }
  std::set<std::string> submitting;
  for (const auto& [tenant, useful] : useful_by_tenant) {
    submitting.insert(tenant);
  }
  std::vector<double> useful_per_entitlement;
  for (const auto& [tenant, useful] : useful_by_tenant) {
    useful_per_entitlement.push_back(useful / TenantEntitlement(tenant, organization, submitting));
  }
  return JainIndex(useful_per_entitlement);
}

}  // namespace fleetsim
