// Jain's fairness index over tenants' useful GPU-hours per unit of entitlement.
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

// The sum of `shares` over the tenants whose parent is `parent` (top level: "", where each
// unlisted tenant adds 1).
double SiblingShares(const std::string& parent, const Organization& organization,
                     const std::vector<std::string>& unlisted_top_level) {
  double sum = parent.empty() ? static_cast<double>(unlisted_top_level.size()) : 0.0;
  for (const TenantSpec& t : organization) {
    if (t.parent == parent) {
      sum += t.shares;
    }
  }
  return sum;
}

}  // namespace

double TenantEntitlement(const std::string& tenant, const Organization& organization,
                         const std::vector<std::string>& unlisted_top_level) {
  const TenantSpec* spec = FindTenant(organization, tenant);
  if (spec == nullptr) {
    return 1.0 / SiblingShares("", organization, unlisted_top_level);
  }
  double entitlement = 1;
  for (; spec != nullptr; spec = FindTenant(organization, spec->parent)) {
    entitlement *= spec->shares / SiblingShares(spec->parent, organization, unlisted_top_level);
    if (spec->parent.empty()) {
      break;
    }
  }
  return entitlement;
}

std::optional<double> TenantFairness(const std::vector<JobRecordRow>& jobs,
                                     const Organization& organization) {
  std::map<std::string, double> useful_by_tenant;
  for (const JobRecordRow& job : jobs) {
    useful_by_tenant[job.tenant] += job.useful_gpu_hours;
  }
  if (useful_by_tenant.size() < 2) {
    return std::nullopt;
  }
  std::vector<std::string> unlisted;
  for (const auto& [tenant, useful] : useful_by_tenant) {
    if (FindTenant(organization, tenant) == nullptr) {
      unlisted.push_back(tenant);
    }
  }
  double sum = 0;
  double sum_of_squares = 0;
  for (const auto& [tenant, useful] : useful_by_tenant) {
    const double x = useful / TenantEntitlement(tenant, organization, unlisted);
    sum += x;
    sum_of_squares += x * x;
  }
  if (sum_of_squares <= 0) {
    return std::nullopt;
  }
  return sum * sum / (static_cast<double>(useful_by_tenant.size()) * sum_of_squares);
}

}  // namespace fleetsim
