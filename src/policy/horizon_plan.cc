// The rolling-horizon planner: an occupancy bitset per step, the list scheduler (real-time count
// paths within the swap cap, batch jobs at their earliest fitting step on fragmentation-aware
// lanes) and the local search over its choices.
#include "policy/horizon_plan.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <tuple>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

constexpr std::int64_t kNoCap = std::numeric_limits<std::int64_t>::max() / 4;

bool TestBit(const LaneMask& mask, std::uint32_t lane) {
  return ((mask[lane / 64] >> (lane % 64)) & 1U) != 0;
}

void SetBit(LaneMask& mask, std::uint32_t lane) {
  mask[lane / 64] |= std::uint64_t{1} << (lane % 64);
}

std::int64_t Count(const LaneMask& mask) {
  std::int64_t n = 0;
  for (const std::uint64_t word : mask) {
    n += std::popcount(word);
  }
  return n;
}

// Lanes of `mask` in [first, first + count).
std::int64_t CountRange(const LaneMask& mask, std::uint32_t first, std::uint32_t count) {
  std::int64_t n = 0;
  const std::uint32_t end = first + count;
  for (std::uint32_t lane = first; lane < end;) {
    const std::uint32_t word = lane / 64;
    const std::uint32_t bit = lane % 64;
    const std::uint32_t take = std::min(64 - bit, end - lane);
    const std::uint64_t bits = take == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << take) - 1);
    n += std::popcount((mask[word] >> bit) & bits);
    lane += take;
  }
  return n;
}

}  // namespace

struct PlanShape {
  // A domain's lanes: [first, first + count).
  struct Domain {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
    double speed = 0;  // mean lane speed
  };
  std::vector<Domain> domains;
  std::vector<std::uint32_t> domain_of_lane;
  // By domain: the rank of its speed among the fleet's domain speeds, fastest first (0).
  std::vector<std::uint32_t> speed_rank;
  std::uint32_t most_lanes = 0;          // the largest domain's lanes
  std::uint32_t most_fastest_lanes = 0;  // the largest fastest (rank 0) domain's lanes
  LaneMask all;                          // every lane
};

std::shared_ptr<const PlanShape> MakePlanShape(const std::vector<PlanLane>& lanes) {
  FLEETSIM_CHECK(lanes.size() < (std::size_t{1} << 24), "a plan holds fewer than 2^24 lanes");
  auto shape = std::make_shared<PlanShape>();
  shape->all.assign((lanes.size() + 63) / 64, 0);
  for (std::uint32_t lane = 0; lane < lanes.size(); ++lane) {
    SetBit(shape->all, lane);
    const PlanLane& l = lanes[lane];
    if (shape->domains.empty() || lanes[lane - 1].domain != l.domain) {
      shape->domains.push_back({lane, 0, 0});
    }
    ++shape->domains.back().count;
    shape->domains.back().speed += l.speed;
  }
  std::vector<double> speeds;
  for (PlanShape::Domain& d : shape->domains) {
    d.speed /= d.count;
    speeds.push_back(d.speed);
    shape->domain_of_lane.insert(shape->domain_of_lane.end(), d.count,
                                 static_cast<std::uint32_t>(speeds.size() - 1));
  }
  std::sort(speeds.begin(), speeds.end(), std::greater<>());
  speeds.erase(std::unique(speeds.begin(), speeds.end()), speeds.end());
  for (const PlanShape::Domain& d : shape->domains) {
    shape->speed_rank.push_back(static_cast<std::uint32_t>(
        std::find(speeds.begin(), speeds.end(), d.speed) - speeds.begin()));
    shape->most_lanes = std::max(shape->most_lanes, d.count);
    if (shape->speed_rank.back() == 0) {
      shape->most_fastest_lanes = std::max(shape->most_fastest_lanes, d.count);
    }
  }
  return shape;
}

namespace {

using DomainRange = PlanShape::Domain;

// The occupancy grid and the fleet's shape; one per list schedule.
class Grid {
 public:
  explicit Grid(const PlanProblem& problem)
      : steps_(problem.steps),
        lanes_(static_cast<std::uint32_t>(problem.lanes.size())),
        words_((problem.lanes.size() + 63) / 64),
        shape_(problem.shape ? problem.shape : MakePlanShape(problem.lanes)),
        taken_(problem.pinned.empty()
                   ? std::vector<std::uint64_t>(static_cast<std::size_t>(problem.steps) * words_, 0)
                   : problem.pinned) {
    FLEETSIM_CHECK(taken_.size() == static_cast<std::size_t>(steps_) * words_,
                   "a plan problem's pinned lanes must hold one bitset per step");
    free_count_.assign(static_cast<std::size_t>(steps_), kNotCounted);
    for (const PlanBusy& b : problem.busy) {
      Take({&b.lane, 1}, b.first_step, b.end_step);
    }
  }

  std::int64_t steps() const { return steps_; }
  std::uint32_t lanes() const { return lanes_; }
  std::size_t words() const { return words_; }
  const std::vector<DomainRange>& domains() const { return shape_->domains; }
  const PlanShape& shape() const { return *shape_; }
  // The domain holding `lane`.
  const DomainRange& DomainOf(std::uint32_t lane) const {
    const auto after =
        std::upper_bound(domains().begin(), domains().end(), lane,
                         [](std::uint32_t l, const DomainRange& d) { return l < d.first; });
    return *(after - 1);
  }

  // Whether every lane is taken at `step`.
  bool NoneFree(std::int64_t step) const { return FreeCount(step) == 0; }
  // How many lanes are free at `step` (counted at the first question, then kept up to date).
  std::int64_t FreeCount(std::int64_t step) const {
    std::int64_t& count = free_count_[static_cast<std::size_t>(step)];
    if (count == kNotCounted) {
      count = 0;
      for (std::size_t w = 0; w < words_; ++w) {
        count += std::popcount(shape_->all[w] & ~taken_[Index(step) + w]);
      }
    }
    return count;
  }
  // Whether the same lanes are taken at every step as on `other` (a grid of the same problem).
  bool SameOccupancy(const Grid& other) const { return taken_ == other.taken_; }
  bool Free(std::uint32_t lane, std::int64_t step) const {
    return ((taken_[Index(step) + lane / 64] >> (lane % 64)) & 1U) == 0;
  }
  // Marks every lane of `lanes` taken at steps [first, end) (clipped to the horizon), a word of
  // the bitset at a time.
  void Take(std::span<const std::uint32_t> lanes, std::int64_t first, std::int64_t end) {
    const std::int64_t from = std::max<std::int64_t>(first, 0);
    const std::int64_t to = std::min(end, steps_);
    for (std::size_t i = 0; i < lanes.size() && from < to;) {
      const std::size_t w = lanes[i] / 64;
      std::uint64_t bits = 0;  // the lanes of a run of `lanes` in word w
      for (; i < lanes.size() && lanes[i] / 64 == w; ++i) {
        bits |= std::uint64_t{1} << (lanes[i] % 64);
      }
      for (std::int64_t t = from; t < to; ++t) {
        std::uint64_t& word = taken_[Index(t) + w];
        std::int64_t& count = free_count_[static_cast<std::size_t>(t)];
        count -= count != kNotCounted ? std::popcount(bits & ~word) : 0;
        word |= bits;
      }
    }
  }
  void Give(std::uint32_t lane, std::int64_t first, std::int64_t end) {
    const std::uint64_t bit = std::uint64_t{1} << (lane % 64);
    for (std::int64_t t = std::max<std::int64_t>(first, 0); t < std::min(end, steps_); ++t) {
      std::uint64_t& word = taken_[Index(t) + lane / 64];
      std::int64_t& count = free_count_[static_cast<std::size_t>(t)];
      count += count != kNotCounted && (word & bit) != 0 ? 1 : 0;
      word &= ~bit;
    }
  }
  // Lanes of `allowed` (empty: all) free at every step of [first, end) (clipped to the horizon).
  void FreeOver(std::int64_t first, std::int64_t end, const LaneMask& allowed,
                LaneMask& out) const {
    const LaneMask& base = allowed.empty() ? shape_->all : allowed;
    out.resize(words_);
    std::copy(base.begin(), base.end(), out.begin());
    for (std::int64_t t = first; t < std::min(end, steps_); ++t) {
      for (std::size_t w = 0; w < words_; ++w) {
        out[w] &= ~taken_[Index(t) + w];
      }
    }
  }

