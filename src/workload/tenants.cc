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

// An unknown parent's message lists at most this many names, and looks for a close one ("did you
// mean") only among at most kMaxSuggestionNames, so that a file of many bad parents gives output
// and work that grow with its size, not with its square.
constexpr std::size_t kMaxListedNames = 20;
constexpr std::size_t kMaxSuggestionNames = 1000;

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

// For each tenant on a cycle of parents, the cycle's length (0 for the others), in one pass over
// the tree: each walk up stops at a tenant an earlier walk has settled, or at one its own walk has
// passed (a cycle).
std::vector<std::size_t> CycleLengths(const std::vector<std::optional<std::size_t>>& parent_of) {
  enum class Mark { kUnseen, kOnWalk, kSettled };
  std::vector<Mark> mark(parent_of.size(), Mark::kUnseen);
  std::vector<std::size_t> length(parent_of.size(), 0);
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
      const auto first = std::find(walk.begin(), walk.end(), *at);
      for (auto it = first; it != walk.end(); ++it) {
        length[*it] = static_cast<std::size_t>(walk.end() - first);
      }
    }
    for (const std::size_t t : walk) {
      mark[t] = Mark::kSettled;
    }
  }
  return length;
}

// "a -> b -> a": the parents from tenant `start`, on a cycle of `length` tenants, back to it. A
// long cycle shows `start`, the next names, how many more, and `start` again: kMaxChainNames names
// in all (cut only where two or more would be hidden).
std::string CycleChain(const Organization& tenants,
                       const std::vector<std::optional<std::size_t>>& parent_of, std::size_t start,
                       std::size_t length) {
  const bool cut = length > kMaxChainNames;
  const std::size_t shown = cut ? kMaxChainNames - 2 : length - 1;  // between the two `start`s
  std::string chain = ShownName(tenants[start].name);
  std::size_t at = start;
  for (std::size_t k = 0; k < shown; ++k) {
    at = *parent_of[at];
    chain += " -> " + ShownName(tenants[at].name);
  }
  if (cut) {
    chain += fmt::format(" -> ... ({} more)", length - 1 - shown);
  }
  return chain + " -> " + ShownName(tenants[start].name);
}

// The names an unknown parent is shown against: the first kMaxListedNames, then how many more.
std::string ListedNames(const std::vector<std::string>& names) {
  if (names.size() <= kMaxListedNames) {
    return QuotedList(names);
  }
  const std::vector<std::string> first(names.begin(), names.begin() + kMaxListedNames);
  return fmt::format("{} and {} more", QuotedList(first), names.size() - kMaxListedNames);
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
      problems.push_back(
          {i, TenantField::kParent,
           fmt::format("unknown parent {} '{}'{} ({}s: {})", noun, ShownName(parent),
                       names.size() <= kMaxSuggestionNames ? DidYouMean(parent, names) : "", noun,
                       ListedNames(names))});
    }
  }
  const std::vector<std::size_t> cycle_length = CycleLengths(parent_of);
  for (std::size_t i = 0; i < tenants.size(); ++i) {
    if (cycle_length[i] > 0) {
      problems.push_back(
          {i, TenantField::kParent,
           fmt::format("{} '{}' is its own ancestor ({})", noun, ShownName(tenants[i].name),
                       CycleChain(tenants, parent_of, i, cycle_length[i]))});
    }
  }
  std::stable_sort(
      problems.begin(), problems.end(),
      [](const TenantProblem& a, const TenantProblem& b) { return a.index < b.index; });
  return problems;
}

}  // namespace fleetsim
