// Tenant trees checked (see tenants.h).
#include "fleetsim/workload/tenants.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "fleetsim/core/diagnostics.h"
#include "fleetsim/core/names.h"

namespace fleetsim {

namespace {

// A cycle's chain shows at most this many names ("a -> b -> ... -> a" beyond), so that a hostile
// cycle of any length gives messages of bounded length.
constexpr std::size_t kMaxChainNames = 8;

// Each name's first tenant (parents resolve to it); a later tenant with the same plain name is a
// problem (a name that is not plain is the caller's to report).
std::map<std::string, std::size_t, std::less<>> FirstOfEachName(
    const Organization& tenants, const TenantLocator& where, std::string_view noun,
    std::vector<TenantProblem>& problems) {
  std::map<std::string, std::size_t, std::less<>> first;
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

// Which tenants are on a cycle of parents, in one pass over the tree: each walk up stops at a
// tenant an earlier walk has settled, or at one its own walk has passed (a cycle).
std::vector<bool> OnCycle(const std::vector<std::optional<std::size_t>>& parent_of) {
  enum class Mark { kUnseen, kOnWalk, kSettled };
  std::vector<Mark> mark(parent_of.size(), Mark::kUnseen);
  std::vector<bool> on_cycle(parent_of.size(), false);
  std::vector<std::size_t> walk;
  for (std::size_t start = 0; start < parent_of.size(); ++start) {
    walk.clear();
    std::optional<std::size_t> at = start;
    while (at && mark[*at] == Mark::kUnseen) {
      mark[*at] = Mark::kOnWalk;
      walk.push_back(*at);
      at = parent_of[*at];
    }
    if (at && mark[*at] == Mark::kOnWalk) {  // the walk came back to *at: the rest is a cycle
      for (auto it = std::find(walk.begin(), walk.end(), *at); it != walk.end(); ++it) {
        on_cycle[*it] = true;
      }
    }
    for (const std::size_t t : walk) {
      mark[t] = Mark::kSettled;
    }
  }
  return on_cycle;
}

// "a -> b -> a": the parents from tenant `start`, on a cycle, back to it.
std::string CycleChain(const Organization& tenants,
                       const std::vector<std::optional<std::size_t>>& parent_of,
                       std::size_t start) {
  std::vector<std::size_t> cycle = {start};
  for (std::size_t at = *parent_of[start]; at != start; at = *parent_of[at]) {
    cycle.push_back(at);
  }
  cycle.push_back(start);
  const std::size_t hidden = cycle.size() > kMaxChainNames ? cycle.size() - kMaxChainNames : 0;
  std::string chain = ShownName(tenants[start].name);
  for (std::size_t k = 1; k < cycle.size(); ++k) {
    if (hidden > 0 && k == kMaxChainNames - 1) {
      chain += fmt::format(" -> ... ({} more)", hidden);
      k += hidden - 1;
      continue;
    }
    chain += " -> " + ShownName(tenants[cycle[k]].name);
  }
  return chain;
}

}  // namespace

std::vector<TenantProblem> TenantTreeProblems(const Organization& tenants,
                                              const TenantLocator& where, std::string_view noun) {
  std::vector<TenantProblem> problems;
  const auto first = FirstOfEachName(tenants, where, noun, problems);
  std::vector<std::string> names;  // plain names, in file order, each once
  for (std::size_t i = 0; i < tenants.size(); ++i) {
    if (first.at(tenants[i].name) == i && IsPlainName(tenants[i].name)) {
      names.push_back(tenants[i].name);
    }
  }
  std::vector<std::optional<std::size_t>> parent_of(tenants.size());
  for (std::size_t i = 0; i < tenants.size(); ++i) {
    const std::string& parent = tenants[i].parent;
    if (const auto it = first.find(parent); !parent.empty() && it != first.end()) {
      parent_of[i] = it->second;
    } else if (!parent.empty()) {
      problems.push_back({i, TenantField::kParent,
                          fmt::format("unknown parent {} '{}'{} ({}s: {})", noun, ShownName(parent),
                                      DidYouMean(parent, names), noun, QuotedList(names))});
    }
  }
  const std::vector<bool> on_cycle = OnCycle(parent_of);
  for (std::size_t i = 0; i < tenants.size(); ++i) {
    if (on_cycle[i]) {
      problems.push_back(
          {i, TenantField::kParent,
           fmt::format("{} '{}' is its own ancestor ({})", noun, ShownName(tenants[i].name),
                       CycleChain(tenants, parent_of, i))});
    }
  }
  std::stable_sort(
      problems.begin(), problems.end(),
      [](const TenantProblem& a, const TenantProblem& b) { return a.index < b.index; });
  return problems;
}

}  // namespace fleetsim