 private:
  std::size_t Index(std::int64_t step) const { return static_cast<std::size_t>(step) * words_; }

  std::int64_t steps_;
  std::uint32_t lanes_;
  std::size_t words_;
  std::shared_ptr<const PlanShape> shape_;
  std::vector<std::uint64_t> taken_;  // [step][word]
  static constexpr std::int64_t kNotCounted = -1;
  mutable std::vector<std::int64_t> free_count_;  // by step: lanes not taken, or kNotCounted
};

bool AllFree(const LaneMask& free, std::uint32_t first, std::uint32_t count) {
  return CountRange(free, first, count) == count;
}

// The largest free aligned power-of-two block of the domain that contains lanes
// [first, first + size): the block's size (>= size). Lanes in small free blocks are taken first
// so that large aligned free blocks stay whole for the jobs that need them.
std::uint32_t EnclosingFreeBlock(const DomainRange& d, const LaneMask& free, std::uint32_t first,
                                 std::uint32_t size) {
  std::uint32_t best = size;
  for (std::uint32_t m = size * 2; m <= d.count; m *= 2) {
    const std::uint32_t start = d.first + (first - d.first) / m * m;
    if (start + m > d.first + d.count || !AllFree(free, start, m)) {
      break;
    }
    best = m;
  }
  return best;
}

std::uint32_t FreeIn(const DomainRange& d, const LaneMask& free) {
  const std::uint32_t bit = d.first % 64;
  if (bit + d.count <= 64) {  // the common case: the domain lies in one word
    const std::uint64_t lanes =
        d.count == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << d.count) - 1) << bit;
    return static_cast<std::uint32_t>(std::popcount(free[d.first / 64] & lanes));
  }
  return static_cast<std::uint32_t>(CountRange(free, d.first, d.count));
}

// Calls fn(domain, free lanes) for every domain with a free lane in `free`, in domain order, until
// fn returns false. It visits only the words of `free` that hold a free lane, so a nearly full
// fleet costs little.
template <class Fn>
void ForEachDomainWithFree(const Grid& grid, const LaneMask& free, Fn&& fn) {
  const PlanShape& shape = grid.shape();
  std::uint32_t lane = 0;
  while (lane < grid.lanes()) {
    std::size_t w = lane / 64;
    std::uint64_t bits = free[w] & (~std::uint64_t{0} << (lane % 64));
    while (bits == 0) {
      if (++w >= free.size()) {
        return;
      }
      bits = free[w];
    }
    const auto first_free =
        static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
    const std::uint32_t d = shape.domain_of_lane[first_free];
    const DomainRange& range = shape.domains[d];
    if (!fn(d, FreeIn(range, free))) {
      return;
    }
    lane = range.first + range.count;
  }
}

// A domain's place in the order of preference, as one integer (smaller: preferred): faster
// first, then the tightest fit (fewest free lanes), then the lowest number.
std::uint64_t PreferenceKey(const Grid& grid, std::uint32_t domain, std::uint32_t free_lanes) {
  return (std::uint64_t{grid.shape().speed_rank[domain]} << 48) |
         (std::uint64_t{free_lanes} << 24) | domain;
}

// The domains with at least `at_least` (and at least one) free lanes, as (domain, free lanes), in
// preference order, into `found` (cleared first).
void DomainsByPreference(const Grid& grid, const LaneMask& free, std::uint32_t at_least,
                         std::vector<std::pair<std::uint32_t, std::uint32_t>>& found) {
  thread_local std::vector<std::uint64_t> keys;
  keys.clear();
  ForEachDomainWithFree(grid, free, [&](std::uint32_t d, std::uint32_t n) {
    if (n >= at_least) {
      keys.push_back(PreferenceKey(grid, d, n));
    }
    return true;
  });
  std::sort(keys.begin(), keys.end());
  found.clear();
  for (const std::uint64_t key : keys) {
    found.emplace_back(static_cast<std::uint32_t>(key & 0xFFFFFF),
                       static_cast<std::uint32_t>((key >> 24) & 0xFFFFFF));
  }
}

// A domain and its free lanes in a mask.
struct DomainFree {
  std::uint32_t domain;
  std::uint32_t free_lanes;
};

// The preferred domain with at least `at_least` free lanes, if any (DomainsByPreference's first).
// When there is none, `domains` holds every domain with a free lane, in domain order.
std::optional<std::uint32_t> BestDomain(const Grid& grid, const LaneMask& free,
                                        std::uint32_t at_least, std::vector<DomainFree>& domains) {
  std::optional<std::uint64_t> best;
  domains.clear();
  ForEachDomainWithFree(grid, free, [&](std::uint32_t d, std::uint32_t n) {
    domains.push_back({d, n});
    if (n >= at_least && (!best || PreferenceKey(grid, d, n) < *best)) {
      best = PreferenceKey(grid, d, n);
    }
    // A domain of the fastest kind that fits exactly comes before every later one.
    return !(grid.shape().speed_rank[d] == 0 && n == std::max<std::uint32_t>(at_least, 1));
  });
  return best ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*best & 0xFFFFFF))
              : std::nullopt;
}

// Scratch space of the functions below, kept per thread so that a plan allocates little (these
// run for every job at every start step). None of them is re-entered while its buffer is in use.
thread_local std::vector<std::pair<std::uint32_t, std::uint32_t>> domains_scratch;
thread_local std::vector<std::pair<std::uint32_t, std::uint32_t>> lanes_scratch;
thread_local LaneMask free_scratch;
thread_local LaneMask blocks_scratch;  // LargestBlockLeft's
thread_local std::vector<DomainFree> domain_free_scratch;

std::optional<std::vector<std::uint32_t>> ChooseBlock(const Grid& grid, const LaneMask& free,
                                                      std::uint32_t size) {
  std::optional<std::vector<std::uint32_t>> best;
  std::uint32_t best_enclosing = 0;
  double best_speed = 0;
  DomainsByPreference(grid, free, size, domains_scratch);
  for (const auto& [domain, free_lanes] : domains_scratch) {
    const DomainRange& d = grid.domains()[domain];
    if (best && d.speed < best_speed) {
      break;  // never trade speed for shape
    }
    for (std::uint32_t offset = 0; offset + size <= d.count; offset += size) {
      if (!AllFree(free, d.first + offset, size)) {
        continue;
      }
      const std::uint32_t enclosing = EnclosingFreeBlock(d, free, d.first + offset, size);
      if (!best || enclosing < best_enclosing) {
        best = std::vector<std::uint32_t>(size);
        std::iota(best->begin(), best->end(), d.first + offset);
        best_enclosing = enclosing;
        best_speed = d.speed;
      }
    }
    if (best && best_enclosing == size) {
      break;  // a block that splits nothing larger: the best there is
    }
  }
  return best;
}

// For the free lanes `x` of a domain of `count` lanes that lies in one word (bit i: its i-th
// lane), the aligned blocks of `m` lanes that are all free, as a bit at each block's first lane.
std::uint64_t FreeBlockStarts(std::uint64_t x, std::uint32_t m, std::uint32_t count) {
  std::uint64_t full = x;  // bit i: lanes [i, i + m) all free
  for (std::uint32_t s = 1; s < m; s <<= 1) {
    full &= full >> s;
  }
  std::uint64_t starts = 0;  // aligned block starts that fit in the domain
  for (std::uint32_t i = 0; i + m <= count; i += m) {
    starts |= std::uint64_t{1} << i;
  }
  return full & starts;
}

