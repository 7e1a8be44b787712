// Tenant trees checked (see tenants.h).
#include "fleetsim/workload/tenants.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "fleetsim/core/diagnostics.h"
#include "fleetsim/core/names.h"

namespace fleetsim {

namespace {

using TenantsByName = std::map<std::string, std::size_t, std::less<>>;

// Each name's first tenant (parents resolve to it); a later tenant with the same plain name is a
// problem (a name that is not plain is the caller's to report).
TenantsByName FirstOfEachName(const Organization& tenants, const TenantLocator& where,
                              std::string_view noun, std::vector<TenantProblem>& problems) {
  TenantsByName first;
  for (std::size_t i = 0; i < tenants.size(); ++i) {
    const auto [it, fresh] = first.emplace(tenants[i].name, i);
    if (!fresh && IsPlainName(tenants[i].name)) {
      problems.push_back({i, TenantField::kName,
                          fmt::format("duplicate {} name '{}' (first used at {})", noun,
                                      tenants[i].name, where(it->second, TenantField::kName))});
    }
  }
  return first;
}

// "a -> b -> a" when following parents from tenant `start` comes back to it, else "".
std::string CycleThrough(const Organization& tenants, const TenantsByName& by_name,
                         std::size_t start) {
  std::string chain = tenants[start].name;
  std::size_t at = start;
  for (std::size_t steps = 0; steps < tenants.size(); ++steps) {
    const auto parent = by_name.find(tenants[at].parent);
    if (tenants[at].parent.empty() || parent == by_name.end()) {
      return "";
    }
    at = parent->second;
    chain += " -> " + tenants[at].name;
    if (tenants[at].name == tenants[start].name) {
      return chain;
    }
  }
  return "";
}

}  // namespace

std::vector<TenantProblem> TenantTreeProblems(const Organization& tenants,
                                              const TenantLocator& where, std::string_view noun) {
  std::vector<TenantProblem> problems;
  const TenantsByName by_name = FirstOfEachName(tenants, where, noun, problems);
  std::vector<std::string> names;  // in file order, each once
  for (std::size_t i = 0; i < tenants.size(); ++i) {
    if (by_name.at(tenants[i].name) == i) {
      names.push_back(tenants[i].name);
    }
  }
  for (std::size_t i = 0; i < tenants.size(); ++i) {
    const std::string& parent = tenants[i].parent;
    if (parent.empty()) {
      continue;
    }
    if (!by_name.contains(parent)) {
      problems.push_back({i, TenantField::kParent,
                          fmt::format("unknown parent {} '{}'{} ({}s: {})", noun, ShownName(parent),
                                      DidYouMean(parent, names), noun, QuotedList(names))});
    } else if (const std::string cycle = CycleThrough(tenants, by_name, i); !cycle.empty()) {
      problems.push_back(
          {i, TenantField::kParent,
           fmt::format("{} '{}' is its own ancestor ({})", noun, tenants[i].name, cycle)});
    }
  }
  std::stable_sort(
      problems.begin(), problems.end(),
      [](const TenantProblem& a, const TenantProblem& b) { return a.index < b.index; });
  return problems;
}

}  // namespace fleetsim
