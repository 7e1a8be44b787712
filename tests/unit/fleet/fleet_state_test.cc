// FleetState: each grant kind legal and illegal with the exact reasons, grants colliding inside
// one allocation, Release restoring the state, and a property test that drives random
// allocations and releases against a simple reference model of the same rules.
#include "fleetsim/fleet/fleet_state.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "fleetsim/fleet/catalog_loader.h"

namespace fleetsim {
namespace {

PoolSpec Pool(const std::string& name, MigMode mig) {
  static const Catalog catalog = BuiltinCatalog();
  PoolSpec pool;
  pool.name = name;
  pool.node = *catalog.FindTemplate("hgx-h100");
  pool.gpu = *catalog.FindGpu(pool.node.gpu);
  pool.nodes = 1;
  pool.mig = mig;
  return pool;
}

// GPUs 0-7 (node 0): dynamic MIG. GPUs 8-15 (node 1): static {"3g.40gb": 2}. GPUs 16-23
// (node 2): MIG off, 64 CPU cores and 512 GB per node. Nodes 0 and 1 leave CPU/memory unset.
FleetSpec MixedFleet() {
  FleetSpec fleet;
  fleet.pools.push_back(Pool("dyn", MigMode::kDynamic));
  fleet.pools.push_back(Pool("static", MigMode::kStatic));
  fleet.pools.back().mig_layout = {{"3g.40gb", 2}};
  fleet.pools.push_back(Pool("plain", MigMode::kOff));
  fleet.pools.back().cpu_cores = 64;
  fleet.pools.back().memory_gb = 512;
  for (const PoolSpec& p : fleet.pools) {
    fleet.gpus += p.gpus();
  }
  return fleet;
}

class FleetStateTest : public ::testing::Test {
 protected:
  FleetStateTest() : spec_(MixedFleet()), topology_(spec_), state_(spec_, topology_, 12.5) {}

  const MigProfile& Profile(const std::string& name) const {
    return *spec_.pools[0].gpu.FindMigProfile(name);
  }
  static Allocation Gpus(std::vector<Grant> grants) { return {std::move(grants), {}}; }

  FleetSpec spec_;
  Topology topology_;
  FleetState state_;
};

TEST_F(FleetStateTest, StartsEmpty) {
  EXPECT_EQ(state_.gpus(), 24);
  EXPECT_EQ(state_.nodes(), 3);
  EXPECT_EQ(state_.free_whole_gpus(), 16);  // the static pool's 8 cannot be taken whole
  EXPECT_EQ(state_.FreeMilli(16), 1000);
  EXPECT_EQ(state_.FreeGpuMemoryGb(16), 80);
  EXPECT_EQ(state_.FreeMilli(8), 0);
  EXPECT_EQ(state_.FreeCpuCores(2), 64);
  EXPECT_TRUE(std::isinf(state_.FreeCpuCores(0)));
  EXPECT_TRUE(std::isinf(state_.FreeMemoryGb(1)));
  EXPECT_EQ(state_.StaticLayout(8).size(), 2U);
  EXPECT_TRUE(state_.StaticLayout(0).empty());
  EXPECT_EQ(state_.repartition_seconds(), 12.5);
  EXPECT_TRUE(state_.CanRepartition(0));
  EXPECT_FALSE(state_.CanRepartition(8));
  EXPECT_FALSE(state_.CanRepartition(16));
  state_.CheckInvariants();
}

TEST_F(FleetStateTest, WholeGpus) {
  const Allocation a = Gpus({Grant::Whole(0), Grant::Whole(16)});
  EXPECT_EQ(state_.CheckAllocation(a).message(), "");
  state_.Apply(a);
  EXPECT_EQ(state_.free_whole_gpus(), 14);
  EXPECT_TRUE(state_.IsHeldWhole(0));
  EXPECT_FALSE(state_.CanRepartition(0));
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Whole(16)})).message(),
            "GPU 16 is already taken whole");
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Whole(9)})).message(),
            "GPU 9 is partitioned by pool \"static\"'s static MIG layout and cannot be taken "
            "whole");
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Whole(24)})).message(),
            "GPU 24 does not exist (the fleet has 24 GPUs)");
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Mig(0, Profile("1g.10gb"), 0)})).message(),
            "GPU 0 is taken whole and cannot hold MIG instances");
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Fraction(16, 100, 1)})).message(),
            "GPU 16 is taken whole and cannot be shared fractionally");
  state_.CheckInvariants();
}

