// MIG geometry on one GPU: admission of a GPU instance at a memory-slice start (with the reason
// when it does not fit), the start that keeps the most capacity for later instances, and static
// layouts checked by a small backtracking search that explains a failure in terms of slices.
// Everything works on 8-bit slice masks, so a placement decision costs a few dozen bit operations.
#include "fleetsim/fleet/mig.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <string_view>
#include <utility>

#include "fleetsim/core/check.h"
#include "fleetsim/core/diagnostics.h"

namespace fleetsim {
namespace {

// The memory and compute slices one instance occupies.
struct Footprint {
  std::uint8_t memory = 0;
  std::uint8_t compute = 0;
};

// What admission depends on, apart from the per-profile counts.
struct Occupancy {
  std::uint8_t memory = 0;
  std::uint8_t compute = 0;
  int instances = 0;
  int media_extensions = 0;
};

// The instance caps, which do not depend on the start.
enum class Cap { kNone, kGpuFull, kProfileFull, kMediaExtension };

// Bits start..start+count-1; callers keep them inside the 8 bits.
std::uint8_t SliceBits(int start, int count) {
  const unsigned ones = (1U << static_cast<unsigned>(count)) - 1U;
  return static_cast<std::uint8_t>(ones << static_cast<unsigned>(start));
}

// Whether the profile's slices at `start` lie on the GPU. A sane profile table guarantees it for
// every listed start; a table error must not become an out-of-range shift.
bool OnGpu(const MigProfile& profile, int start) {
  return start >= 0 && profile.compute_slices >= 1 && profile.memory_slices >= 1 &&
         start + profile.memory_slices <= kMigMemorySlices &&
         start + profile.compute_slices <= kMigComputeSlices;
}

Footprint FootprintAt(const MigProfile& profile, int start) {
  return {SliceBits(start, profile.memory_slices), SliceBits(start, profile.compute_slices)};
}

bool IsListedStart(const MigProfile& profile, int start) {
  return std::find(profile.starts.begin(), profile.starts.end(), start) != profile.starts.end();
}

bool Collides(const Footprint& footprint, std::uint8_t memory, std::uint8_t compute) {
  return (footprint.memory & memory) != 0 || (footprint.compute & compute) != 0;
}

// The slices are free (the start's validity and the caps are checked elsewhere).
bool FreeAt(const Occupancy& occupancy, const MigProfile& profile, int start) {
  return OnGpu(profile, start) &&
         !Collides(FootprintAt(profile, start), occupancy.memory, occupancy.compute);
}

bool HasFreeStart(const Occupancy& occupancy, const MigProfile& profile) {
  return std::any_of(profile.starts.begin(), profile.starts.end(),
                     [&](int start) { return FreeAt(occupancy, profile, start); });
}

Cap CheckCaps(const Occupancy& occupancy, const MigProfile& profile, int placed_of_profile) {
  if (occupancy.instances >= kMigMaxInstances) {
    return Cap::kGpuFull;
  }
  if (profile.media_extensions && occupancy.media_extensions > 0) {
    return Cap::kMediaExtension;
  }
  if (placed_of_profile >= profile.max_instances) {
    return Cap::kProfileFull;
  }
  return Cap::kNone;
}

int CountOf(const std::map<std::string, int>& counts, const std::string& name) {
  const auto it = counts.find(name);
  return it == counts.end() ? 0 : it->second;
}

// ---- Message helpers. ----

// "memory slices 0-3", "compute slice 6"; `bits` is one contiguous run.
std::string SliceRange(std::string_view kind, std::uint8_t bits) {
  const int low = std::countr_zero(bits);
  const int high = static_cast<int>(std::bit_width(bits)) - 1;
  if (low == high) {
    return fmt::format("{} slice {}", kind, low);
  }
  return fmt::format("{} slices {}-{}", kind, low, high);
}

// "a", "a and b", "a, b and c" (`last` replaces " and ").
std::string JoinAnd(const std::vector<std::string>& items, std::string_view last = " and ") {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) {
      out += i + 1 == items.size() ? last : std::string_view(", ");
    }
    out += items[i];
  }
  return out;
}

// "4 + 4", "4g.40gb ×2 + 3g.40gb".
std::string JoinPlus(const std::vector<std::string>& items) {
  return fmt::format("{}", fmt::join(items, " + "));
}

std::vector<std::string> StartNames(const MigProfile& profile) {
  std::vector<std::string> names;
  for (const int start : profile.starts) {
    names.push_back(std::to_string(start));
  }
  return names;
}