// LeastFragmenting for a domain that lies in one word, on bits: level k holds the lanes whose
// enclosing free aligned block (EnclosingFreeBlock) has at least 2^k lanes; the lanes whose block
// has exactly 2^k are taken before those of 2^(k+1), lowest lane first, as the general case
// orders them. When every free lane is taken they come in lane order (ChooseLanes sorts the
// lanes it returns, so the order matters only for which lanes are taken).
void LeastFragmentingInWord(const DomainRange& d, const LaneMask& free, std::uint32_t n,
                            std::vector<std::uint32_t>& lanes) {
  const std::uint32_t shift = d.first % 64;
  const std::uint64_t in_domain =
      d.count == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << d.count) - 1;
  const std::uint64_t x = (free[d.first / 64] >> shift) & in_domain;
  if (std::popcount(x) <= static_cast<int>(n)) {  // every free lane: the order does not matter
    for (std::uint64_t bits = x; bits != 0; bits &= bits - 1) {
      lanes.push_back(d.first + static_cast<std::uint32_t>(std::countr_zero(bits)));
    }
    return;
  }
  std::array<std::uint64_t, 8> level{};  // level[k]: lanes in a free aligned block of 2^k
  level[0] = x;
  std::size_t levels = 1;
  for (std::uint32_t m = 2; m <= d.count && level[levels - 1] != 0; m *= 2) {
    std::uint64_t spread = FreeBlockStarts(x, m, d.count);
    for (std::uint32_t s = 1; s < m; s <<= 1) {
      spread |= spread << s;
    }
    level[levels++] = spread;
  }
  std::uint32_t taken = 0;
  for (std::size_t k = 0; k < levels && taken < n; ++k) {
    for (std::uint64_t bits = level[k] & ~(k + 1 < levels ? level[k + 1] : 0);
         bits != 0 && taken < n; bits &= bits - 1, ++taken) {
      lanes.push_back(d.first + static_cast<std::uint32_t>(std::countr_zero(bits)));
    }
  }
}