TEST_F(FleetStateTest, DynamicMig) {
  const Allocation a = Gpus({Grant::Mig(0, Profile("4g.40gb"), 0)});
  state_.Apply(a);
  EXPECT_EQ(state_.Mig(0).instances(), 1);
  EXPECT_FALSE(state_.CanRepartition(0));
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Mig(0, Profile("3g.40gb"), 4)})).message(), "");
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Mig(0, Profile("3g.40gb"), 0)})).message(),
            "GPU 0: 3g.40gb at 0: memory slices 0-3 overlap 4g.40gb at 0");
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Whole(0)})).message(),
            "GPU 0 has 1 MIG instance in use and cannot be taken whole");
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Fraction(0, 100, 1)})).message(),
            "GPU 0 has 1 MIG instance in use and cannot be shared fractionally");
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Mig(16, Profile("1g.10gb"), 0)})).message(),
            "GPU 16 is not a MIG GPU (pool \"plain\" has MIG off)");
  EXPECT_EQ(state_.free_whole_gpus(), 15);
  state_.Release(a);
  EXPECT_TRUE(state_.CanRepartition(0));
  EXPECT_EQ(state_.free_whole_gpus(), 16);
  state_.CheckInvariants();
}

TEST_F(FleetStateTest, FourGPlusFourGCollideInOneAllocation) {
  const Allocation a =
      Gpus({Grant::Mig(1, Profile("4g.40gb"), 0), Grant::Mig(1, Profile("4g.40gb"), 0)});
  EXPECT_EQ(state_.CheckAllocation(a).message(),
            "GPU 1: 4g.40gb at 0: 4g.40gb already has its maximum of 1 instance (it collides "
            "with an earlier grant of this allocation)");
  const Allocation b =
      Gpus({Grant::Mig(1, Profile("4g.40gb"), 0), Grant::Mig(1, Profile("3g.40gb"), 4)});
  EXPECT_EQ(state_.CheckAllocation(b).message(), "");
}

TEST_F(FleetStateTest, StaticMig) {
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Mig(8, Profile("4g.40gb"), 0)})).message(),
            "GPU 8: 4g.40gb at 0 is not an instance of pool \"static\"'s static layout (3g.40gb "
            "at 0, 3g.40gb at 4)");
  const Allocation a = Gpus({Grant::Mig(8, Profile("3g.40gb"), 4)});
  EXPECT_EQ(state_.CheckAllocation(a).message(), "");
  state_.Apply(a);
  EXPECT_FALSE(state_.IsStaticSlotFree(8, Profile("3g.40gb"), 4));
  EXPECT_TRUE(state_.IsStaticSlotFree(8, Profile("3g.40gb"), 0));
  EXPECT_EQ(state_.CheckAllocation(a).message(), "GPU 8: 3g.40gb at 4 is already in use");
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Mig(8, Profile("3g.40gb"), 0)})).message(), "");
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Fraction(8, 100, 1)})).message(),
            "GPU 8 is partitioned by pool \"static\"'s static MIG layout and cannot be shared "
            "fractionally");
  state_.Release(a);
  EXPECT_TRUE(state_.IsStaticSlotFree(8, Profile("3g.40gb"), 4));
  state_.CheckInvariants();
}

