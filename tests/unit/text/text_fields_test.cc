// Typed text fields shared by the readers: Slurm memory sizes and Kubernetes quantities, with the
// texts they refuse.
#include "text/text_fields.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace fleetsim {
namespace {

TEST(SizeMibTest, ReadsSlurmSizesRoundedUpToAMebibyte) {
  EXPECT_EQ(SizeMib("199G"), 199 * 1024);
  EXPECT_EQ(SizeMib("32000M"), 32000);
  EXPECT_EQ(SizeMib("1.5T"), 1536 * 1024);
  EXPECT_EQ(SizeMib("512K"), 1);
  EXPECT_EQ(SizeMib("64"), std::nullopt);
  EXPECT_EQ(SizeMib(""), std::nullopt);
}

TEST(KubernetesQuantityTest, ReadsEverySuffix) {
  EXPECT_EQ(KubernetesQuantity("12"), 12.0);
  EXPECT_DOUBLE_EQ(KubernetesQuantity("7910m").value_or(0), 7.91);
  EXPECT_EQ(KubernetesQuantity("64Gi"), 64.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(KubernetesQuantity("87425380Ki"), 87425380.0 * 1024);
  EXPECT_EQ(KubernetesQuantity("500M"), 5e8);
  EXPECT_EQ(KubernetesQuantity("1e3"), 1000.0);
  EXPECT_EQ(KubernetesQuantity("+2"), 2.0);
}

TEST(KubernetesQuantityTest, RefusesWhatIsNotAFiniteQuantity) {
  for (const std::string text :
       {"", "Gi", "-1", "1.5.5", "64GB", "1e308Ki", "1e400", "nan", "inf", "0x10", " 8", "8 "}) {
    EXPECT_EQ(KubernetesQuantity(text), std::nullopt) << text;
  }
}

TEST(AsciiLowerTest, LowersAsciiLettersOnly) { EXPECT_EQ(AsciiLower("H100-SXM é"), "h100-sxm é"); }

}  // namespace
}  // namespace fleetsim