// Appends `n` free lanes of one domain to `lanes` (all of them if it has no more), those in the
// smallest free aligned blocks first.
void LeastFragmenting(const DomainRange& d, const LaneMask& free, std::uint32_t n,
                      std::vector<std::uint32_t>& lanes) {
  if (d.first % 64 + d.count <= 64) {
    LeastFragmentingInWord(d, free, n, lanes);
    return;
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>>& scored = lanes_scratch;  // (block, lane)
  scored.clear();
  for (std::uint32_t lane = d.first; lane < d.first + d.count; ++lane) {
    if (TestBit(free, lane)) {
      scored.emplace_back(EnclosingFreeBlock(d, free, lane, 1), lane);
    }
  }
  const auto take = static_cast<std::ptrdiff_t>(std::min<std::size_t>(n, scored.size()));
  std::partial_sort(scored.begin(), scored.begin() + take, scored.end());
  for (std::ptrdiff_t i = 0; i < take; ++i) {
    lanes.push_back(scored[static_cast<std::size_t>(i)].second);
  }
}

// `n` lanes over several domains (no one domain has them) of `domains` (every domain with a free
// lane, in domain order; a domain taken is marked with no free lanes), faster domains first, in as
// few domains as possible and leaving as many domains whole as possible: while no domain can hold
// the rest, it takes the domain with the most free lanes; the rest comes from the domain that fits
// it most tightly. On equal speed and free lanes, the lowest-numbered.
void SpreadLanes(const Grid& grid, const LaneMask& free, std::uint32_t n,
                 std::vector<DomainFree>& domains, std::vector<std::uint32_t>& lanes) {
  const PlanShape& shape = grid.shape();
  const auto rank = [&](const DomainFree* d) { return shape.speed_rank[d->domain]; };
  while (lanes.size() < n) {
    const auto left = n - static_cast<std::uint32_t>(lanes.size());
    // A fastest domain that fits the rest exactly, or holds the most any fastest domain can when
    // none can fit the rest, is the answer: the scan stops there.
    const bool none_fits = left > shape.most_lanes;
    DomainFree* tightest = nullptr;
    DomainFree* most = nullptr;
    for (DomainFree& c : domains) {
      if (c.free_lanes == 0) {
        continue;  // taken
      }
      if (c.free_lanes >= left &&
          (tightest == nullptr || rank(&c) < rank(tightest) ||
           (rank(&c) == rank(tightest) && c.free_lanes < tightest->free_lanes))) {
        tightest = &c;
      }
      if (most == nullptr || rank(&c) < rank(most) ||
          (rank(&c) == rank(most) && c.free_lanes > most->free_lanes)) {
        most = &c;
      }
      if ((tightest != nullptr && rank(tightest) == 0 && tightest->free_lanes == left) ||
          (none_fits && rank(most) == 0 && most->free_lanes == shape.most_fastest_lanes)) {
        break;
      }
    }
    DomainFree* pick = tightest != nullptr ? tightest : most;
    if (pick == nullptr) {
      return;
    }
    LeastFragmenting(shape.domains[pick->domain], free, left, lanes);
    pick->free_lanes = 0;
  }
}

std::optional<std::vector<std::uint32_t>> ChooseLanes(const Grid& grid, const PlanBatchJob& job,
                                                      const LaneMask& free, std::int64_t count) {
  const auto n = static_cast<std::uint32_t>(count);
  if (job.block) {
    return ChooseBlock(grid, free, n);
  }
  std::vector<std::uint32_t> lanes;
  lanes.reserve(n);
  std::vector<DomainFree>& domains = domain_free_scratch;
  if (const std::optional<std::uint32_t> best = BestDomain(grid, free, n, domains)) {
    LeastFragmenting(grid.domains()[*best], free, n, lanes);
  } else if (!job.one_domain) {
    SpreadLanes(grid, free, n, domains, lanes);
  }
  if (lanes.size() != n) {
    return std::nullopt;
  }
  std::sort(lanes.begin(), lanes.end());
  return lanes;
}

// Whether size n is one a job may take: a power of two for blocks; any size otherwise.
bool SizeAllowed(const PlanBatchJob& job, std::int64_t n) {
  return !job.block || std::has_single_bit(static_cast<std::uint64_t>(n));
}

std::int64_t LargestDomainFree(const Grid& grid, const LaneMask& free) {
  std::int64_t most = 0;
  ForEachDomainWithFree(grid, free, [&](std::uint32_t, std::uint32_t n) {
    most = std::max<std::int64_t>(most, n);
    return true;
  });
  return most;
}

// The last of the steps `job` would run if it started at `start` (within the horizon) at which
// fewer lanes are free than its minimum, if any.
std::optional<std::int64_t> LastTooFull(const Grid& grid, const PlanBatchJob& job,
                                        std::int64_t start) {
  for (std::int64_t t = std::min(start + job.steps, grid.steps()) - 1; t >= start; --t) {
    if (grid.FreeCount(t) < job.min_gpus) {
      return t;
    }
  }
  return std::nullopt;
}

// FitAt (below) for a start at whose steps at least the job's minimum of lanes is free.
std::optional<std::vector<std::uint32_t>> FitAtUnblocked(const Grid& grid, const PlanBatchJob& job,
                                                         std::int64_t start, bool smallest_first) {
  LaneMask& free = free_scratch;
  grid.FreeOver(start, start + job.steps, job.allowed, free);
  std::int64_t most = Count(free);
  if (most >= job.min_gpus && (job.block || job.one_domain)) {
    most = LargestDomainFree(grid, free);
  }
  if (most < job.min_gpus) {
    return std::nullopt;
  }
  const std::int64_t largest = std::min(job.max_gpus, most);
  const std::int64_t first = smallest_first ? job.min_gpus : largest;
  const std::int64_t last = smallest_first ? largest : job.min_gpus;
  const std::int64_t delta = smallest_first ? 1 : -1;
  for (std::int64_t n = first; smallest_first ? n <= last : n >= last; n += delta) {
    if (!SizeAllowed(job, n)) {
      continue;
    }
    if (std::optional<std::vector<std::uint32_t>> lanes = ChooseLanes(grid, job, free, n)) {
      return lanes;
    }
  }
  return std::nullopt;
}

// The lanes `job` takes if it starts at `start` on `grid`, at the first size that fits in the
// order of preference (the largest that fits, or the smallest when asked), or nothing.
std::optional<std::vector<std::uint32_t>> FitAt(const Grid& grid, const PlanBatchJob& job,
                                                std::int64_t start, bool smallest_first) {
  if (LastTooFull(grid, job, start)) {
    return std::nullopt;  // too few lanes free at one of its steps, whatever it accepts
  }
  return FitAtUnblocked(grid, job, start, smallest_first);
}

void TakeBatch(Grid& grid, const PlanBatchJob& job, const BatchPlacement& placed) {
  grid.Take(placed.lanes, placed.start_step, placed.start_step + job.steps);
}

// `job` at the earliest step it fits, taken on the grid. A start whose steps include one with
// too few free lanes is skipped with every start up to that step.
BatchPlacement PlaceBatch(Grid& grid, const PlanBatchJob& job, bool smallest_first) {
  for (std::int64_t start = 0; start < grid.steps();) {
    if (const std::optional<std::int64_t> full = LastTooFull(grid, job, start)) {
      start = *full + 1;
      continue;
    }
    if (std::optional<std::vector<std::uint32_t>> lanes =
            FitAtUnblocked(grid, job, start, smallest_first)) {
      BatchPlacement placed{start, std::move(*lanes)};
      TakeBatch(grid, job, placed);
      return placed;
    }
    ++start;
  }
  return {};
}

// ---- Real-time jobs. ----

// Lanes the job may use at each step: free now in the grid (its own reserved lanes included).
std::vector<std::int64_t> Available(const Grid& grid, const PlanRealtimeJob& job) {
  std::vector<std::int64_t> available(static_cast<std::size_t>(grid.steps()), 0);
  for (std::int64_t t = 0; t < grid.steps(); ++t) {
    LaneMask free;
    grid.FreeOver(t, t + 1, job.allowed, free);
    available[static_cast<std::size_t>(t)] = Count(free);
  }
  return available;
}

// `value` moved into [low, high]; `high` wins if the bounds cross.
std::int64_t Within(std::int64_t value, std::int64_t low, std::int64_t high) {
  return std::min(std::max(value, low), high);
}

// The count path: demand met where the cap and the lanes allow, ramping ahead of rising demand.
// `upper[t]` (backwards: the lanes free at t, and no more than the cap above upper[t + 1]) keeps
// every later step reachable; the forward pass stays within the cap of the previous step.
std::vector<std::int64_t> CountPath(const PlanRealtimeJob& job, std::int64_t steps,
                                    const std::vector<std::int64_t>& available,
                                    std::int64_t& first_step) {
  const std::int64_t cap = job.swap_cap > 0 ? job.swap_cap : kNoCap;
  const auto end = std::min(job.end_step, steps);
  std::vector<std::int64_t> want(static_cast<std::size_t>(steps), 0);
  std::vector<std::int64_t> upper(static_cast<std::size_t>(steps), 0);
  for (std::int64_t t = end - 1; t >= 0; --t) {
    const auto i = static_cast<std::size_t>(t);
    const std::int64_t next_want = t + 1 < end ? want[i + 1] : 0;
    const std::int64_t next_upper = t + 1 < end ? upper[i + 1] : kNoCap;
    want[i] = std::clamp(std::max(job.demand[i], next_want - cap), job.min_gpus, job.max_gpus);
    upper[i] = std::min({job.max_gpus, available[i], next_upper + cap});
  }
  std::vector<std::int64_t> counts(static_cast<std::size_t>(steps), 0);
  first_step = kNotPlanned;
  const bool running = !job.lanes.empty();
  for (std::int64_t t = 0; t < end; ++t) {
    const auto i = static_cast<std::size_t>(t);
    if (first_step == kNotPlanned) {
      // A queued job starts at the first step from which it can hold its minimum to the end.
      const bool fits_to_end = std::all_of(upper.begin() + t, upper.begin() + end,
                                           [&](std::int64_t u) { return u >= job.min_gpus; });
      if (!running && !fits_to_end) {
        continue;
      }
      first_step = t;
      const auto held = static_cast<std::int64_t>(job.lanes.size());
      if (running && !job.can_resize_now) {
        counts[i] = held;
      } else if (running) {
        counts[i] =
            Within(want[i], std::max(job.min_gpus, held - cap), std::min(upper[i], held + cap));
      } else {
        counts[i] = std::min(want[i], upper[i]);
      }
      continue;
    }
    const std::int64_t previous = counts[i - 1];
    counts[i] =
        Within(want[i], std::max(job.min_gpus, previous - cap), std::min(upper[i], previous + cap));
  }
  return counts;
}

// For each step and lane (index step x lanes + lane), how many steps from there it stays free.
std::vector<std::int32_t> FreeRuns(const Grid& grid) {
  const std::size_t lanes = grid.lanes();
  std::vector<std::int32_t> run((static_cast<std::size_t>(grid.steps()) + 1) * lanes, 0);
  for (std::int64_t t = grid.steps() - 1; t >= 0; --t) {
    const auto row = static_cast<std::size_t>(t) * lanes;
    for (std::uint32_t lane = 0; lane < lanes; ++lane) {
      run[row + lane] = grid.Free(lane, t) ? run[row + lanes + lane] + 1 : 0;
    }
  }
  return run;
}

// A lane a service may take at a step, ranked: how many steps from there it stays free (more
// first; `rank` may add a bonus), then the size of the free aligned block it lies in (smaller
// first: packing a service into domains and blocks already in use keeps whole domains and large
// blocks free for the jobs that need them), then the lowest.
struct RealtimeCandidate {
  std::int64_t rank;
  std::uint32_t enclosing;
  std::uint32_t lane;
  bool operator<(const RealtimeCandidate& o) const {
    return rank != o.rank ? rank > o.rank
                          : (enclosing != o.enclosing ? enclosing < o.enclosing : lane < o.lane);
  }
};

// Adds to `lanes` the best `count` - lanes.size() lanes of `free` at step t (those already in
// `lanes` must not be in `free`), ranked as RealtimeCandidate says (lanes of `bonus` first), and
// sorts them all.
void AddRankedLanes(const Grid& grid, const LaneMask& free, const LaneMask* bonus,
                    const std::vector<std::int32_t>& free_run, std::int64_t t, std::int64_t count,
                    std::vector<std::uint32_t>& lanes) {
  if (static_cast<std::int64_t>(lanes.size()) >= count) {
    std::sort(lanes.begin(), lanes.end());
    return;
  }
  std::vector<RealtimeCandidate> candidates;
  for (std::size_t w = 0; w < free.size(); ++w) {
    for (std::uint64_t bits = free[w]; bits != 0; bits &= bits - 1) {
      const auto lane =
          static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
      const std::int64_t run = free_run[static_cast<std::size_t>(t) * grid.lanes() + lane];
      candidates.push_back({run + (bonus != nullptr && TestBit(*bonus, lane) ? grid.steps() : 0),
                            EnclosingFreeBlock(grid.DomainOf(lane), free, lane, 1), lane});
    }
  }
  const auto needed = static_cast<std::size_t>(count) - lanes.size();
  const auto last =
      candidates.begin() + static_cast<std::ptrdiff_t>(std::min(needed, candidates.size()));
  std::partial_sort(candidates.begin(), last, candidates.end());
  for (auto it = candidates.begin(); it != last; ++it) {
    lanes.push_back(it->lane);
  }
  std::sort(lanes.begin(), lanes.end());
}

// The largest free aligned block of domain d in `free` (0: none free). Aligned blocks nest, so
// the first size with no free block ends the search.
std::uint32_t LargestFreeBlock(const DomainRange& d, const LaneMask& free) {
  if (d.first % 64 + d.count > 64) {  // the rare domain over two words: lane by lane
    std::uint32_t largest = 0;
    for (std::uint32_t lane = d.first; lane < d.first + d.count;) {
      if (!TestBit(free, lane)) {
        ++lane;
        continue;
      }
      const std::uint32_t size = EnclosingFreeBlock(d, free, lane, 1);
      largest = std::max(largest, size);
      lane += size;  // the block starts at `lane`: a lane of an earlier block would have passed it
    }
    return largest;
  }
  const std::uint64_t in_domain =
      d.count == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << d.count) - 1;
  const std::uint64_t x = (free[d.first / 64] >> (d.first % 64)) & in_domain;
  if (x == 0) {
    return 0;
  }
  std::uint32_t largest = 1;
  for (std::uint32_t m = 2; m <= d.count; m *= 2) {
    if (FreeBlockStarts(x, m, d.count) == 0) {
      break;
    }
    largest = m;
  }
  return largest;
}