std::string Ordinal(int n) {
  static constexpr std::array<std::string_view, 7> kWords = {"first", "second", "third",  "fourth",
                                                             "fifth", "sixth",  "seventh"};
  if (n >= 1 && n <= static_cast<int>(kWords.size())) {
    return std::string(kWords[static_cast<std::size_t>(n - 1)]);
  }
  return fmt::format("{}th", n);
}

std::string Instances(int n) { return n == 1 ? "1 instance" : fmt::format("{} instances", n); }

}  // namespace

// ---- MigGpuState. ----

Status MigGpuState::CheckPlacement(const MigProfile& profile, int start) const {
  if (!IsListedStart(profile, start)) {
    return Status::Refused(fmt::format("start {} is not a valid start for {} (valid: {})", start,
                                       profile.name, fmt::join(profile.starts, ", ")));
  }
  if (!OnGpu(profile, start)) {
    return Status::Refused(
        fmt::format("{} at {} does not fit on the GPU ({} memory slices, {} compute slices)",
                    profile.name, start, kMigMemorySlices, kMigComputeSlices));
  }
  const Occupancy now{memory_mask_, compute_mask_, instances_, media_extension_instances_};
  switch (CheckCaps(now, profile, CountOf(count_by_profile_, profile.name))) {
    case Cap::kGpuFull:
      return Status::Refused(
          fmt::format("{} instances already placed (the most a GPU holds)", instances_));
    case Cap::kProfileFull:
      return Status::Refused(fmt::format("{} already has its maximum of {}", profile.name,
                                         Instances(profile.max_instances)));
    case Cap::kMediaExtension:
      return Status::Refused("a +me instance is already placed (one per GPU)");
    case Cap::kNone:
      break;
  }
  const Footprint wanted = FootprintAt(profile, start);
  const bool memory_clash = (wanted.memory & memory_mask_) != 0;
  if (!memory_clash && (wanted.compute & compute_mask_) == 0) {
    return Status::Ok();
  }
  std::vector<std::string> occupants;
  for (const MigPlacement& placed : placements_) {
    const Footprint held = FootprintAt(*placed.profile, placed.start);
    if (memory_clash ? (held.memory & wanted.memory) != 0 : (held.compute & wanted.compute) != 0) {
      occupants.push_back(fmt::format("{} at {}", placed.profile->name, placed.start));
    }
  }
  const std::uint8_t clash = memory_clash ? wanted.memory : wanted.compute;
  return Status::Refused(
      fmt::format("{} {} {}", SliceRange(memory_clash ? "memory" : "compute", clash),
                  std::popcount(clash) == 1 ? "overlaps" : "overlap", JoinAnd(occupants)));
}

bool MigGpuState::CanPlace(const MigProfile& profile, int start) const {
  const Occupancy now{memory_mask_, compute_mask_, instances_, media_extension_instances_};
  return IsListedStart(profile, start) && FreeAt(now, profile, start) &&
         CheckCaps(now, profile, CountOf(count_by_profile_, profile.name)) == Cap::kNone;
}

void MigGpuState::Place(const MigProfile& profile, int start) {
  FLEETSIM_CHECK(CanPlace(profile, start), "placing a MIG instance where it does not fit");
  const Footprint footprint = FootprintAt(profile, start);
  memory_mask_ |= footprint.memory;
  compute_mask_ |= footprint.compute;
  ++instances_;
  media_extension_instances_ += profile.media_extensions ? 1 : 0;
  ++count_by_profile_[profile.name];
  placements_.push_back({&profile, start});
}

void MigGpuState::Remove(const MigProfile& profile, int start) {
  const auto it = std::find_if(placements_.begin(), placements_.end(), [&](const MigPlacement& p) {
    return p.start == start && p.profile->name == profile.name;
  });
  FLEETSIM_CHECK(it != placements_.end(), "removing a MIG instance that is not placed");
  const Footprint footprint = FootprintAt(profile, start);
  memory_mask_ &= static_cast<std::uint8_t>(~footprint.memory);
  compute_mask_ &= static_cast<std::uint8_t>(~footprint.compute);
  --instances_;
  media_extension_instances_ -= profile.media_extensions ? 1 : 0;
  const auto count = count_by_profile_.find(profile.name);
  if (--count->second == 0) {
    count_by_profile_.erase(count);
  }
  placements_.erase(it);
}

// A compute slice is usable only while the memory slice at the same index is free too (every
// profile's compute slices sit under its memory slices), so this counts the slices a later
// instance could still get: a 3g at 0 leaves compute slice 3 unused but stranded, and 3, not 4,
// are free.
int MigGpuState::free_compute_slices() const {
  const unsigned used = static_cast<unsigned>(memory_mask_ | compute_mask_);
  const unsigned all_compute = (1U << kMigComputeSlices) - 1U;
  return std::popcount(~used & all_compute);
}

