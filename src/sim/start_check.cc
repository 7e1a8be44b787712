// CheckPlacement: every rule a start must follow, each failure in words naming the GPU or node,
// the rule and the numbers.
#include "sim/start_check.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <utility>

#include "fleetsim/ledger/placement_rules.h"

namespace fleetsim {

namespace {

const char* GrantKindName(Grant::Kind kind) {
  switch (kind) {
    case Grant::Kind::kWhole:
      return "a whole GPU";
    case Grant::Kind::kMig:
      return "a MIG instance";
    case Grant::Kind::kFraction:
      return "a fractional share";
  }
  return "?";
}

Status CheckWholeShape(const JobRequest& r, const Allocation& a) {
  for (std::size_t i = 0; i < a.gpus.size(); ++i) {
    if (a.gpus[i].kind != Grant::Kind::kWhole) {
      return Status::Refused(
          fmt::format("the job takes whole GPUs (sharing 'none'), grant {} is {}", i + 1,
                      GrantKindName(a.gpus[i].kind)));
    }
  }
  const auto n = static_cast<std::int64_t>(a.gpus.size());
  if (n >= r.gpus && n <= r.MaxGpus()) {
    return Status::Ok();
  }
  return Status::Refused(
      r.IsElastic()
          ? fmt::format("the job needs {} to {} GPUs, the placement has {}", r.gpus, r.MaxGpus(), n)
          : fmt::format("the job needs {} GPUs, the placement has {}", r.gpus, n));
}

Status CheckOneGrantShape(const JobRequest& r, const Allocation& a, Grant::Kind kind) {
  const std::string need = fmt::format("the job needs {} (sharing '{}')", GrantKindName(kind),
                                       GpuSharingName(r.sharing));
  if (a.gpus.size() != 1) {
    return Status::Refused(fmt::format("{}, the placement has {} GPU grants", need, a.gpus.size()));
  }
  if (a.gpus[0].kind != kind) {
    return Status::Refused(fmt::format("{}, the grant is {}", need, GrantKindName(a.gpus[0].kind)));
  }
  return Status::Ok();
}

// GPU count and grant kinds for the job's sharing.
Status CheckShape(const JobRequest& r, const Allocation& a) {
  if (r.IsCpuOnly()) {
    return a.gpus.empty() ? Status::Ok()
                          : Status::Refused(fmt::format(
                                "a CPU-only job takes no GPUs, the placement has {} GPU grants",
                                a.gpus.size()));
  }
  switch (r.sharing) {
    case GpuSharing::kNone:
      return CheckWholeShape(r, a);
    case GpuSharing::kMig:
      return CheckOneGrantShape(r, a, Grant::Kind::kMig);
    case GpuSharing::kFraction:
      return CheckOneGrantShape(r, a, Grant::Kind::kFraction);
  }
  return Status::Ok();
}

Status CheckGpusExist(const FleetLedger& ledger, const Allocation& a) {
  for (const Grant& grant : a.gpus) {
    if (!ledger.whole().IsValid(grant.gpu)) {
      return Status::Refused(fmt::format("GPU {} does not exist (the fleet has GPUs 0..{})",
                                         grant.gpu, ledger.whole().capacity() - 1));
    }
  }
  std::vector<GpuId> whole;
  for (const Grant& grant : a.gpus) {
    if (grant.kind == Grant::Kind::kWhole) {
      whole.push_back(grant.gpu);
    }
  }
  std::sort(whole.begin(), whole.end());
  const auto twice = std::adjacent_find(whole.begin(), whole.end());
  return twice == whole.end() ? Status::Ok()
                              : Status::Refused(fmt::format("GPU {} is listed twice", *twice));
}

Status CheckGrantAgainstRequest(const FleetLedger& ledger, const JobRequest& r,
                                const Grant& grant) {
  const PoolSpec& pool = ledger.pools()[ledger.PoolOfGpu(grant.gpu)];
  if (!AcceptsModel(r, pool.gpu)) {
    return Status::Refused(
        fmt::format("GPU {} ({}) is not one of the job's GPU models {}", grant.gpu,
                    pool.gpu.name.empty() ? "no catalog model" : pool.gpu.name, ModelListText(r)));
  }
  if (!AcceptsTier(r, pool)) {
    return Status::Refused(fmt::format(
        "GPU {} is in spot pool \"{}\" and the job is not spot-eligible", grant.gpu, pool.name));
  }
  if (grant.kind == Grant::Kind::kMig && grant.profile != nullptr) {
    const MigProfile* profile = pool.gpu.FindMigProfile(grant.profile->name);
    if (profile != nullptr && !MigProfileFits(r, *profile)) {
      return Status::Refused(
          fmt::format("the job needs a MIG instance with {}, {} has {} GB and {} of {} "
                      "compute slices",
                      MigNeedText(r), profile->name, profile->memory_gb, profile->compute_slices,
                      kMigComputeSlices));
    }
  }
  if (grant.kind == Grant::Kind::kFraction &&
      (grant.milli != r.gpu_milli || !SameShare(grant.gpu_memory_gb, r.gpu_memory_gb))) {
    return Status::Refused(
        fmt::format("the job needs a share of {} milli-GPU and {} GB of GPU memory, the grant "
                    "has {} and {}",
                    r.gpu_milli, r.gpu_memory_gb, grant.milli, grant.gpu_memory_gb));
  }
  return Status::Ok();
}

std::int64_t DomainsSpanned(const Topology& topology, std::span<const GpuId> distinct) {
  std::int64_t domains = 0;
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    if (i == 0 || topology.DomainOf(distinct[i]) != topology.DomainOf(distinct[i - 1])) {
      ++domains;
    }
  }
  return domains;
}

// A power-of-two count of consecutive GPU ids inside one NVLink domain, starting at a multiple of
// the count within the domain.
Status CheckBlock(const Topology& topology, std::span<const GpuId> distinct) {
  const std::size_t n = distinct.size();
  if (!std::has_single_bit(n)) {
    return Status::Refused(fmt::format(
        "the job needs a power-of-two block (pow2_block), the placement has {} GPUs", n));
  }
  if (distinct.back() - distinct.front() + 1 != n) {
    return Status::Refused(
        fmt::format("the job needs a block of consecutive GPU ids (pow2_block), found [{}]",
                    fmt::join(distinct, ", ")));
  }
  const std::uint32_t domain = topology.DomainOf(distinct.front());
  if (topology.DomainOf(distinct.back()) != domain) {
    return Status::Refused(
        fmt::format("the job needs its block inside one NVLink domain (pow2_block), GPUs {}..{} "
                    "span {}",
                    distinct.front(), distinct.back(), DomainsSpanned(topology, distinct)));
  }
  const GpuId offset = distinct.front() - topology.DomainGpus(domain).front();
  if (offset % n != 0) {
    return Status::Refused(
        fmt::format("the job needs its block aligned to {} GPUs within its NVLink domain "
                    "(pow2_block), it starts at position {} of domain {}",
                    n, offset, domain));
  }
  return Status::Ok();
}

Status CheckGpuConstraints(const FleetLedger& ledger, const JobRequest& r, const Allocation& a,
                           std::span<const GpuId> distinct) {
  for (const Grant& grant : a.gpus) {
    if (Status status = CheckGrantAgainstRequest(ledger, r, grant); !status.ok()) {
      return status;
    }
  }
  const Topology& topology = ledger.topology();
  if (r.nvlink == NvlinkLocality::kRequired) {
    const std::int64_t domains = DomainsSpanned(topology, distinct);
    if (domains > 1) {
      return Status::Refused(fmt::format(
          "the job needs one NVLink domain (nvlink 'required'), its GPUs span {}", domains));
    }
  }
  return r.pow2_block ? CheckBlock(topology, distinct) : Status::Ok();
}

Status CheckCpuOnlyShare(const FleetLedger& ledger, const JobRequest& r, const Allocation& a) {
  if (a.nodes.size() != 1) {
    return Status::Refused(
        fmt::format("a CPU-only job takes its host CPU and memory on one node, the placement "
                    "has {} node shares",
                    a.nodes.size()));
  }
  const NodeShare& share = a.nodes[0];
  if (share.node >= ledger.state().nodes()) {
    return Status::Refused(fmt::format("node {} does not exist (the fleet has nodes 0..{})",
                                       share.node, ledger.state().nodes() - 1));
  }
  const HostNeed need = HostNeedOf(r);
  if (!SameShare(share.cpu_cores, need.cpu_cores) || !SameShare(share.memory_gb, need.memory_gb)) {
    return Status::Refused(
        fmt::format("the job needs {} CPU cores and {} GB of host memory, the placement gives "
                    "node {} {} and {}",
                    need.cpu_cores, need.memory_gb, share.node, share.cpu_cores, share.memory_gb));
  }
  const PoolSpec& pool = ledger.pools()[ledger.PoolOfNode(share.node)];
  if (!AcceptsTier(r, pool)) {
    return Status::Refused(fmt::format(
        "node {} is in spot pool \"{}\" and the job is not spot-eligible", share.node, pool.name));
  }
  return Status::Ok();
}

// How many of the job's GPUs each of its nodes holds, in node order.
std::vector<std::pair<NodeId, std::int64_t>> GpusPerNode(const Topology& topology,
                                                         std::span<const GpuId> distinct) {
  std::vector<std::pair<NodeId, std::int64_t>> counts;
  for (const GpuId gpu : distinct) {
    const NodeId node = topology.NodeOf(gpu);
    if (counts.empty() || counts.back().first != node) {
      counts.emplace_back(node, 0);
    }
    ++counts.back().second;
  }
  return counts;
}

Status CheckSplit(const FleetLedger& ledger, const JobRequest& r, const Allocation& a,
                  std::span<const GpuId> distinct) {
  const auto counts = GpusPerNode(ledger.topology(), distinct);
  const std::vector<NodeShare> expected = SplitHostNeed(HostNeedOf(r), distinct, ledger.topology());
  std::vector<NodeShare> actual = a.nodes;
  std::sort(actual.begin(), actual.end(),
            [](const NodeShare& x, const NodeShare& y) { return x.node < y.node; });
  for (std::size_t i = 1; i < actual.size(); ++i) {
    if (actual[i].node == actual[i - 1].node) {
      return Status::Refused(fmt::format("node {} has two shares", actual[i].node));
    }
  }
  for (const NodeShare& share : actual) {
    const auto it = std::find_if(expected.begin(), expected.end(),
                                 [&](const NodeShare& e) { return e.node == share.node; });
    if (it == expected.end()) {
      return Status::Refused(fmt::format("node {} holds none of the job's GPUs", share.node));
    }
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const NodeShare& want = expected[i];
    const auto it = std::find_if(actual.begin(), actual.end(),
                                 [&](const NodeShare& s) { return s.node == want.node; });
    if (it == actual.end()) {
      return Status::Refused(fmt::format("node {} holds {} of the job's GPUs but has no share",
                                         want.node, counts[i].second));
    }
    if (!SameShare(it->cpu_cores, want.cpu_cores) || !SameShare(it->memory_gb, want.memory_gb)) {
      return Status::Refused(
          fmt::format("node {} should get {} CPU cores and {} GB ({} of the job's {} GPUs), "
                      "the placement gives {} and {}",
                      want.node, want.cpu_cores, want.memory_gb, counts[i].second, distinct.size(),
                      it->cpu_cores, it->memory_gb));
    }
  }
  return Status::Ok();
}

Status CheckHost(const FleetLedger& ledger, const JobRequest& r, const Allocation& a,
                 std::span<const GpuId> distinct) {
  if (r.IsCpuOnly()) {
    return CheckCpuOnlyShare(ledger, r, a);
  }
  if (!HostNeedOf(r).any()) {
    return a.nodes.empty() ? Status::Ok()
                           : Status::Refused(fmt::format(
                                 "the job asks for no host CPU or memory, the placement has {} "
                                 "node shares",
                                 a.nodes.size()));
  }
  return CheckSplit(ledger, r, a, distinct)
      .Within("host CPU and memory are split over the job's nodes in proportion to its GPUs there");
}

// What is free now: whole GPUs already held, then every capacity (FleetState::CheckAllocation).
Status CheckBusyThenFleet(const FleetLedger& ledger, const JobRequest& /*request*/,
                          const Allocation& a) {
  for (const Grant& grant : a.gpus) {
    if (grant.kind == Grant::Kind::kWhole && ledger.state().IsHeldWhole(grant.gpu)) {
      return Status::Refused(fmt::format("GPU {} is busy", grant.gpu));
    }
  }
  return ledger.CheckAllocation(a);
}

}  // namespace

Status CheckAgainstRequest(const FleetLedger& ledger, const JobRequest& request,
                           const Allocation& placement) {
  if (Status status = CheckShape(request, placement); !status.ok()) {
    return status;
  }
  if (Status status = CheckGpusExist(ledger, placement); !status.ok()) {
    return status;
  }
  std::vector<GpuId> distinct;
  distinct.reserve(placement.gpus.size());
  for (const Grant& grant : placement.gpus) {
    distinct.push_back(grant.gpu);
  }
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  for (const auto& check : {CheckGpuConstraints, CheckHost}) {
    if (Status status = check(ledger, request, placement, distinct); !status.ok()) {
      return status;
    }
  }
  return Status::Ok();
}

Status CheckPlacement(const FleetLedger& ledger, const JobRequest& request,
                      const Allocation& placement) {
  for (const auto& check : {CheckAgainstRequest, CheckBusyThenFleet}) {
    if (Status status = check(ledger, request, placement); !status.ok()) {
      return status;
    }
  }
  return Status::Ok();
}

}  // namespace fleetsim
