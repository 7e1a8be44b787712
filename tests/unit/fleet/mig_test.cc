// MIG geometry on an H100-80GB profile table built here (docs/domain-data.md §1.1): admission
// and its messages, the stranded compute slice of a 3g at 0, BestStart, static layouts and their
// explanations, a long random Place/Remove sequence against a per-slice reference model, and
// the enumeration of every placeable layout.
#include "fleetsim/fleet/mig.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/fleet/gpu_model.h"

namespace fleetsim {
namespace {

MigProfile Profile(std::string name, int compute, int memory, std::vector<int> starts,
                   int max_instances, double memory_gb, bool media_extensions = false) {
  return {.name = std::move(name),
          .compute_slices = compute,
          .memory_slices = memory,
          .starts = std::move(starts),
          .max_instances = max_instances,
          .media_extensions = media_extensions,
          .memory_gb = memory_gb};
}

GpuModel H100() {
  GpuModel model;
  model.name = "H100-SXM";
  model.memory_gb = 80;
  model.mig_profiles = {
      Profile("1g.10gb", 1, 1, {0, 1, 2, 3, 4, 5, 6}, 7, 10),
      Profile("1g.10gb+me", 1, 1, {0, 1, 2, 3, 4, 5, 6}, 1, 10, true),
      Profile("1g.20gb", 1, 2, {0, 2, 4, 6}, 4, 20),
      Profile("2g.20gb", 2, 2, {0, 2, 4}, 3, 20),
      Profile("3g.40gb", 3, 4, {0, 4}, 2, 40),
      Profile("4g.40gb", 4, 4, {0}, 1, 40),
      Profile("7g.80gb", 7, 8, {0}, 1, 80),
  };
  return model;
}

class MigTest : public ::testing::Test {
 protected:
  const MigProfile& P(const std::string& name) const {
    const MigProfile* profile = h100_.FindMigProfile(name);
    EXPECT_NE(profile, nullptr) << name;
    return *profile;
  }
  std::vector<std::pair<std::string, int>> Placed(const LayoutCheck& check) const {
    std::vector<std::pair<std::string, int>> out;
    for (const MigPlacement& placement : check.placements) {
      out.emplace_back(placement.profile->name, placement.start);
    }
    return out;
  }