// The key compared between candidate starts: entry 7 - g counts the profiles with g compute
// slices that still have a free start afterwards, so larger profiles weigh first.
std::optional<int> MigGpuState::BestStart(const MigProfile& profile,
                                          const std::vector<MigProfile>& all_profiles) const {
  const Occupancy now{memory_mask_, compute_mask_, instances_, media_extension_instances_};
  if (CheckCaps(now, profile, CountOf(count_by_profile_, profile.name)) != Cap::kNone) {
    return std::nullopt;
  }
  FLEETSIM_CHECK(all_profiles.size() <= 64, "a MIG profile table has at most 64 profiles");
  Occupancy after = now;
  ++after.instances;
  after.media_extensions += profile.media_extensions ? 1 : 0;
  // Which profiles the caps still admit after the placement; the same for every start.
  std::uint64_t admitted = 0;
  for (std::size_t i = 0; i < all_profiles.size(); ++i) {
    const MigProfile& other = all_profiles[i];
    const int placed = CountOf(count_by_profile_, other.name) + (other.name == profile.name);
    if (CheckCaps(after, other, placed) == Cap::kNone) {
      admitted |= std::uint64_t{1} << i;
    }
  }
  using Key = std::array<int, kMigComputeSlices>;
  std::optional<int> best;
  Key best_key{};
  for (const int start : profile.starts) {
    if (!FreeAt(now, profile, start)) {
      continue;
    }
    const Footprint footprint = FootprintAt(profile, start);
    after.memory = now.memory | footprint.memory;
    after.compute = now.compute | footprint.compute;
    Key key{};
    for (std::size_t i = 0; i < all_profiles.size(); ++i) {
      const MigProfile& other = all_profiles[i];
      if ((admitted >> i & 1U) != 0 && HasFreeStart(after, other)) {
        ++key[static_cast<std::size_t>(kMigComputeSlices - other.compute_slices)];
      }
    }
    if (!best || key > best_key || (key == best_key && start < *best)) {
      best = start;
      best_key = key;
    }
  }
  return best;
}

// ---- PlaceLayout. ----

namespace {

// The instances of a layout, one entry per instance, in search order.
using InstanceList = std::vector<const MigProfile*>;

// Largest first (compute, then memory), so the most constrained instances are placed first.
bool SearchOrder(const MigProfile* a, const MigProfile* b) {
  if (a->compute_slices != b->compute_slices) {
    return a->compute_slices > b->compute_slices;
  }
  if (a->memory_slices != b->memory_slices) {
    return a->memory_slices > b->memory_slices;
  }
  return a->name < b->name;
}

// Depth-first search over the valid starts of each instance. Instances of one profile are
// interchangeable, so their starts are taken in increasing order. Remembers the deepest partial
// placement (the first found at that depth) to explain a failure.
class LayoutSearch {
 public:
  explicit LayoutSearch(const InstanceList& instances)
      : instances_(instances), starts_(instances.size(), 0) {}

  bool Run() { return Extend(0, 0, 0); }
  const std::vector<int>& starts() const { return starts_; }
  const std::vector<int>& deepest() const { return deepest_; }

 private:
  bool Extend(std::size_t depth, std::uint8_t memory, std::uint8_t compute) {
    if (depth > deepest_.size()) {
      deepest_.assign(starts_.begin(), starts_.begin() + static_cast<std::ptrdiff_t>(depth));
    }
    if (depth == instances_.size()) {
      return true;
    }
    const MigProfile& profile = *instances_[depth];
    const bool repeat = depth > 0 && instances_[depth - 1] == &profile;
    for (const int start : profile.starts) {
      if ((repeat && start <= starts_[depth - 1]) || !OnGpu(profile, start)) {
        continue;
      }
      const Footprint footprint = FootprintAt(profile, start);
      if (Collides(footprint, memory, compute)) {
        continue;
      }
      starts_[depth] = start;
      if (Extend(depth + 1, memory | footprint.memory, compute | footprint.compute)) {
        return true;
      }
    }
    return false;
  }

