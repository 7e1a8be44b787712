// Admission verdicts: a fast size check for plain jobs; for the others, rules that name the
// reason (models, spot, size, NVLink domain, MIG profile, GPU memory, host capacity), then the
// placement helper on the empty fleet, which decides.
#include "sim/admission.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "fleetsim/ledger/placement_rules.h"
#include "fleetsim/policy/placement_choice.h"

namespace fleetsim {

namespace {

std::string ShapeKey(const JobRequest& r) {
  return fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}", r.gpus, r.max_gpus, r.pow2_block,
                     fmt::join(r.gpu_models, "|"), NvlinkLocalityName(r.nvlink),
                     GpuSharingName(r.sharing), r.gpu_milli, r.gpu_memory_gb, r.cpu_milli,
                     r.memory_mib, r.spot_eligible);
}

std::string HostText(const HostNeed& need) {
  return fmt::format("{} CPU cores and {} GB of host memory", need.cpu_cores, need.memory_gb);
}

std::string AmountText(const std::optional<double>& amount) {
  return amount ? fmt::format("{}", *amount) : "unlimited";
}

// The larger of two capacities, unset meaning unlimited.
std::optional<double> Larger(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b) {
    return std::nullopt;
  }
  return std::max(*a, *b);
}

bool Holds(const std::optional<double>& capacity, double amount) {
  return !capacity || amount <= *capacity + 1e-9;
}

bool NeedsOneDomain(const JobRequest& request) {
  return request.pow2_block || request.nvlink == NvlinkLocality::kRequired;
}

}  // namespace

Admission::Admission(const FleetSpec& spec, const FleetLedger& ledger)
    : spec_(spec), ledger_(ledger), largest_domain_(ledger.pools().size(), 0) {
  for (const PoolSpec& pool : ledger.pools()) {
    has_spot_ = has_spot_ || pool.tier == PriceTier::kSpot;
  }
  for (std::uint32_t d = 0; d < ledger.topology().domains(); ++d) {
    std::int64_t& largest = largest_domain_[ledger.PoolOfDomain(d)];
    largest = std::max(largest, static_cast<std::int64_t>(ledger.topology().DomainGpus(d).size()));
  }
}

Admission::~Admission() = default;

Status Admission::CheckAdmissible(const JobRequest& request, const JobTruth& truth) {
  std::string verdict = Verdict(request, truth);
  return verdict.empty() ? Status::Ok() : Status::Refused(std::move(verdict));
}

std::string Admission::Verdict(const JobRequest& r, const JobTruth& truth) {
  if (r.IsCpuOnly() && truth.work_gpu_hours > 0) {
    return "needs duration_s: a CPU-only job has no GPUs to measure work_gpu_hours on";
  }
  if (IsPlain(r)) {
    return PlainVerdict(r);
  }
  const std::string key = ShapeKey(r);
  if (const auto it = verdicts_.find(key); it != verdicts_.end()) {
    return it->second;
  }
  std::string verdict = Diagnose(r);
  if (verdict.empty()) {
    if (!empty_) {
      empty_ = std::make_unique<FleetLedger>(spec_);
    }
    if (!ChoosePlacement(*empty_, r)) {
      verdict = HostNeedOf(r).any()
                    ? fmt::format(
                          "needs {}, split over the nodes of its GPUs in proportion to "
                          "its GPUs on each; the built-in placement, which sizes every node "
                          "for as many of the job's GPUs as it holds, finds none on the "
                          "empty fleet",
                          HostText(HostNeedOf(r)))
                    : "no placement meets all of its constraints, even on the empty fleet";
    }
  }
  verdicts_.emplace(key, verdict);
  return verdict;
}

bool Admission::IsPlain(const JobRequest& r) const {
  return !r.IsCpuOnly() && r.sharing == GpuSharing::kNone && r.gpu_models.empty() &&
         !NeedsOneDomain(r) && !HostNeedOf(r).any() && (r.spot_eligible || !has_spot_);
}

std::string Admission::PlainVerdict(const JobRequest& r) const {
  const std::int64_t wholeable = ledger_.wholeable_gpus();
  if (r.gpus <= wholeable) {
    return "";
  }
  const std::int64_t partitioned = ledger_.whole().capacity() - wholeable;
  return partitioned == 0
             ? fmt::format("needs {} GPUs; the whole fleet has {}", r.gpus, wholeable)
             : fmt::format(
                   "needs {} GPUs; the fleet has {} that can be allocated whole ({} more "
                   "are MIG-partitioned)",
                   r.gpus, wholeable, partitioned);
}

std::string Admission::Diagnose(const JobRequest& r) const {
  if (r.IsCpuOnly()) {
    return DiagnoseHostOnOneNode(r, false);
  }
  if (std::string why = DiagnoseGpus(r); !why.empty()) {
    return why;
  }
  std::string why;
  switch (r.sharing) {
    case GpuSharing::kNone:
      why = DiagnoseWhole(r);
      break;
    case GpuSharing::kMig:
      why = DiagnoseMig(r);
      break;
    case GpuSharing::kFraction:
      why = DiagnoseFraction(r);
      break;
  }
  const bool one_gpu = r.sharing != GpuSharing::kNone || r.MaxGpus() == 1;
  return why.empty() && one_gpu ? DiagnoseHostOnOneNode(r, true) : why;
}