TEST_F(FleetStateTest, Fractions) {
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Fraction(16, 1200, 1)})).message(),
            "GPU 16: a fractional grant takes 1..1000 milli-GPU, not 1200");
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Fraction(16, 100, 90)})).message(),
            "GPU 16: 90 GB of GPU memory requested, 80 GB free of 80 GB (H100-SXM)");
  const Allocation a = Gpus({Grant::Fraction(16, 500, 20)});
  state_.Apply(a);
  EXPECT_EQ(state_.FreeMilli(16), 500);
  EXPECT_EQ(state_.FreeGpuMemoryGb(16), 60);
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Whole(16)})).message(),
            "GPU 16 is shared by 1 fractional grant (500 milli-GPU, 20 GB) and cannot be taken "
            "whole");
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Fraction(16, 600, 1)})).message(),
            "GPU 16: 600 milli-GPU requested, 500 free of 1000");
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Fraction(16, 500, 60)})).message(), "");
  // A dynamic-MIG GPU with no instance can be shared, and then takes no instance.
  const Allocation b = Gpus({Grant::Fraction(2, 250, 10.5)});
  state_.Apply(b);
  EXPECT_EQ(state_.CheckAllocation(Gpus({Grant::Mig(2, Profile("1g.10gb"), 0)})).message(),
            "GPU 2 is shared by 1 fractional grant and cannot hold MIG instances");
  EXPECT_EQ(state_.free_whole_gpus(), 14);
  state_.Release(a);
  state_.Release(b);
  EXPECT_EQ(state_.FreeMilli(16), 1000);
  EXPECT_EQ(state_.FreeGpuMemoryGb(16), 80);
  EXPECT_EQ(state_.free_whole_gpus(), 16);
  state_.CheckInvariants();
}

TEST_F(FleetStateTest, FractionsCollideInOneAllocation) {
  const Allocation a = Gpus({Grant::Fraction(17, 600, 10), Grant::Fraction(17, 600, 10)});
  EXPECT_EQ(state_.CheckAllocation(a).message(),
            "GPU 17: 600 milli-GPU requested, 400 free of 1000 (it collides with an earlier "
            "grant of this allocation)");
  const Allocation b = Gpus({Grant::Fraction(17, 100, 1), Grant::Whole(17)});
  EXPECT_EQ(state_.CheckAllocation(b).message(),
            "GPU 17 is shared by 1 fractional grant (100 milli-GPU, 1 GB) and cannot be taken "
            "whole (it collides with an earlier grant of this allocation)");
}

TEST_F(FleetStateTest, NodeShares) {
  Allocation a;
  a.nodes = {{2, 48, 256}, {0, 1000, 1e6}};
  EXPECT_EQ(state_.CheckAllocation(a).message(), "");
  state_.Apply(a);
  EXPECT_EQ(state_.FreeCpuCores(2), 16);
  EXPECT_EQ(state_.FreeMemoryGb(2), 256);
  Allocation over;
  over.nodes = {{2, 80, 0}};
  EXPECT_EQ(state_.CheckAllocation(over).message(),
            "node 2: 80 CPU cores requested, 16 free of 64");
  over.nodes = {{2, 1, 300}};
  EXPECT_EQ(state_.CheckAllocation(over).message(),
            "node 2: 300 GB of memory requested, 256 GB free of 512 GB");
  over.nodes = {{2, 10, 0}, {2, 10, 0}};
  EXPECT_EQ(state_.CheckAllocation(over).message(),
            "node 2: 10 CPU cores requested, 6 free of 64 (it collides with an earlier grant of "
            "this allocation)");
  over.nodes = {{3, 1, 1}};
  EXPECT_EQ(state_.CheckAllocation(over).message(),
            "node 3 does not exist (the fleet has 3 nodes)");
  state_.Release(a);
  EXPECT_EQ(state_.FreeCpuCores(2), 64);
  state_.CheckInvariants();
}