  const InstanceList& instances_;
  std::vector<int> starts_;
  std::vector<int> deepest_;
};

// "4g.40gb ×2 + 3g.40gb".
std::string LayoutSummary(const InstanceList& instances) {
  std::vector<std::string> groups;
  for (std::size_t i = 0; i < instances.size();) {
    std::size_t end = i;
    while (end < instances.size() && instances[end] == instances[i]) {
      ++end;
    }
    groups.push_back(end - i == 1 ? instances[i]->name
                                  : fmt::format("{} ×{}", instances[i]->name, end - i));
    i = end;
  }
  return JoinPlus(groups);
}

// "memory slice 0", "memory slices 0 or 4", "memory slices 0, 2 or 4".
std::string StartsPhrase(const MigProfile& profile) {
  const std::vector<std::string> starts = StartNames(profile);
  return fmt::format("memory slice{} {}", starts.size() == 1 ? "" : "s", JoinAnd(starts, " or "));
}

// "4 + 4 compute slices exceed the GPU's 7" when the layout needs more slices than there are.
void AddTotalProblem(const InstanceList& instances, bool compute, std::vector<std::string>& out) {
  std::vector<std::string> terms;
  int total = 0;
  for (const MigProfile* profile : instances) {
    const int slices = compute ? profile->compute_slices : profile->memory_slices;
    terms.push_back(std::to_string(slices));
    total += slices;
  }
  const int available = compute ? kMigComputeSlices : kMigMemorySlices;
  if (total > available) {
    out.push_back(fmt::format("{} {} slices exceed the GPU's {}", JoinPlus(terms),
                              compute ? "compute" : "memory", available));
  }
}

// What the slices of the failing instance's valid starts hold in the deepest partial placement.
std::vector<std::string> Occupants(const InstanceList& instances, const std::vector<int>& placed,
                                   const MigProfile& failing) {
  Footprint needed;
  for (const int start : failing.starts) {
    if (OnGpu(failing, start)) {
      const Footprint footprint = FootprintAt(failing, start);
      needed.memory |= footprint.memory;
      needed.compute |= footprint.compute;
    }
  }
  std::vector<std::string> occupants;
  int same_profile_rank = 0;
  for (std::size_t j = 0; j < placed.size(); ++j) {
    const MigProfile& profile = *instances[j];
    const bool same = &profile == &failing;
    same_profile_rank += same ? 1 : 0;
    const Footprint held = FootprintAt(profile, placed[j]);
    std::string where;
    if ((held.memory & needed.memory) != 0) {
      where = SliceRange("memory", held.memory);
    } else if ((held.compute & needed.compute) != 0) {
      where = SliceRange("compute", held.compute);
    } else {
      continue;
    }
    const std::string who = same ? "the " + Ordinal(same_profile_rank) : profile.name;
    occupants.push_back(fmt::format("{} ({})", who, where));
  }
  return occupants;
}

// "<layout> cannot be placed: <profile> can only start at <starts>, so <instance> overlaps
// <occupants>[; and <totals>]".
std::string ExplainCollision(const InstanceList& instances, const std::vector<int>& deepest) {
  const MigProfile& failing = *instances[deepest.size()];
  const auto placed_end = instances.begin() + static_cast<std::ptrdiff_t>(deepest.size());
  const auto placed_of_failing = std::count(instances.begin(), placed_end, &failing);
  const auto total_of_failing = std::count(instances.begin(), instances.end(), &failing);
  const std::string subject =
      total_of_failing == 1
          ? "it"
          : fmt::format("the {} instance", Ordinal(static_cast<int>(placed_of_failing) + 1));
  const std::vector<std::string> occupants = Occupants(instances, deepest, failing);
  std::string message = fmt::format("{} cannot be placed: ", LayoutSummary(instances));
  if (occupants.empty()) {
    message += fmt::format("{} has no start that fits on the GPU", failing.name);
  } else {
    message += fmt::format("{} can only start at {}, so {} overlaps {}", failing.name,
                           StartsPhrase(failing), subject, JoinAnd(occupants));
  }
  std::vector<std::string> totals;
  AddTotalProblem(instances, true, totals);
  AddTotalProblem(instances, false, totals);
  if (!totals.empty()) {
    message += "; and " + JoinAnd(totals);
  }
  return message;
}

std::string UnknownProfile(const GpuModel& model, const std::string& name) {
  std::vector<std::string> names;
  for (const MigProfile& profile : model.mig_profiles) {
    names.push_back(profile.name);
  }
  return fmt::format("GPU model {} has no MIG profile '{}'{} (profiles: {})", model.name, name,
                     DidYouMean(name, names), QuotedList(names));
}

// The caps the geometry does not imply: max_instances below the number of starts (the +me
// profile) and one +me instance per GPU.
std::string CapProblems(const std::vector<std::pair<const MigProfile*, int>>& requests) {
  std::vector<std::string> problems;
  int media_extensions = 0;
  for (const auto& [profile, count] : requests) {
    if (count > profile->max_instances) {
      problems.push_back(fmt::format("{}: {} requested, at most {} per GPU", profile->name,
                                     Instances(count), profile->max_instances));
    }
    media_extensions += profile->media_extensions ? count : 0;
  }
  if (problems.empty() && media_extensions > 1) {
    problems.push_back(
        fmt::format("{} +me instances requested, at most one per GPU", media_extensions));
  }
  return fmt::format("{}", fmt::join(problems, "; "));
}

}  // namespace