// GPU models and spot eligibility.
std::string Admission::DiagnoseGpus(const JobRequest& r) const {
  const auto pools = ledger_.pools();
  if (std::none_of(pools.begin(), pools.end(),
                   [&](const PoolSpec& p) { return AcceptsModel(r, p.gpu); })) {
    std::set<std::string> models;
    for (const PoolSpec& pool : pools) {
      if (!pool.gpu.name.empty()) {
        models.insert(pool.gpu.name);
      }
    }
    return models.empty()
               ? fmt::format("needs a GPU model in {}; the fleet's GPUs have no catalog model",
                             ModelListText(r))
               : fmt::format("needs a GPU model in {}; the fleet has [{}]", ModelListText(r),
                             fmt::join(models, ", "));
  }
  if (std::none_of(pools.begin(), pools.end(),
                   [&](const PoolSpec& p) { return AcceptsPool(r, p); })) {
    return "needs GPUs outside spot pools (not spot-eligible); every GPU of a model it accepts is "
           "in a spot pool";
  }
  return "";
}

std::string Admission::DiagnoseWhole(const JobRequest& r) const {
  std::int64_t usable = 0;
  std::int64_t largest_domain = 0;
  const auto pools = ledger_.pools();
  for (PoolIndex p = 0; p < pools.size(); ++p) {
    if (AcceptsPool(r, pools[p]) && pools[p].mig != MigMode::kStatic) {
      usable += pools[p].gpus();
      largest_domain = std::max(largest_domain, largest_domain_[p]);
    }
  }
  if (r.gpus > usable) {
    if (r.gpu_models.empty() && (r.spot_eligible || !has_spot_)) {
      return PlainVerdict(r);
    }
    std::vector<std::string> limits;
    if (!r.gpu_models.empty()) {
      limits.push_back(fmt::format("of a model in {}", ModelListText(r)));
    }
    if (!r.spot_eligible && has_spot_) {
      limits.emplace_back("outside spot pools");
    }
    if (ledger_.wholeable_gpus() < ledger_.whole().capacity()) {
      limits.emplace_back("that can be allocated whole");
    }
    return fmt::format("needs {} GPUs; the fleet has {} {}", r.gpus, usable,
                       fmt::join(limits, " "));
  }
  if (NeedsOneDomain(r) && r.gpus > largest_domain) {
    return r.pow2_block ? fmt::format(
                              "needs a block of {} GPUs in one NVLink domain; the largest domain "
                              "it can use has {}",
                              r.gpus, largest_domain)
                        : fmt::format(
                              "needs {} GPUs in one NVLink domain (nvlink 'required'); the largest "
                              "domain it can use has {}",
                              r.gpus, largest_domain);
  }
  return "";
}

std::string Admission::DiagnoseMig(const JobRequest& r) const {
  const MigProfile* largest = nullptr;
  for (const PoolSpec& pool : ledger_.pools()) {
    if (!AcceptsPool(r, pool)) {
      continue;
    }
    for (const MigProfile* profile : MigProfilesOffered(pool)) {
      if (MigProfileFits(r, *profile)) {
        return "";
      }
      if (largest == nullptr || profile->memory_gb > largest->memory_gb ||
          (profile->memory_gb == largest->memory_gb &&
           profile->compute_slices > largest->compute_slices)) {
        largest = profile;
      }
    }
  }
  if (largest == nullptr) {
    return "needs a MIG instance; no GPU it can use has MIG enabled";
  }
  return fmt::format(
      "needs a MIG instance with {}; the largest profile it can use is {} ({} GB, "
      "{} of {} compute slices)",
      MigNeedText(r), largest->name, largest->memory_gb, largest->compute_slices,
      kMigComputeSlices);
}

std::string Admission::DiagnoseFraction(const JobRequest& r) const {
  bool shareable = false;
  double most = 0;
  for (const PoolSpec& pool : ledger_.pools()) {
    if (!AcceptsPool(r, pool) || pool.mig == MigMode::kStatic) {
      continue;
    }
    if (pool.gpu.memory_gb <= 0) {
      return "";  // no catalog model: GPU memory is not limited
    }
    shareable = true;
    most = std::max(most, pool.gpu.memory_gb);
  }
  if (!shareable) {
    return "needs a fractional GPU share; every GPU it can use is in a static-MIG pool";
  }
  if (r.gpu_memory_gb > most + 1e-9) {
    return fmt::format(
        "needs {} GB of GPU memory with its share; the largest GPU it can use has "
        "{} GB",
        r.gpu_memory_gb, most);
  }
  return "";
}

// A CPU-only job, or a job on one GPU, takes its whole host need on one node.
std::string Admission::DiagnoseHostOnOneNode(const JobRequest& r, bool gpu_job) const {
  const HostNeed need = HostNeedOf(r);
  bool any_node = false;
  std::optional<double> most_cpu = 0;
  std::optional<double> most_memory = 0;
  for (const PoolSpec& pool : ledger_.pools()) {
    if (!(gpu_job ? AcceptsPool(r, pool) : AcceptsTier(r, pool))) {
      continue;
    }
    if (Holds(pool.cpu_cores, need.cpu_cores) && Holds(pool.memory_gb, need.memory_gb)) {
      return "";
    }
    any_node = true;
    most_cpu = Larger(most_cpu, pool.cpu_cores);
    most_memory = Larger(most_memory, pool.memory_gb);
  }
  if (!any_node) {
    return "needs a node outside spot pools (not spot-eligible); every node is in a spot pool";
  }
  return fmt::format("needs {} {}; the largest node it can use has {} CPU cores and {} GB",
                     HostText(need), gpu_job ? "beside its GPU" : "on one node",
                     AmountText(most_cpu), AmountText(most_memory));
}

}  // namespace fleetsim