TEST_F(FleetStateTest, ReleaseRestoresState) {
  Allocation a = Gpus({Grant::Whole(3), Grant::Mig(4, Profile("2g.20gb"), 2),
                       Grant::Mig(9, Profile("3g.40gb"), 0), Grant::Fraction(20, 333, 7.5)});
  a.nodes = {{2, 8, 64}};
  state_.Apply(a);
  EXPECT_EQ(state_.free_whole_gpus(), 13);
  state_.CheckInvariants();
  state_.Release(a);
  EXPECT_EQ(state_.free_whole_gpus(), 16);
  for (GpuId gpu = 0; gpu < 24; ++gpu) {
    EXPECT_FALSE(state_.IsHeldWhole(gpu));
    EXPECT_TRUE(state_.Mig(gpu).empty());
    EXPECT_EQ(state_.Fractions(gpu), 0);
  }
  EXPECT_EQ(state_.FreeCpuCores(2), 64);
  EXPECT_EQ(state_.FreeMemoryGb(2), 512);
  state_.CheckInvariants();
}

TEST_F(FleetStateTest, ReleasingWhatIsNotHeldDies) {
  EXPECT_DEATH(state_.Release(Gpus({Grant::Whole(0)})), "not held whole");
  EXPECT_DEATH(state_.Apply(Gpus({Grant::Whole(8)})), "does not fit");
}

TEST(FleetStateBareTest, BareFleetHasNoMemoryOrNodeLimits) {
  FleetSpec spec;
  spec.gpus = 4;  // {"gpus": 4}: no model, one node
  const Topology topology(spec);
  FleetState state(spec, topology);
  EXPECT_EQ(state.repartition_seconds(), 0);
  Allocation a;
  a.gpus = {Grant::Whole(0), Grant::Fraction(1, 500, 1000)};
  a.nodes = {{0, 1e4, 1e6}};
  EXPECT_EQ(state.CheckAllocation(a).message(), "");
  state.Apply(a);
  EXPECT_EQ(state.free_whole_gpus(), 2);
  const Catalog catalog = BuiltinCatalog();
  const MigProfile& one_g = *catalog.FindGpu("H100-SXM")->FindMigProfile("1g.10gb");
  EXPECT_EQ(state.CheckAllocation({{Grant::Mig(2, one_g, 0)}, {}}).message(),
            "GPU 2 is not a MIG GPU (the fleet has MIG off)");
  const FleetState moved = std::move(state);  // moves keep the state (and its pointers) valid
  EXPECT_EQ(moved.free_whole_gpus(), 2);
  moved.CheckInvariants();
}

// ---- Property test against a reference model. ----

// The same rules, written the plain way: per GPU the owner of the whole GPU, the MIG instances
// with their owners (checked slice by slice), and the fractions; per node the sums.
class Reference {
 public:
  struct Instance {
    const MigProfile* profile = nullptr;
    int start = 0;
    int owner = 0;
  };
  struct Share {
    int milli = 0;
    double memory_gb = 0;
    int owner = 0;
  };
  struct Gpu {
    int whole_owner = -1;
    std::vector<Instance> instances{};
    std::vector<Share> shares{};
  };
  struct Node {
    std::vector<Share> shares{};  // milli unused; memory_gb and cpu in `cpu`
    std::vector<std::pair<double, int>> cpu{};
  };

  static constexpr int kTentative = 1 << 30;  // owner of grants being checked
  enum class PoolKind { kDynamic, kStatic, kPlain };
  static PoolKind KindOf(GpuId gpu) { return static_cast<PoolKind>(gpu / 8); }

  bool Legal(const Allocation& a) const {
    Reference copy = *this;
    for (const Grant& g : a.gpus) {
      if (g.gpu >= 24 || !copy.GrantLegal(g)) {
        return false;
      }
      copy.ApplyGrant(g, kTentative);
    }
    for (const NodeShare& s : a.nodes) {
      if (s.node >= 3 || !copy.ShareLegal(s)) {
        return false;
      }
      copy.ApplyShare(s, kTentative);
    }
    return true;
  }