// The largest free aligned block in `free` less `taken`: the room left for the widest job.
std::uint32_t LargestBlockLeft(const Grid& grid, const LaneMask& free,
                               const std::vector<std::uint32_t>& taken) {
  LaneMask& left = blocks_scratch;
  left.assign(free.begin(), free.end());
  for (const std::uint32_t lane : taken) {
    left[lane / 64] &= ~(std::uint64_t{1} << (lane % 64));
  }
  std::uint32_t largest = 0;
  ForEachDomainWithFree(grid, left, [&](std::uint32_t d, std::uint32_t) {
    largest = std::max(largest, LargestFreeBlock(grid.domains()[d], left));
    return true;
  });
  return largest;
}

// Lanes for `count` at step t, of `free` (the lanes the job accepts free at t). Kept: the lanes
// held at t - 1 that are still free first, then free lanes of the job's reserved set, then the
// other free lanes as RealtimeCandidate ranks them. Packed: the best `count` free lanes as ranked,
// wherever the service held. The packed lanes are taken only when the job may move and they leave
// a larger free aligned block among the lanes it accepts than the kept ones: a service that grew
// into a second block while the first was full, or shrank out of the wrong one, moves back once
// that makes room for a wider job, and otherwise stays where it is.
std::vector<std::uint32_t> RealtimeLanes(const Grid& grid, const PlanRealtimeJob& job,
                                         const LaneMask& free, const LaneMask& reserved,
                                         const std::vector<std::int32_t>& free_run,
                                         const std::vector<std::uint32_t>& previous, std::int64_t t,
                                         std::int64_t count) {
  std::vector<std::uint32_t> kept;
  LaneMask rest = free;
  for (const std::uint32_t lane : previous) {
    if (TestBit(rest, lane) && static_cast<std::int64_t>(kept.size()) < count) {
      kept.push_back(lane);
      rest[lane / 64] &= ~(std::uint64_t{1} << (lane % 64));
    }
  }
  AddRankedLanes(grid, rest, &reserved, free_run, t, count, kept);
  if (!job.can_move) {
    return kept;
  }
  const std::uint32_t kept_leaves = LargestBlockLeft(grid, free, kept);
  if (kept_leaves == LargestBlockLeft(grid, free, {})) {
    return kept;  // the largest block there is stays whole: no move can do better
  }
  std::vector<std::uint32_t> packed;
  AddRankedLanes(grid, free, nullptr, free_run, t, count, packed);
  return LargestBlockLeft(grid, free, packed) > kept_leaves ? packed : kept;
}

std::vector<std::vector<std::uint32_t>> PlaceRealtime(Grid& grid, const PlanRealtimeJob& job) {
  const std::int64_t end = std::min(job.end_step, grid.steps());
  for (const std::uint32_t lane : job.lanes) {
    grid.Give(lane, 0, end);  // its own reservation
  }
  std::int64_t first = kNotPlanned;
  const std::vector<std::int64_t> counts =
      CountPath(job, grid.steps(), Available(grid, job), first);
  std::vector<std::vector<std::uint32_t>> lanes(static_cast<std::size_t>(grid.steps()));
  if (first == kNotPlanned) {
    return lanes;
  }
  LaneMask reserved(grid.words(), 0);
  for (const std::uint32_t lane : job.lanes) {
    SetBit(reserved, lane);
  }
  const std::vector<std::int32_t> free_run = FreeRuns(grid);
  std::vector<std::uint32_t> previous = job.lanes;
  // RealtimeLanes gives the same answer at a step whose free lanes and count are the previous
  // step's (the ranks of free lanes keep their order from one step to the next): it is skipped.
  LaneMask free;
  LaneMask free_before;
  bool chosen_before = false;  // whether the previous step's lanes were computed or reused
  for (std::int64_t t = first; t < end; ++t) {
    const auto i = static_cast<std::size_t>(t);
    if (t == 0 && !job.lanes.empty() && !job.can_resize_now) {
      lanes[i] = job.lanes;
    } else {
      grid.FreeOver(t, t + 1, job.allowed, free);
      const bool same = chosen_before && counts[i] == counts[i - 1] && free == free_before;
      lanes[i] = same ? previous
                      : RealtimeLanes(grid, job, free, reserved, free_run, previous, t, counts[i]);
      std::swap(free, free_before);
      chosen_before = true;
    }
    grid.Take(lanes[i], t, t + 1);
    previous = lanes[i];
  }
  return lanes;
}

// A batch job's rank in the default order: priority x rank_factor.
double Rank(const PlanBatchJob& job) { return job.priority * job.rank_factor; }

// decay^t for every step of the horizon.
std::vector<double> Weights(const PlanProblem& problem) {
  std::vector<double> weights(static_cast<std::size_t>(problem.steps), 1);
  for (std::size_t t = 1; t < weights.size(); ++t) {
    weights[t] = weights[t - 1] * problem.decay;
  }
  return weights;
}

// Whether reserved job `reserved` holds against `job`: `job` is unreserved, of the same or a
// lower priority, and at most reserved_against_gpus wide.
bool HoldsAgainst(const PlanBatchJob& reserved, const PlanBatchJob& job) {
  return !job.reserved && job.priority <= reserved.priority &&
         job.min_gpus <= reserved.reserved_against_gpus;
}

// Moves each reserved batch job ahead of every unreserved batch job it holds against (of its
// priority or lower, at most reserved_against_gpus wide), as the reservation promises (priority x
// rank_factor can rank a wider job of a lower priority first). The jobs it passes that it does
// not hold against move ahead with it, in their order, so none comes after it that did not.
void ReservedBeforeTheirEquals(const PlanProblem& problem, std::vector<std::uint32_t>& order) {
  const auto realtime = static_cast<std::uint32_t>(problem.realtime.size());
  const auto batch = [&](std::uint32_t item) -> const PlanBatchJob& {
    return problem.batch[item - realtime];
  };
  for (auto it = order.begin(); it != order.end(); ++it) {
    if (*it < realtime || !batch(*it).reserved) {
      continue;
    }
    const PlanBatchJob& reserved = batch(*it);
    const auto passed = [&](std::uint32_t item) {
      return item >= realtime && HoldsAgainst(reserved, batch(item));
    };
    const auto first = std::find_if(order.begin(), it, passed);
    const auto higher =
        std::stable_partition(first, it, [&](std::uint32_t item) { return !passed(item); });
    std::rotate(higher, it, it + 1);
  }
}