  GpuModel h100_ = H100();
  MigGpuState state_;
};

using Placements = std::vector<std::pair<std::string, int>>;

// ---- GpuModel. ----

TEST_F(MigTest, FindMigProfileMatchesExactNames) {
  ASSERT_NE(h100_.FindMigProfile("3g.40gb"), nullptr);
  EXPECT_EQ(h100_.FindMigProfile("3g.40gb")->compute_slices, 3);
  EXPECT_EQ(h100_.FindMigProfile("3g.40GB"), nullptr);
  EXPECT_EQ(h100_.FindMigProfile("3g"), nullptr);
  EXPECT_FALSE(GpuModel().supports_mig());
}

// ---- MigGpuState. ----

TEST_F(MigTest, ThreeGAtZeroStrandsComputeSliceThree) {
  EXPECT_EQ(state_.free_compute_slices(), 7);
  state_.Place(P("3g.40gb"), 0);
  EXPECT_EQ(state_.memory_mask(), 0b0000'1111);
  EXPECT_EQ(state_.compute_mask(), 0b0000'0111);
  // Compute slice 3 is unused, but its memory slice is taken: only 4, 5 and 6 remain usable.
  EXPECT_EQ(state_.free_compute_slices(), 3);
  EXPECT_EQ(state_.CheckPlacement(P("1g.10gb"), 3).message(),
            "memory slice 3 overlaps 3g.40gb at 0");
  EXPECT_FALSE(state_.CanPlace(P("4g.40gb"), 0));
  state_.Place(P("3g.40gb"), 4);
  EXPECT_EQ(state_.compute_mask(), 0b0111'0111);  // 3g + 3g: 6 of the 7 compute slices
  EXPECT_EQ(state_.free_compute_slices(), 0);
  EXPECT_EQ(state_.instances(), 2);
}

TEST_F(MigTest, FourGAndThreeGShareAGpu) {
  state_.Place(P("4g.40gb"), 0);
  EXPECT_TRUE(state_.CanPlace(P("3g.40gb"), 4));
  EXPECT_EQ(state_.CheckPlacement(P("3g.40gb"), 0).message(),
            "memory slices 0-3 overlap 4g.40gb at 0");
  state_.Place(P("3g.40gb"), 4);
  EXPECT_EQ(state_.memory_mask(), 0xFF);
  EXPECT_EQ(state_.compute_mask(), 0x7F);
  EXPECT_EQ(state_.CheckPlacement(P("3g.40gb"), 4).message(),
            "memory slices 4-7 overlap 3g.40gb at 4");
}

TEST_F(MigTest, ValidStarts) {
  EXPECT_EQ(state_.CheckPlacement(P("2g.20gb"), 6).message(),
            "start 6 is not a valid start for 2g.20gb (valid: 0, 2, 4)");
  EXPECT_EQ(state_.CheckPlacement(P("3g.40gb"), 2).message(),
            "start 2 is not a valid start for 3g.40gb (valid: 0, 4)");
  EXPECT_EQ(state_.CheckPlacement(P("1g.10gb"), 7).message(),
            "start 7 is not a valid start for 1g.10gb (valid: 0, 1, 2, 3, 4, 5, 6)");
  EXPECT_FALSE(state_.CanPlace(P("1g.20gb"), 5));
  ASSERT_TRUE(state_.CanPlace(P("1g.20gb"), 6));
  state_.Place(P("1g.20gb"), 6);
  EXPECT_EQ(state_.memory_mask(), 0b1100'0000);   // memory slices 6 and 7
  EXPECT_EQ(state_.compute_mask(), 0b0100'0000);  // compute slice 6 only
  EXPECT_EQ(state_.CheckPlacement(P("1g.10gb"), 6).message(),
            "memory slice 6 overlaps 1g.20gb at 6");
}

TEST_F(MigTest, ProfileMaximum) {
  for (const int start : {0, 2, 4}) {
    state_.Place(P("2g.20gb"), start);
  }
  // The cap is reported before the (also true) overlap.
  EXPECT_EQ(state_.CheckPlacement(P("2g.20gb"), 0).message(),
            "2g.20gb already has its maximum of 3 instances");
  EXPECT_TRUE(state_.CanPlace(P("1g.20gb"), 6));
  MigGpuState other;
  other.Place(P("4g.40gb"), 0);
  EXPECT_EQ(other.CheckPlacement(P("4g.40gb"), 0).message(),
            "4g.40gb already has its maximum of 1 instance");
}

TEST_F(MigTest, OneMediaExtensionInstance) {
  state_.Place(P("1g.10gb+me"), 0);
  EXPECT_EQ(state_.CheckPlacement(P("1g.10gb+me"), 3).message(),
            "a +me instance is already placed (one per GPU)");
  EXPECT_TRUE(state_.CanPlace(P("1g.10gb"), 3));
  state_.Remove(P("1g.10gb+me"), 0);
  EXPECT_TRUE(state_.CanPlace(P("1g.10gb+me"), 3));
}

TEST_F(MigTest, SevenInstanceCap) {
  for (int start = 0; start < 6; ++start) {
    state_.Place(P("1g.10gb"), start);
  }
  state_.Place(P("1g.10gb+me"), 6);
  EXPECT_EQ(state_.instances(), 7);
  EXPECT_EQ(state_.memory_mask(), 0x7F);  // memory slice 7 is free, but nothing can use it
  EXPECT_EQ(state_.CheckPlacement(P("1g.20gb"), 6).message(),
            "7 instances already placed (the most a GPU holds)");
  EXPECT_EQ(state_.CheckPlacement(P("1g.10gb"), 0).message(),
            "7 instances already placed (the most a GPU holds)");
  EXPECT_EQ(state_.BestStart(P("1g.10gb"), h100_.mig_profiles), std::nullopt);
  EXPECT_EQ(state_.free_compute_slices(), 0);
}

TEST_F(MigTest, RemoveRestoresState) {
  state_.Place(P("2g.20gb"), 0);
  state_.Place(P("1g.10gb"), 2);
  state_.Place(P("3g.40gb"), 4);
  const std::uint8_t memory = state_.memory_mask();
  const std::uint8_t compute = state_.compute_mask();
  state_.Place(P("1g.10gb+me"), 3);
  state_.Remove(P("1g.10gb+me"), 3);
  EXPECT_EQ(state_.memory_mask(), memory);
  EXPECT_EQ(state_.compute_mask(), compute);
  state_.Remove(P("1g.10gb"), 2);
  ASSERT_EQ(state_.placements().size(), 2U);
  EXPECT_EQ(state_.placements()[0].profile->name, "2g.20gb");
  EXPECT_EQ(state_.placements()[1].profile->name, "3g.40gb");
  EXPECT_TRUE(state_.CanPlace(P("2g.20gb"), 2));
  state_.Remove(P("2g.20gb"), 0);
  state_.Remove(P("3g.40gb"), 4);
  EXPECT_TRUE(state_.empty());
  EXPECT_EQ(state_.memory_mask(), 0);
  EXPECT_EQ(state_.compute_mask(), 0);
  EXPECT_EQ(state_.free_compute_slices(), 7);
  EXPECT_TRUE(state_.CanPlace(P("7g.80gb"), 0));
  // The per-profile count went back to zero too: three 2g fit again.
  for (const int start : {0, 2, 4}) {
    state_.Place(P("2g.20gb"), start);
  }
  EXPECT_EQ(state_.instances(), 3);
}

TEST_F(MigTest, RemoveOfAnAbsentInstanceIsABug) {
  state_.Place(P("2g.20gb"), 0);
  EXPECT_DEATH(state_.Remove(P("2g.20gb"), 2), "not placed");
  EXPECT_DEATH(state_.Place(P("2g.20gb"), 0), "does not fit");
}

// On an empty GPU every start of a small profile blocks the 7g. Starts 0-3 of a 1g also block
// the 4g (its only start is 0, memory 0-3); starts 4-6 block nothing else (the 3g still fits at
// 0, the 2g at 0 or 2, the 1g.20gb at 0 or 2), so they tie and the lowest, 4, wins. Likewise a
// 2g, a 1g.20gb and a 3g go to 4: the 3g at 4 is exactly the 4g + 3g layout.
TEST_F(MigTest, BestStartOnAnEmptyGpuKeepsTheFourGPlaceable) {
  const std::vector<MigProfile>& all = h100_.mig_profiles;
  EXPECT_EQ(state_.BestStart(P("1g.10gb"), all), 4);
  EXPECT_EQ(state_.BestStart(P("1g.10gb+me"), all), 4);
  EXPECT_EQ(state_.BestStart(P("1g.20gb"), all), 4);
  EXPECT_EQ(state_.BestStart(P("2g.20gb"), all), 4);
  EXPECT_EQ(state_.BestStart(P("3g.40gb"), all), 4);
  EXPECT_EQ(state_.BestStart(P("4g.40gb"), all), 0);
  EXPECT_EQ(state_.BestStart(P("7g.80gb"), all), 0);
}

// Next to a 4g (memory 0-3) a 1g at 4 or 5 leaves no start for a 2g (0 and 2 are under the 4g, 4
// needs memory 4-5); at 6 it leaves the 2g at 4. Then a 1g.20gb can only go to 4.
TEST_F(MigTest, BestStartKeepsTheTwoGPlaceableNextToAFourG) {
  const std::vector<MigProfile>& all = h100_.mig_profiles;
  state_.Place(P("4g.40gb"), 0);
  EXPECT_EQ(state_.BestStart(P("1g.10gb"), all), 6);
  EXPECT_EQ(state_.BestStart(P("3g.40gb"), all), 4);
  EXPECT_EQ(state_.BestStart(P("4g.40gb"), all), std::nullopt);  // at its maximum
  EXPECT_EQ(state_.BestStart(P("7g.80gb"), all), std::nullopt);  // no free start
  state_.Place(P("1g.10gb"), 6);
  EXPECT_EQ(state_.BestStart(P("1g.20gb"), all), 4);
  EXPECT_EQ(state_.BestStart(P("2g.20gb"), all), 4);
}

// A 3g at 4 leaves memory 0-3: a 2g at 0 or 2 keeps the other 2g start, a tie won by 0; a 1g at 0
// or 1 blocks the 2g at 0 but not the 2g at 2, while at 2 or 3 it leaves the 2g at 0, so all four
// tie at the profile level and 0 wins.
TEST_F(MigTest, BestStartTiesGoToTheLowestStart) {
  const std::vector<MigProfile>& all = h100_.mig_profiles;
  state_.Place(P("3g.40gb"), 4);
  EXPECT_EQ(state_.BestStart(P("2g.20gb"), all), 0);
  EXPECT_EQ(state_.BestStart(P("1g.10gb"), all), 0);
  // The second 3g at 0 blocks everything; it is still its only start.
  EXPECT_EQ(state_.BestStart(P("3g.40gb"), all), 0);
}

// ---- PlaceLayout. ----

TEST_F(MigTest, LayoutFourGPlusThreeG) {
  const LayoutCheck check = PlaceLayout(h100_, {{"4g.40gb", 1}, {"3g.40gb", 1}});
  EXPECT_EQ(check.status.message(), "");
  EXPECT_EQ(Placed(check), (Placements{{"4g.40gb", 0}, {"3g.40gb", 4}}));
}

TEST_F(MigTest, LayoutFourGPlusFourGIsExplained) {
  const LayoutCheck check = PlaceLayout(h100_, {{"4g.40gb", 2}});
  EXPECT_TRUE(check.placements.empty());
  EXPECT_EQ(check.status.message(),
            "4g.40gb ×2 cannot be placed: 4g.40gb can only start at memory slice 0, so the second "
            "instance overlaps the first (memory slices 0-3); and 4 + 4 compute slices exceed the "
            "GPU's 7");
}

TEST_F(MigTest, LayoutCollisionsNameEveryOccupant) {
  EXPECT_EQ(PlaceLayout(h100_, {{"4g.40gb", 1}, {"3g.40gb", 1}, {"1g.10gb", 1}}).status.message(),
            "4g.40gb + 3g.40gb + 1g.10gb cannot be placed: 1g.10gb can only start at memory slices "
            "0, 1, 2, 3, 4, 5 or 6, so it overlaps 4g.40gb (memory slices 0-3) and 3g.40gb (memory "
            "slices 4-7); and 4 + 3 + 1 compute slices exceed the GPU's 7 and 4 + 4 + 1 memory "
            "slices exceed the GPU's 8");
  // 3 + 3 + 1 compute slices fit; the memory does not.
  EXPECT_EQ(PlaceLayout(h100_, {{"3g.40gb", 2}, {"1g.10gb", 1}}).status.message(),
            "3g.40gb ×2 + 1g.10gb cannot be placed: 1g.10gb can only start at memory slices 0, 1, "
            "2, 3, 4, 5 or 6, so it overlaps 3g.40gb (memory slices 0-3) and 3g.40gb (memory "
            "slices 4-7); and 4 + 4 + 1 memory slices exceed the GPU's 8");
  EXPECT_EQ(PlaceLayout(h100_, {{"2g.20gb", 4}}).status.message(),
            "2g.20gb ×4 cannot be placed: 2g.20gb can only start at memory slices 0, 2 or 4, so "
            "the fourth instance overlaps the first (memory slices 0-1), the second (memory slices "
            "2-3) and the third (memory slices 4-5); and 2 + 2 + 2 + 2 compute slices exceed the "
            "GPU's 7");
}

TEST_F(MigTest, LayoutThreeGPlusThreeG) {
  const LayoutCheck check = PlaceLayout(h100_, {{"3g.40gb", 2}});
  EXPECT_EQ(check.status.message(), "");
  EXPECT_EQ(Placed(check), (Placements{{"3g.40gb", 0}, {"3g.40gb", 4}}));
}

TEST_F(MigTest, LayoutSearchBacktracks) {
  // Largest first: the 3g is tried at 0 first, which leaves no room for two 2g (2g at 6 is not a
  // valid start), so the search must move it to 4.
  const LayoutCheck check = PlaceLayout(h100_, {{"3g.40gb", 1}, {"2g.20gb", 2}});
  EXPECT_EQ(check.status.message(), "");
  EXPECT_EQ(Placed(check), (Placements{{"3g.40gb", 4}, {"2g.20gb", 0}, {"2g.20gb", 2}}));
  const LayoutCheck mixed = PlaceLayout(h100_, {{"1g.10gb", 3}, {"2g.20gb", 2}});
  EXPECT_EQ(mixed.status.message(), "");
  EXPECT_EQ(
      Placed(mixed),
      (Placements{{"2g.20gb", 0}, {"2g.20gb", 2}, {"1g.10gb", 4}, {"1g.10gb", 5}, {"1g.10gb", 6}}));
}

TEST_F(MigTest, LayoutUnknownProfileSuggestsTheClosest) {
  EXPECT_EQ(PlaceLayout(h100_, {{"3g.4gb", 1}}).status.message(),
            "GPU model H100-SXM has no MIG profile '3g.4gb', did you mean '3g.40gb'? (profiles: "
            "'1g.10gb', '1g.10gb+me', '1g.20gb', '2g.20gb', '3g.40gb', '4g.40gb', '7g.80gb')");
  EXPECT_EQ(PlaceLayout(h100_, {{"mystery", 1}}).status.message(),
            "GPU model H100-SXM has no MIG profile 'mystery' (profiles: '1g.10gb', '1g.10gb+me', "
            "'1g.20gb', '2g.20gb', '3g.40gb', '4g.40gb', '7g.80gb')");
}

TEST_F(MigTest, LayoutOnAGpuWithoutMig) {
  GpuModel l40s;
  l40s.name = "L40S";
  l40s.memory_gb = 48;
  EXPECT_EQ(PlaceLayout(l40s, {{"1g.10gb", 1}}).status.message(),
            "GPU model L40S does not support MIG");
}

TEST_F(MigTest, LayoutCountsAndCaps) {
  EXPECT_EQ(PlaceLayout(h100_, {{"2g.20gb", 0}}).status.message(),
            "2g.20gb: the instance count must be at least 1, found 0");
  EXPECT_EQ(PlaceLayout(h100_, {{"2g.20gb", -2}, {"big", 1}}).status.message(),
            "2g.20gb: the instance count must be at least 1, found -2; GPU model H100-SXM has no "
            "MIG profile 'big' (profiles: '1g.10gb', '1g.10gb+me', '1g.20gb', '2g.20gb', "
            "'3g.40gb', '4g.40gb', '7g.80gb')");
  EXPECT_EQ(PlaceLayout(h100_, {{"1g.10gb", 7}, {"1g.20gb", 1}}).status.message(),
            "8 instances requested, at most 7 per GPU");
  EXPECT_EQ(PlaceLayout(h100_, {{"1g.10gb+me", 2}}).status.message(),
            "1g.10gb+me: 2 instances requested, at most 1 per GPU");
  const LayoutCheck seven = PlaceLayout(h100_, {{"1g.10gb", 6}, {"1g.10gb+me", 1}});
  EXPECT_EQ(seven.status.message(), "");
  EXPECT_EQ(seven.placements.size(), 7U);
  const LayoutCheck empty = PlaceLayout(h100_, {});
  EXPECT_EQ(empty.status.message(), "");
  EXPECT_TRUE(empty.placements.empty());
}

// ---- Property: random Place/Remove against a per-slice owner array. ----

// The reference: who owns each memory and compute slice, and the counts, kept the obvious way.
class ReferenceGpu {
 public:
  explicit ReferenceGpu(const std::vector<MigProfile>& profiles) : profiles_(profiles) {
    owner_memory_.fill(-1);
    owner_compute_.fill(-1);
  }

  bool CanPlace(std::size_t profile, int start) const {
    const MigProfile& p = profiles_[profile];
    bool listed = false;
    for (const int s : p.starts) {
      listed = listed || s == start;
    }
    if (!listed || start + p.memory_slices > 8 || start + p.compute_slices > 7) {
      return false;
    }
    if (static_cast<int>(placed_.size()) >= 7 || CountOf(profile) >= p.max_instances) {
      return false;
    }
    if (p.media_extensions) {
      for (const auto& [other, at] : placed_) {
        if (profiles_[other].media_extensions) {
          return false;
        }
      }
    }
    for (int i = start; i < start + p.memory_slices; ++i) {
      if (owner_memory_[static_cast<std::size_t>(i)] >= 0) {
        return false;
      }
    }
    for (int i = start; i < start + p.compute_slices; ++i) {
      if (owner_compute_[static_cast<std::size_t>(i)] >= 0) {
        return false;
      }
    }
    return true;
  }

  void Set(std::size_t profile, int start, int owner) {
    const MigProfile& p = profiles_[profile];
    for (int i = start; i < start + p.memory_slices; ++i) {
      owner_memory_[static_cast<std::size_t>(i)] = owner;
    }
    for (int i = start; i < start + p.compute_slices; ++i) {
      owner_compute_[static_cast<std::size_t>(i)] = owner;
    }
  }
  void Place(std::size_t profile, int start) {
    Set(profile, start, static_cast<int>(profile));
    placed_.emplace_back(profile, start);
  }
  void RemoveAt(std::size_t index) {
    Set(placed_[index].first, placed_[index].second, -1);
    placed_.erase(placed_.begin() + static_cast<std::ptrdiff_t>(index));
  }

  int CountOf(std::size_t profile) const {
    int count = 0;
    for (const auto& [other, at] : placed_) {
      count += other == profile ? 1 : 0;
    }
    return count;
  }
  std::uint8_t MemoryMask() const { return Mask(owner_memory_); }
  std::uint8_t ComputeMask() const { return Mask(owner_compute_); }
  int FreeComputeSlices() const {
    int free = 0;
    for (std::size_t i = 0; i < 7; ++i) {
      free += owner_compute_[i] < 0 && owner_memory_[i] < 0 ? 1 : 0;
    }
    return free;
  }
  const std::vector<std::pair<std::size_t, int>>& placed() const { return placed_; }

 private:
  template <std::size_t N>
  static std::uint8_t Mask(const std::array<int, N>& owners) {
    unsigned mask = 0;
    for (std::size_t i = 0; i < N; ++i) {
      mask |= owners[i] >= 0 ? 1U << i : 0U;
    }
    return static_cast<std::uint8_t>(mask);
  }

  const std::vector<MigProfile>& profiles_;
  std::array<int, 8> owner_memory_{};
  std::array<int, 7> owner_compute_{};
  std::vector<std::pair<std::size_t, int>> placed_;
};

// BestStart by its definition, through the public API only.
std::optional<int> ReferenceBestStart(const MigGpuState& state, const MigProfile& profile,
                                      const std::vector<MigProfile>& all) {
  std::optional<int> best;
  std::array<int, 7> best_key{};
  for (int start = 0; start < 8; ++start) {
    if (!state.CanPlace(profile, start)) {
      continue;
    }
    MigGpuState after = state;
    after.Place(profile, start);
    std::array<int, 7> key{};
    for (const MigProfile& other : all) {
      bool placeable = false;
      for (int s = 0; s < 8 && !placeable; ++s) {
        placeable = after.CanPlace(other, s);
      }
      key[static_cast<std::size_t>(7 - other.compute_slices)] += placeable ? 1 : 0;
    }
    if (!best || key > best_key) {
      best = start;
      best_key = key;
    }
  }
  return best;
}

TEST_F(MigTest, RandomSequenceMatchesReference) {
  const std::vector<MigProfile>& all = h100_.mig_profiles;
  Rng rng(2024);
  ReferenceGpu reference(all);
  int placed_count = 0;
  for (int step = 0; step < 20000; ++step) {
    const bool remove = !reference.placed().empty() && UniformInt(rng, 0, 9) < 4;
    if (remove) {
      const auto index = static_cast<std::size_t>(
          UniformInt(rng, 0, static_cast<std::int64_t>(reference.placed().size()) - 1));
      const auto [profile, start] = reference.placed()[index];
      state_.Remove(all[profile], start);
      reference.RemoveAt(index);
    } else {
      const auto profile = static_cast<std::size_t>(UniformInt(rng, 0, 6));
      const auto start = static_cast<int>(UniformInt(rng, 0, 7));
      const bool can = reference.CanPlace(profile, start);
      ASSERT_EQ(state_.CanPlace(all[profile], start), can) << all[profile].name << " at " << start;
      if (can) {
        state_.Place(all[profile], start);
        reference.Place(profile, start);
        ++placed_count;
      }
    }
    ASSERT_EQ(state_.memory_mask(), reference.MemoryMask()) << "step " << step;
    ASSERT_EQ(state_.compute_mask(), reference.ComputeMask()) << "step " << step;
    ASSERT_EQ(state_.instances(), static_cast<int>(reference.placed().size()));
    ASSERT_EQ(state_.free_compute_slices(), reference.FreeComputeSlices());
    ASSERT_EQ(state_.placements().size(), reference.placed().size());
    for (std::size_t i = 0; i < reference.placed().size(); ++i) {
      ASSERT_EQ(state_.placements()[i].profile, &all[reference.placed()[i].first]);
      ASSERT_EQ(state_.placements()[i].start, reference.placed()[i].second);
    }
    for (std::size_t profile = 0; profile < all.size(); ++profile) {
      for (int start = 0; start < 8; ++start) {
        const bool can = reference.CanPlace(profile, start);
        ASSERT_EQ(state_.CanPlace(all[profile], start), can)
            << all[profile].name << " at " << start;
        if (step % 10 == 0) {  // CheckPlacement builds a message for each refusal: sample it
          ASSERT_EQ(state_.CheckPlacement(all[profile], start).message().empty(), can);
        }
      }
    }
    if (step % 10 == 0) {
      const MigProfile& profile = all[static_cast<std::size_t>(UniformInt(rng, 0, 6))];
      ASSERT_EQ(state_.BestStart(profile, all), ReferenceBestStart(state_, profile, all))
          << profile.name << " at step " << step;
    }
  }
  EXPECT_GT(placed_count, 4000);  // the sequence exercised placement, not just refusals
}

// ---- Enumeration of every layout of the six non-+me profiles. ----

using Layout = std::map<std::string, int>;

// Every placement of `instances[i..]` on top of `state`, starts increasing within a profile;
// true if some complete placement leaves no free start for any profile in `profiles`.
bool HasDeadEndPlacement(MigGpuState& state, const std::vector<const MigProfile*>& instances,
                         std::size_t i, int min_start,
                         const std::vector<const MigProfile*>& profiles) {
  if (i == instances.size()) {
    for (const MigProfile* profile : profiles) {
      for (const int start : profile->starts) {
        if (state.CanPlace(*profile, start)) {
          return false;
        }
      }
    }
    return true;
  }
  for (const int start : instances[i]->starts) {
    if (start < min_start || !state.CanPlace(*instances[i], start)) {
      continue;
    }
    state.Place(*instances[i], start);
    const bool next_same = i + 1 < instances.size() && instances[i + 1] == instances[i];
    const bool dead_end =
        HasDeadEndPlacement(state, instances, i + 1, next_same ? start + 1 : 0, profiles);
    state.Remove(*instances[i], start);
    if (dead_end) {
      return true;
    }
  }
  return false;
}

TEST_F(MigTest, EnumerationOfPlaceableLayouts) {
  std::vector<const MigProfile*> profiles;
  for (const MigProfile& profile : h100_.mig_profiles) {
    if (!profile.media_extensions) {
      profiles.push_back(&profile);
    }
  }
  ASSERT_EQ(profiles.size(), 6U);
  // Every count vector with 0..max_instances of each profile, at most 7 instances.
  std::vector<Layout> placeable;
  std::vector<int> counts(profiles.size(), 0);
  while (true) {
    std::size_t digit = 0;
    while (digit < counts.size() && counts[digit] == profiles[digit]->max_instances) {
      counts[digit++] = 0;
    }
    if (digit == counts.size()) {
      break;
    }
    ++counts[digit];
    Layout layout;
    for (std::size_t i = 0; i < profiles.size(); ++i) {
      if (counts[i] > 0) {
        layout[profiles[i]->name] = counts[i];
      }
    }
    if (PlaceLayout(h100_, layout).status.message().empty()) {
      placeable.push_back(layout);
    }
  }
  // Maximal as a multiset: adding any one instance makes the layout unplaceable.
  std::set<Layout> maximal;
  std::set<Layout> maximal_using_all_compute;
  int dead_end_layouts = 0;
  for (const Layout& layout : placeable) {
    bool extendable = false;
    for (const MigProfile* profile : profiles) {
      Layout bigger = layout;
      ++bigger[profile->name];
      extendable = extendable || PlaceLayout(h100_, bigger).status.message().empty();
    }
    int compute = 0;
    std::vector<const MigProfile*> instances;
    for (const auto& [name, count] : layout) {
      compute += count * h100_.FindMigProfile(name)->compute_slices;
      instances.insert(instances.end(), static_cast<std::size_t>(count),
                       h100_.FindMigProfile(name));
    }
    if (!extendable) {
      maximal.insert(layout);
      if (compute == 7) {
        maximal_using_all_compute.insert(layout);
      }
    }
    // Maximal as a physical placement: some placement of the layout admits no further instance.
    MigGpuState state;
    dead_end_layouts += HasDeadEndPlacement(state, instances, 0, 0, profiles) ? 1 : 0;
  }
  // docs/domain-data.md §1.1: "77 distinct non-empty profile multisets are placeable".
  EXPECT_EQ(placeable.size(), 77U);
  // The document says 38 are maximal. As multisets (no instance can be added to the layout) 28
  // are; 38 is the number of layouts with at least one placement that cannot be extended (the
  // other 10, e.g. 3g + 1g x3 with the 1g at 4-6, can be extended by placing differently).
  EXPECT_EQ(maximal.size(), 28U);
  EXPECT_EQ(dead_end_layouts, 38);
  // The 17 maximal layouts that use all 7 compute slices, as the document lists them.
  const std::set<Layout> documented = {
      {{"7g.80gb", 1}},
      {{"4g.40gb", 1}, {"3g.40gb", 1}},
      {{"4g.40gb", 1}, {"2g.20gb", 1}, {"1g.10gb", 1}},
      {{"4g.40gb", 1}, {"2g.20gb", 1}, {"1g.20gb", 1}},
      {{"4g.40gb", 1}, {"1g.10gb", 3}},
      {{"4g.40gb", 1}, {"1g.10gb", 2}, {"1g.20gb", 1}},
      {{"3g.40gb", 1}, {"2g.20gb", 2}},
      {{"3g.40gb", 1}, {"2g.20gb", 1}, {"1g.10gb", 2}},
      {{"3g.40gb", 1}, {"1g.10gb", 4}},
      {{"2g.20gb", 3}, {"1g.10gb", 1}},
      {{"2g.20gb", 3}, {"1g.20gb", 1}},
      {{"2g.20gb", 2}, {"1g.10gb", 3}},
      {{"2g.20gb", 2}, {"1g.10gb", 2}, {"1g.20gb", 1}},
      {{"2g.20gb", 1}, {"1g.10gb", 5}},
      {{"2g.20gb", 1}, {"1g.10gb", 4}, {"1g.20gb", 1}},
      {{"1g.10gb", 7}},
      {{"1g.10gb", 6}, {"1g.20gb", 1}},
  };
  EXPECT_EQ(maximal_using_all_compute, documented);
}

}  // namespace
}  // namespace fleetsim