  void Apply(const Allocation& a, int owner) {
    for (const Grant& g : a.gpus) {
      ApplyGrant(g, owner);
    }
    for (const NodeShare& s : a.nodes) {
      ApplyShare(s, owner);
    }
  }

  void Release(int owner) {
    for (Gpu& gpu : gpus_) {
      if (gpu.whole_owner == owner) {
        gpu.whole_owner = -1;
      }
      std::erase_if(gpu.instances, [&](const Instance& i) { return i.owner == owner; });
      std::erase_if(gpu.shares, [&](const Share& s) { return s.owner == owner; });
    }
    for (Node& node : nodes_) {
      std::erase_if(node.shares, [&](const Share& s) { return s.owner == owner; });
      std::erase_if(node.cpu, [&](const std::pair<double, int>& c) { return c.second == owner; });
    }
  }

  const Gpu& gpu(GpuId id) const { return gpus_[id]; }
  bool Idle(GpuId id) const {
    const Gpu& g = gpus_[id];
    return g.whole_owner < 0 && g.instances.empty() && g.shares.empty();
  }
  int UsedMilli(GpuId id) const {
    int sum = 0;
    for (const Share& s : gpus_[id].shares) {
      sum += s.milli;
    }
    return sum;
  }
  double UsedMemory(GpuId id) const {
    double sum = 0;
    for (const Share& s : gpus_[id].shares) {
      sum += s.memory_gb;
    }
    return sum;
  }
  double NodeCpu(NodeId id) const {
    double sum = 0;
    for (const auto& c : nodes_[id].cpu) {
      sum += c.first;
    }
    return sum;
  }
  double NodeMemory(NodeId id) const {
    double sum = 0;
    for (const Share& s : nodes_[id].shares) {
      sum += s.memory_gb;
    }
    return sum;
  }

 private:
  bool GrantLegal(const Grant& g) const {
    const Gpu& gpu = gpus_[g.gpu];
    const PoolKind kind = KindOf(g.gpu);
    switch (g.kind) {
      case Grant::Kind::kWhole:
        return kind != PoolKind::kStatic && Idle(g.gpu);
      case Grant::Kind::kFraction:
        return g.milli >= 1 && g.milli <= 1000 && g.gpu_memory_gb >= 0 &&
               kind != PoolKind::kStatic && gpu.whole_owner < 0 && gpu.instances.empty() &&
               UsedMilli(g.gpu) + g.milli <= 1000 && UsedMemory(g.gpu) + g.gpu_memory_gb <= 80;
      case Grant::Kind::kMig:
        if (kind == PoolKind::kPlain) {
          return false;
        }
        if (kind == PoolKind::kStatic) {
          const bool slot = g.profile->name == "3g.40gb" && (g.start == 0 || g.start == 4);
          return slot && std::none_of(gpu.instances.begin(), gpu.instances.end(),
                                      [&](const Instance& i) { return i.start == g.start; });
        }
        return gpu.whole_owner < 0 && gpu.shares.empty() && MigFits(gpu, *g.profile, g.start);
    }
    return false;
  }

  static bool MigFits(const Gpu& gpu, const MigProfile& p, int start) {
    if (std::find(p.starts.begin(), p.starts.end(), start) == p.starts.end()) {
      return false;
    }
    int same = 0;
    int media = 0;
    for (const Instance& i : gpu.instances) {
      same += i.profile->name == p.name ? 1 : 0;
      media += i.profile->media_extensions ? 1 : 0;
      for (int s = start; s < start + p.memory_slices; ++s) {
        if (s >= i.start && s < i.start + i.profile->memory_slices) {
          return false;  // memory slice s taken
        }
      }
      for (int s = start; s < start + p.compute_slices; ++s) {
        if (s >= i.start && s < i.start + i.profile->compute_slices) {
          return false;  // compute slice s taken
        }
      }
    }
    return gpu.instances.size() < 7 && same < p.max_instances &&
           (!p.media_extensions || media == 0);
  }