// A batch job's size for the default order: (GPUs, steps).
std::pair<std::int64_t, std::int64_t> PackingSize(const PlanBatchJob& job) {
  return {job.min_gpus, job.steps};
}

// Within each run of `order` of items `equal` says tie, the batch jobs with an estimate
// re-ordered among their own places, widest first, then longest first (the classic decreasing
// order of packing: the large pieces placed while there is room, the small ones fill the gaps);
// jobs without one keep their places (their size is a guess, and a guess moved ahead of older
// work costs more than it saves: docs/policies.md).
template <class Equal>
void LargestFirstAmongEquals(const PlanProblem& problem, std::vector<std::uint32_t>& order,
                             Equal&& equal) {
  const auto realtime = static_cast<std::uint32_t>(problem.realtime.size());
  std::vector<std::size_t> places;
  std::vector<std::uint32_t> items;
  for (std::size_t begin = 0; begin < order.size();) {
    std::size_t end = begin + 1;
    while (end < order.size() && equal(order[begin], order[end])) {
      ++end;
    }
    places.clear();
    items.clear();
    for (std::size_t i = begin; i < end; ++i) {
      if (order[i] >= realtime && problem.batch[order[i] - realtime].estimated) {
        places.push_back(i);
        items.push_back(order[i]);
      }
    }
    std::stable_sort(items.begin(), items.end(), [&](std::uint32_t a, std::uint32_t b) {
      return PackingSize(problem.batch[a - realtime]) > PackingSize(problem.batch[b - realtime]);
    });
    for (std::size_t k = 0; k < places.size(); ++k) {
      order[places[k]] = items[k];
    }
    begin = end;
  }
}

}  // namespace

PlanChoices DefaultChoices(const PlanProblem& problem) {
  const auto realtime = static_cast<std::uint32_t>(problem.realtime.size());
  PlanChoices choices;
  choices.order.resize(realtime + problem.batch.size());
  std::iota(choices.order.begin(), choices.order.end(), 0U);
  const auto key = [&](std::uint32_t item) {
    return item < realtime ? problem.realtime[item].priority * problem.realtime_penalty
                           : Rank(problem.batch[item - realtime]);
  };
  const auto reserved = [&](std::uint32_t item) {
    return item >= realtime && problem.batch[item - realtime].reserved;
  };
  // Services first, then by key, the reserved job first among its equals; then each reserved
  // job ahead of the jobs it holds against.
  const auto rank = [&](std::uint32_t item) {
    return std::tuple(item < realtime, key(item), reserved(item));
  };
  std::stable_sort(choices.order.begin(), choices.order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return rank(a) > rank(b); });
  LargestFirstAmongEquals(problem, choices.order,
                          [&](std::uint32_t a, std::uint32_t b) { return rank(a) == rank(b); });
  ReservedBeforeTheirEquals(problem, choices.order);
  choices.smallest_size.assign(problem.batch.size(), false);
  return choices;
}

namespace {

double BatchValue(const PlanProblem& problem, const std::vector<double>& weight,
                  const PlanBatchJob& job, const BatchPlacement& placed) {
  if (placed.start_step == kNotPlanned) {
    return 0;
  }
  double speed = 0;
  for (const std::uint32_t lane : placed.lanes) {
    speed += problem.lanes[lane].speed;
  }
  double steps = 0;
  for (std::int64_t t = placed.start_step;
       t < std::min(placed.start_step + job.steps, problem.steps); ++t) {
    steps += weight[static_cast<std::size_t>(t)];
  }
  return job.priority * speed * steps;
}

double RealtimeValue(const PlanProblem& problem, const std::vector<double>& weight,
                     const PlanRealtimeJob& job,
                     const std::vector<std::vector<std::uint32_t>>& lanes) {
  double unmet = 0;
  for (std::int64_t t = 0; t < std::min(job.end_step, problem.steps); ++t) {
    const auto i = static_cast<std::size_t>(t);
    const auto held = static_cast<std::int64_t>(lanes[i].size());
    unmet += weight[i] * static_cast<double>(std::max<std::int64_t>(0, job.demand[i] - held));
  }
  return -problem.realtime_penalty * job.priority * unmet;
}

// The list scheduler: places the items of an order one by one on a grid, into a plan.
class ListScheduler {
 public:
  explicit ListScheduler(const PlanProblem& problem)
      : problem_(problem), weight_(Weights(problem)), empty_(problem) {
    for (const PlanRealtimeJob& job : problem.realtime) {  // reserve running services' lanes
      empty_.Take(job.lanes, 0, job.end_step);
    }
  }

  const Grid& empty_grid() const { return empty_; }
  // The empty grid, for a caller that needs it once (empty_grid() is not usable after it).
  Grid TakeEmptyGrid() { return std::move(empty_); }

  // Places `item` on `grid`, writes its placement into `plan`; returns its objective term.
  double Place(Grid& grid, const PlanChoices& choices, std::uint32_t item, Plan& plan) const {
    const auto realtime = static_cast<std::uint32_t>(problem_.realtime.size());
    if (item < realtime) {
      plan.realtime[item] = PlaceRealtime(grid, problem_.realtime[item]);
      return RealtimeValue(problem_, weight_, problem_.realtime[item], plan.realtime[item]);
    }
    const std::uint32_t j = item - realtime;
    plan.batch[j] = PlaceBatch(grid, problem_.batch[j], choices.smallest_size[j]);
    return BatchValue(problem_, weight_, problem_.batch[j], plan.batch[j]);
  }

  Plan EmptyPlan() const {
    Plan plan;
    plan.batch.resize(problem_.batch.size());
    plan.realtime.assign(problem_.realtime.size(), std::vector<std::vector<std::uint32_t>>(
                                                       static_cast<std::size_t>(problem_.steps)));
    return plan;
  }

  const std::vector<double>& weights() const { return weight_; }

 private:
  const PlanProblem& problem_;
  std::vector<double> weight_;
  Grid empty_;
};

}  // namespace

Plan BuildPlan(const PlanProblem& problem, const PlanChoices& choices) {
  ListScheduler scheduler(problem);
  Grid grid = scheduler.TakeEmptyGrid();
  Plan plan = scheduler.EmptyPlan();
  for (const std::uint32_t item : choices.order) {
    scheduler.Place(grid, choices, item, plan);
  }
  plan.objective = PlanObjective(problem, plan);
  return plan;
}