// Checks, in order: MIG support; each entry names a profile and asks for >= 1 instance; at most
// 7 instances in all; a collision-free placement exists (search); the caps the geometry does not
// imply. A count above a profile's max_instances that the geometry already rules out (4g.40gb
// x2) is explained by the search, which says why, rather than by the bare cap.
LayoutCheck PlaceLayout(const GpuModel& model, const std::map<std::string, int>& layout) {
  LayoutCheck result;
  if (!model.supports_mig()) {
    result.status =
        Status::InvalidInput(fmt::format("GPU model {} does not support MIG", model.name));
    return result;
  }
  std::vector<std::string> problems;
  std::vector<std::pair<const MigProfile*, int>> requests;
  std::int64_t total = 0;
  for (const auto& [name, count] : layout) {
    const MigProfile* profile = model.FindMigProfile(name);
    if (profile == nullptr) {
      problems.push_back(UnknownProfile(model, name));
    } else if (count < 1) {
      problems.push_back(
          fmt::format("{}: the instance count must be at least 1, found {}", name, count));
    } else {
      requests.emplace_back(profile, count);
      total += count;
    }
  }
  if (problems.empty() && total > kMigMaxInstances) {
    problems.push_back(
        fmt::format("{} instances requested, at most {} per GPU", total, kMigMaxInstances));
  }
  if (!problems.empty()) {
    result.status = Status::InvalidInput(fmt::format("{}", fmt::join(problems, "; ")));
    return result;
  }
  InstanceList instances;
  for (const auto& [profile, count] : requests) {
    instances.insert(instances.end(), static_cast<std::size_t>(count), profile);
  }
  std::stable_sort(instances.begin(), instances.end(), SearchOrder);
  LayoutSearch search(instances);
  if (!search.Run()) {
    result.status = Status::InvalidInput(ExplainCollision(instances, search.deepest()));
    return result;
  }
  if (const std::string caps = CapProblems(requests); !caps.empty()) {
    result.status = Status::InvalidInput(caps);
    return result;
  }
  MigGpuState state;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    state.Place(*instances[i], search.starts()[i]);
  }
  result.placements = state.placements();
  return result;
}

namespace {

// Digits at the start of `text` as a number (at most 4 of them), consumed; nullopt for none.
std::optional<int> TakeNumber(std::string_view& text) {
  std::size_t digits = 0;
  while (digits < text.size() && digits < 5 && text[digits] >= '0' && text[digits] <= '9') {
    ++digits;
  }
  if (digits == 0 || digits > 4) {
    return std::nullopt;
  }
  int value = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    value = value * 10 + (text[i] - '0');
  }
  text.remove_prefix(digits);
  return value;
}

// Whether `text` is exactly a profile name "<g>g.<m>gb[+me]"; fills `memory_gb`.
bool IsProfileName(std::string_view text, int& memory_gb) {
  if (text.ends_with("+me")) {
    text.remove_suffix(3);
  }
  if (!TakeNumber(text) || !text.starts_with("g.")) {
    return false;
  }
  text.remove_prefix(2);
  const std::optional<int> memory = TakeNumber(text);
  if (!memory || text != "gb") {
    return false;
  }
  memory_gb = *memory;
  return true;
}

}  // namespace

std::optional<MigTypeName> SplitMigTypeName(std::string_view name) {
  for (const std::string_view separator : {std::string_view("-MIG-"), std::string_view("_")}) {
    const std::size_t at = name.rfind(separator);
    if (at == std::string_view::npos) {
      continue;
    }
    int memory_gb = 0;
    const std::string_view profile = name.substr(at + separator.size());
    if (IsProfileName(profile, memory_gb)) {
      return MigTypeName{std::string(name.substr(0, at)), std::string(profile), memory_gb};
    }
  }
  int memory_gb = 0;
  if (IsProfileName(name, memory_gb)) {
    return MigTypeName{"", std::string(name), memory_gb};
  }
  return std::nullopt;
}

}  // namespace fleetsim