  bool ShareLegal(const NodeShare& s) const {
    if (s.node != 2) {
      return true;  // unlimited
    }
    return NodeCpu(s.node) + s.cpu_cores <= 64 && NodeMemory(s.node) + s.memory_gb <= 512;
  }

  void ApplyGrant(const Grant& g, int owner) {
    Gpu& gpu = gpus_[g.gpu];
    switch (g.kind) {
      case Grant::Kind::kWhole:
        gpu.whole_owner = owner;
        return;
      case Grant::Kind::kMig:
        gpu.instances.push_back({g.profile, g.start, owner});
        return;
      case Grant::Kind::kFraction:
        gpu.shares.push_back({g.milli, g.gpu_memory_gb, owner});
        return;
    }
  }

  void ApplyShare(const NodeShare& s, int owner) {
    nodes_[s.node].shares.push_back({0, s.memory_gb, owner});
    nodes_[s.node].cpu.emplace_back(s.cpu_cores, owner);
  }

  std::vector<Gpu> gpus_ = std::vector<Gpu>(24);
  std::vector<Node> nodes_ = std::vector<Node>(3);
};

template <typename T>
T Pick(std::mt19937_64& rng, const std::vector<T>& values) {
  std::uniform_int_distribution<std::size_t> index(0, values.size() - 1);
  return values[index(rng)];
}

bool Chance(std::mt19937_64& rng, double p) { return std::bernoulli_distribution(p)(rng); }

class RandomAllocations {
 public:
  RandomAllocations(const GpuModel& model, std::uint64_t seed) : model_(model), rng_(seed) {}

  Allocation Next() {
    Allocation a;
    const int grants = Pick(rng_, std::vector<int>{0, 1, 1, 1, 2, 2, 3});
    for (int i = 0; i < grants; ++i) {
      const bool reuse = !a.gpus.empty() && Chance(rng_, 0.3);
      const GpuId gpu = reuse ? a.gpus.back().gpu : Gpu();
      a.gpus.push_back(MakeGrant(gpu));
    }
    const int shares = Pick(rng_, std::vector<int>{0, 0, 1, 1, 2});
    for (int i = 0; i < shares; ++i) {
      const NodeId node = Chance(rng_, 0.01) ? 3 : Pick(rng_, std::vector<NodeId>{0, 1, 2, 2});
      a.nodes.push_back({node, Pick(rng_, std::vector<double>{0, 1, 8, 16, 32, 65}),
                         Pick(rng_, std::vector<double>{0, 16, 128, 256, 513})});
    }
    return a;
  }

 private:
  GpuId Gpu() {
    return Chance(rng_, 0.01) ? 24 : std::uniform_int_distribution<GpuId>(0, 23)(rng_);
  }

  Grant MakeGrant(GpuId gpu) {
    const int kind = std::uniform_int_distribution<int>(0, 2)(rng_);
    if (kind == 0) {
      return Grant::Whole(gpu);
    }
    if (kind == 1) {
      return Grant::Fraction(gpu,
                             Pick(rng_, std::vector<int>{0, 1, 100, 250, 500, 750, 1000, 1001}),
                             Pick(rng_, std::vector<double>{0, 0.5, 10, 20, 40, 79.5, 80, 81}));
    }
    if (gpu >= 8 && gpu < 16 && Chance(rng_, 0.6)) {
      return Grant::Mig(gpu, *model_.FindMigProfile("3g.40gb"), Pick(rng_, std::vector<int>{0, 4}));
    }
    const MigProfile& profile = Pick(rng_, ProfilePointers());
    const int start = Chance(rng_, 0.8) ? Pick(rng_, profile.starts)
                                        : std::uniform_int_distribution<int>(0, 7)(rng_);
    return Grant::Mig(gpu, profile, start);
  }