Plan PlanFirstStep(const PlanProblem& problem, const PlanChoices& choices,
                   std::int64_t protected_jobs) {
  ListScheduler scheduler(problem);
  Grid grid = scheduler.TakeEmptyGrid();
  Plan plan = scheduler.EmptyPlan();
  const auto realtime = static_cast<std::uint32_t>(problem.realtime.size());
  const std::size_t items = choices.order.size();
  constexpr double kNoPriority = -std::numeric_limits<double>::infinity();
  std::size_t last_realtime = 0;  // one past the last real-time item of the order
  std::size_t last_reserved = 0;  // one past the last reserved batch job
  // Of the batch jobs at positions i and later: the smallest min_gpus, the highest priority, the
  // highest rank (priority x rank_factor).
  std::vector<std::int64_t> fewest_after(items + 1, std::numeric_limits<std::int64_t>::max());
  std::vector<double> highest_after(items + 1, kNoPriority);
  std::vector<double> highest_rank_after(items + 1, kNoPriority);
  for (std::size_t i = items; i > 0; --i) {
    const std::uint32_t item = choices.order[i - 1];
    const PlanBatchJob* job = item >= realtime ? &problem.batch[item - realtime] : nullptr;
    last_realtime = job == nullptr ? std::max(last_realtime, i) : last_realtime;
    last_reserved = job != nullptr && job->reserved ? std::max(last_reserved, i) : last_reserved;
    fewest_after[i - 1] = std::min(
        fewest_after[i], job != nullptr ? job->min_gpus : std::numeric_limits<std::int64_t>::max());
    highest_after[i - 1] = std::max(highest_after[i], job != nullptr ? job->priority : kNoPriority);
    highest_rank_after[i - 1] =
        std::max(highest_rank_after[i], job != nullptr ? Rank(*job) : kNoPriority);
  }
  std::int64_t planned_later = 0;  // batch jobs placed after step 0 (not reserved)
  // Of those not at step 0: the lowest priority, the lowest rank.
  double lowest_waiting = std::numeric_limits<double>::infinity();
  double lowest_waiting_rank = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < items; ++i) {
    if (i >= last_realtime) {
      const std::int64_t free_now = grid.FreeCount(0);
      // No later batch job can start at step 0; and either no backfill can start one either
      // (step 0 is full), or every planned start backfill reads is placed already: the
      // reserved job's, the first protected_jobs', those of a higher priority than a job
      // waiting and those ranked above one (no later job has either).
      if (free_now == 0 ||
          (free_now < fewest_after[i] && i >= last_reserved && planned_later >= protected_jobs &&
           highest_after[i] <= lowest_waiting && highest_rank_after[i] <= lowest_waiting_rank)) {
        break;
      }
    }
    const std::uint32_t item = choices.order[i];
    scheduler.Place(grid, choices, item, plan);
    if (item < realtime || plan.batch[item - realtime].start_step == 0) {
      continue;
    }
    const PlanBatchJob& job = problem.batch[item - realtime];
    lowest_waiting = std::min(lowest_waiting, job.priority);
    lowest_waiting_rank = std::min(lowest_waiting_rank, Rank(job));
    if (!job.reserved && plan.batch[item - realtime].start_step != kNotPlanned) {
      ++planned_later;
    }
  }
  return plan;
}

namespace {

// What backfill has started at step 0, and the objective of the plan around it: those jobs fixed
// on their lanes from step 0 over their estimated run, every other item placed again by the list
// scheduler under the same choices. It answers whether one more start is worth what it delays.
class BackfillValue {
 public:
  BackfillValue(const PlanProblem& problem, const PlanChoices& choices)
      : problem_(problem), choices_(choices), weight_(Weights(problem)) {}

  // Records a start that delays no planned start ranked above it.
  void Started(std::uint32_t job, const std::vector<std::uint32_t>& lanes) {
    started_.emplace_back(job, lanes);
    objective_.reset();
  }

  // Records the start, and returns true, if the plan around it has an objective at least that of
  // the plan without it; otherwise records nothing.
  bool StartIfWorth(std::uint32_t job, const std::vector<std::uint32_t>& lanes) {
    if (!objective_) {
      objective_ = Objective();
    }
    started_.emplace_back(job, lanes);
    const double with = Objective();
    if (with < *objective_ - 1e-9 * std::abs(*objective_)) {
      started_.pop_back();
      return false;
    }
    objective_ = with;
    return true;
  }

 private:
  double Objective() const {
    PlanProblem fixed = problem_;
    PlanChoices rest = choices_;
    const auto realtime = static_cast<std::uint32_t>(problem_.realtime.size());
    double value = 0;
    for (const auto& [job, lanes] : started_) {
      const PlanBatchJob& started = problem_.batch[job];
      for (const std::uint32_t lane : lanes) {
        fixed.busy.push_back({lane, 0, started.steps});
      }
      std::erase(rest.order, realtime + job);
      value += BatchValue(problem_, weight_, started, BatchPlacement{0, lanes});
    }
    return BuildPlan(fixed, rest).objective + value;
  }

  const PlanProblem& problem_;
  const PlanChoices& choices_;
  std::vector<double> weight_;
  std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>> started_;
  std::optional<double> objective_;  // of the plan around started_, once asked
};

// `grid` with the planned starts of the waiting jobs ranked above `job` (by priority x
// rank_factor) that are not on it yet, or nothing when there are none.
std::optional<Grid> WithStartsRankedAbove(const PlanProblem& problem, const Plan& plan,
                                          const std::vector<std::uint32_t>& waiting,
                                          const std::vector<bool>& on_grid, const Grid& grid,
                                          const PlanBatchJob& job) {
  std::optional<Grid> above;
  for (const std::uint32_t i : waiting) {
    const PlanBatchJob& other = problem.batch[i];
    if (!on_grid[i] && plan.batch[i].start_step != kNotPlanned && Rank(other) > Rank(job)) {
      if (!above) {
        above.emplace(grid);
      }
      TakeBatch(*above, other, plan.batch[i]);
    }
  }
  return above;
}

}  // namespace

void BackfillFirstStep(const PlanProblem& problem, const PlanChoices& choices,
                       std::int64_t protected_jobs, Plan& plan) {
  BackfillValue value(problem, choices);
  ListScheduler scheduler(problem);
  Grid grid = scheduler.TakeEmptyGrid();
  for (std::size_t k = 0; k < plan.realtime.size(); ++k) {
    for (std::int64_t t = 0; t < problem.steps; ++t) {
      grid.Take(plan.realtime[k][static_cast<std::size_t>(t)], t, t + 1);
    }
  }
  // The waiting jobs (planned after step 0, or not at all) in the plan's order; the protected
  // ones' planned starts are on the grid from the outset.
  const auto realtime = static_cast<std::uint32_t>(problem.realtime.size());
  std::vector<std::uint32_t> waiting;
  std::vector<bool> on_grid(problem.batch.size(), false);
  std::int64_t protected_left = protected_jobs;
  for (const std::uint32_t item : choices.order) {
    if (item < realtime) {
      continue;
    }
    const std::uint32_t j = item - realtime;
    const BatchPlacement& placed = plan.batch[j];
    if (placed.start_step == 0) {
      TakeBatch(grid, problem.batch[j], placed);
      on_grid[j] = true;
      continue;
    }
    waiting.push_back(j);
    if (placed.start_step != kNotPlanned && (problem.batch[j].reserved || protected_left > 0)) {
      protected_left -= problem.batch[j].reserved ? 0 : 1;
      TakeBatch(grid, problem.batch[j], placed);
      on_grid[j] = true;
    }
  }
  // Each waiting job not on the grid starts now if it fits around the work on the grid and the
  // planned starts of every waiting job of a higher priority; the jobs are tried by priority,
  // highest first (the plan's order may rank a wider job of a lower priority first, and trying it
  // first would put the higher one's planned start on the grid before it was tried), in the
  // plan's order among equals. The planned starts go on the grid once and stay, down to the
  // priority of the job tried (a planned start's lanes are fixed, so the order they are taken in
  // does not matter).
  std::stable_sort(waiting.begin(), waiting.end(), [&](std::uint32_t a, std::uint32_t b) {
    return problem.batch[a].priority > problem.batch[b].priority;
  });
  std::size_t next_higher = 0;
  for (const std::uint32_t j : waiting) {
    const PlanBatchJob& job = problem.batch[j];
    for (; next_higher < waiting.size() &&
           problem.batch[waiting[next_higher]].priority > job.priority;
         ++next_higher) {
      const std::uint32_t i = waiting[next_higher];
      if (!on_grid[i] && plan.batch[i].start_step != kNotPlanned) {
        TakeBatch(grid, problem.batch[i], plan.batch[i]);
        on_grid[i] = true;
      }
    }
    if (on_grid[j]) {
      continue;
    }
    // Around the protected planned starts; then around those of the jobs ranked above it too, it
    // delays none of them; around the protected ones alone, only if the plan gains by it.
    std::optional<std::vector<std::uint32_t>> lanes = FitAt(grid, job, 0, choices.smallest_size[j]);
    if (!lanes) {
      continue;
    }
    if (const std::optional<Grid> above =
            WithStartsRankedAbove(problem, plan, waiting, on_grid, grid, job)) {
      if (auto around_above = FitAt(*above, job, 0, choices.smallest_size[j])) {
        lanes = std::move(around_above);
        value.Started(j, *lanes);
      } else if (!value.StartIfWorth(j, *lanes)) {
        continue;
      }
    } else {
      value.Started(j, *lanes);
    }
    plan.batch[j] = {0, std::move(*lanes)};
    TakeBatch(grid, job, plan.batch[j]);
    on_grid[j] = true;
  }
}