  std::vector<std::reference_wrapper<const MigProfile>> ProfilePointers() const {
    return {model_.mig_profiles.begin(), model_.mig_profiles.end()};
  }

  const GpuModel& model_;
  std::mt19937_64 rng_;
};

void ExpectSameState(const FleetState& state, const Reference& ref) {
  std::int64_t free_whole = 0;
  for (GpuId gpu = 0; gpu < 24; ++gpu) {
    const Reference::Gpu& r = ref.gpu(gpu);
    const bool is_static = Reference::KindOf(gpu) == Reference::PoolKind::kStatic;
    free_whole += !is_static && ref.Idle(gpu) ? 1 : 0;
    ASSERT_EQ(state.IsHeldWhole(gpu), r.whole_owner >= 0) << "GPU " << gpu;
    ASSERT_EQ(state.Mig(gpu).instances(), static_cast<int>(r.instances.size())) << "GPU " << gpu;
    ASSERT_EQ(state.Fractions(gpu), static_cast<int>(r.shares.size())) << "GPU " << gpu;
    const bool shareable = !is_static && r.whole_owner < 0 && r.instances.empty();
    ASSERT_EQ(state.FreeMilli(gpu), shareable ? 1000 - ref.UsedMilli(gpu) : 0) << "GPU " << gpu;
    ASSERT_EQ(state.FreeGpuMemoryGb(gpu), shareable ? 80 - ref.UsedMemory(gpu) : 0);
    ASSERT_EQ(state.CanRepartition(gpu), gpu < 8 && ref.Idle(gpu));
  }
  ASSERT_EQ(state.free_whole_gpus(), free_whole);
  ASSERT_EQ(state.FreeCpuCores(2), 64 - ref.NodeCpu(2));
  ASSERT_EQ(state.FreeMemoryGb(2), 512 - ref.NodeMemory(2));
}

void CountGrants(const Allocation& a, std::map<std::string, int>& applied) {
  for (const Grant& g : a.gpus) {
    switch (g.kind) {
      case Grant::Kind::kWhole:
        ++applied["whole"];
        break;
      case Grant::Kind::kMig:
        ++applied[g.gpu < 8 ? "dynamic mig" : "static mig"];
        break;
      case Grant::Kind::kFraction:
        ++applied["fraction"];
        break;
    }
  }
  applied["node"] += static_cast<int>(a.nodes.size());
}

TEST_F(FleetStateTest, PropertyMatchesReferenceModel) {
  Reference ref;
  RandomAllocations random(spec_.pools[0].gpu, 20260601);
  std::mt19937_64 rng(7);
  std::vector<std::pair<Allocation, int>> live;
  int legal = 0;
  int illegal = 0;
  std::map<std::string, int> applied;  // grants applied, by kind
  for (int step = 0; step < 20'000; ++step) {
    if (!live.empty() && Chance(rng, 0.4)) {
      const std::size_t i = std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
      state_.Release(live[i].first);
      ref.Release(live[i].second);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      const Allocation a = random.Next();
      const std::string why = state_.CheckAllocation(a).message();
      const bool expected = ref.Legal(a);
      ASSERT_EQ(why.empty(), expected) << "step " << step << ": " << why;
      if (expected) {
        state_.Apply(a);
        ref.Apply(a, step);
        live.emplace_back(a, step);
        ++legal;
        CountGrants(a, applied);
      } else {
        ++illegal;
      }
    }
    state_.CheckInvariants();
    ExpectSameState(state_, ref);
    if (HasFatalFailure()) {
      FAIL() << "state differs from the reference after step " << step;
    }
  }
  // Both outcomes are exercised often.
  EXPECT_GT(legal, 2000);
  EXPECT_GT(illegal, 2000);
  for (const char* kind : {"whole", "dynamic mig", "static mig", "fraction", "node"}) {
    EXPECT_GT(applied[kind], 500) << kind;
  }
}

}  // namespace
}  // namespace fleetsim