double PlanObjective(const PlanProblem& problem, const Plan& plan) {
  const std::vector<double> weight = Weights(problem);
  double value = 0;
  for (std::size_t j = 0; j < problem.batch.size(); ++j) {
    value += BatchValue(problem, weight, problem.batch[j], plan.batch[j]);
  }
  for (std::size_t k = 0; k < problem.realtime.size(); ++k) {
    value += RealtimeValue(problem, weight, problem.realtime[k], plan.realtime[k]);
  }
  return value;
}

namespace {

// Whether an order keeps every reservation: no unreserved batch job a reservation holds against
// is placed before the reserved job.
bool KeepsReservations(const PlanProblem& problem, const std::vector<std::uint32_t>& order) {
  const auto realtime = static_cast<std::uint32_t>(problem.realtime.size());
  for (auto it = order.begin(); it != order.end(); ++it) {
    if (*it < realtime || !problem.batch[*it - realtime].reserved) {
      continue;
    }
    const PlanBatchJob& reserved = problem.batch[*it - realtime];
    const bool passed = std::any_of(order.begin(), it, [&](std::uint32_t item) {
      return item >= realtime && HoldsAgainst(reserved, problem.batch[item - realtime]);
    });
    if (passed) {
      return false;
    }
  }
  return true;
}

// The local search's candidate moves, in a fixed order: each batch job moved to the front of the
// batch jobs, each adjacent pair swapped, each elastic batch job's size preference flipped; the
// moves that would break a reservation are left out.
std::vector<PlanChoices> Neighbours(const PlanProblem& problem, const PlanChoices& from) {
  std::vector<PlanChoices> moves;
  const std::size_t realtime = problem.realtime.size();
  const bool any_reserved = std::any_of(problem.batch.begin(), problem.batch.end(),
                                        [](const PlanBatchJob& job) { return job.reserved; });
  const auto add = [&](PlanChoices&& move) {
    if (!any_reserved || KeepsReservations(problem, move.order)) {
      moves.push_back(std::move(move));
    }
  };
  for (std::size_t i = realtime + 1; i < from.order.size(); ++i) {
    PlanChoices moved = from;
    std::rotate(moved.order.begin() + static_cast<std::ptrdiff_t>(realtime),
                moved.order.begin() + static_cast<std::ptrdiff_t>(i),
                moved.order.begin() + static_cast<std::ptrdiff_t>(i + 1));
    add(std::move(moved));
  }
  for (std::size_t i = 1; i < from.order.size(); ++i) {
    if (i == realtime + 1) {
      continue;  // the same as moving it to the front of the batch jobs
    }
    PlanChoices swapped = from;
    std::swap(swapped.order[i - 1], swapped.order[i]);
    add(std::move(swapped));
  }
  for (std::size_t j = 0; j < problem.batch.size(); ++j) {
    if (problem.batch[j].max_gpus > problem.batch[j].min_gpus) {
      PlanChoices flipped = from;
      flipped.smallest_size[j] = !flipped.smallest_size[j];
      moves.push_back(std::move(flipped));
    }
  }
  return moves;
}

// The incumbent of the search: its choices, the grid before each position of its order and the
// objective of the items before it, so a candidate that first differs at position i is evaluated
// by placing only the items from i on.
struct Incumbent {
  PlanChoices choices;
  std::vector<Grid> grid_before;
  std::vector<double> value_before;  // one more than the order: the last is the objective
  std::vector<double> value_of;      // each item's own term, in order
};

Incumbent Schedule(const ListScheduler& scheduler, PlanChoices choices) {
  Incumbent incumbent{std::move(choices), {}, {0}, {}};
  Grid grid = scheduler.empty_grid();
  Plan scratch = scheduler.EmptyPlan();
  for (const std::uint32_t item : incumbent.choices.order) {
    incumbent.grid_before.push_back(grid);
    incumbent.value_of.push_back(scheduler.Place(grid, incumbent.choices, item, scratch));
    incumbent.value_before.push_back(incumbent.value_before.back() + incumbent.value_of.back());
  }
  return incumbent;
}

// The first position where the candidate places an item differently (order or size choice).
std::size_t FirstDifference(const PlanProblem& problem, const PlanChoices& a,
                            const PlanChoices& b) {
  const auto realtime = static_cast<std::uint32_t>(problem.realtime.size());
  for (std::size_t i = 0; i < a.order.size(); ++i) {
    const std::uint32_t item = a.order[i];
    if (item != b.order[i] || (item >= realtime && a.smallest_size[item - realtime] !=
                                                       b.smallest_size[item - realtime])) {
      return i;
    }
  }
  return a.order.size();
}

// One past the last position where the candidate places an item differently.
std::size_t EndOfDifference(const PlanProblem& problem, const PlanChoices& a,
                            const PlanChoices& b) {
  const auto realtime = static_cast<std::uint32_t>(problem.realtime.size());
  for (std::size_t i = a.order.size(); i > 0; --i) {
    const std::uint32_t item = a.order[i - 1];
    if (item != b.order[i - 1] || (item >= realtime && a.smallest_size[item - realtime] !=
                                                           b.smallest_size[item - realtime])) {
      return i;
    }
  }
  return 0;
}

// The candidate's objective, placing the items from `from` on. Past `end` (where it places the
// items as the incumbent does), if the grid is the incumbent's there, every later item is placed
// as in the incumbent: their terms are the incumbent's, added in the same order.
double Evaluate(const ListScheduler& scheduler, const Incumbent& incumbent,
                const PlanChoices& candidate, std::size_t from, std::size_t end, Plan& scratch) {
  Grid grid = incumbent.grid_before[from];
  double value = incumbent.value_before[from];
  for (std::size_t i = from; i < candidate.order.size(); ++i) {
    if (i == end && grid.SameOccupancy(incumbent.grid_before[i])) {
      for (std::size_t k = i; k < candidate.order.size(); ++k) {
        value += incumbent.value_of[k];  // the same terms in the same order: the same sum
      }
      return value;
    }
    value += scheduler.Place(grid, candidate, candidate.order[i], scratch);
  }
  return value;
}

}  // namespace

ImproveResult ImprovePlan(const PlanProblem& problem, const PlanChoices& start,
                          std::int64_t max_evaluations) {
  const ListScheduler scheduler(problem);
  Plan scratch = scheduler.EmptyPlan();
  Incumbent best = Schedule(scheduler, start);
  std::int64_t evaluations = 1;
  bool improved = !best.choices.order.empty();
  while (improved && evaluations < max_evaluations) {
    improved = false;
    const double objective = best.value_before.back();
    for (PlanChoices& candidate : Neighbours(problem, best.choices)) {
      if (evaluations >= max_evaluations) {
        break;
      }
      ++evaluations;
      const std::size_t from = FirstDifference(problem, best.choices, candidate);
      const std::size_t end = EndOfDifference(problem, best.choices, candidate);
      if (Evaluate(scheduler, best, candidate, from, end, scratch) >
          objective + 1e-9 * std::abs(objective)) {
        best = Schedule(scheduler, std::move(candidate));
        improved = true;
        break;
      }
    }
  }
  return {BuildPlan(problem, best.choices), std::move(best.choices), evaluations};
}

}  // namespace fleetsim
