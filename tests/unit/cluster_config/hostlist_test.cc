// Slurm host lists: ranges with their zero padding, several groups, commas inside and outside
// brackets, and every malformed form refused with what is wrong.
#include "cluster_config/hostlist.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fleetsim {
namespace {

std::vector<std::string> Hosts(const std::string& expression) {
  std::vector<std::string> hosts;
  const Status status = ExpandHostList(expression, hosts);
  EXPECT_TRUE(status.ok()) << status.message();
  return hosts;
}

std::string Error(const std::string& expression) {
  std::vector<std::string> hosts;
  return ExpandHostList(expression, hosts).message();
}

TEST(HostListTest, ExpandsRangesKeepingTheirPadding) {
  EXPECT_EQ(Hosts("gpu-node[01-03]"),
            (std::vector<std::string>{"gpu-node01", "gpu-node02", "gpu-node03"}));
  EXPECT_EQ(Hosts("n[8-11]"), (std::vector<std::string>{"n8", "n9", "n10", "n11"}));
  EXPECT_EQ(Hosts("a[1-2,5],b7"), (std::vector<std::string>{"a1", "a2", "a5", "b7"}));
  EXPECT_EQ(Hosts("r[1-2]-n[1-2]"), (std::vector<std::string>{"r1-n1", "r1-n2", "r2-n1", "r2-n2"}));
  EXPECT_EQ(Hosts("login"), std::vector<std::string>{"login"});
  EXPECT_EQ(Hosts("/dev/nvidia[0-7]").size(), 8U);
  EXPECT_EQ(Hosts("d13n[03,05,07-08,16]"),
            (std::vector<std::string>{"d13n03", "d13n05", "d13n07", "d13n08", "d13n16"}));
}

TEST(HostListTest, RefusesWhatDoesNotParse) {
  EXPECT_EQ(Error("n[1-2"), "host list 'n[1-2': a '[' is not closed");
  EXPECT_EQ(Error("n1-2]"), "host list 'n1-2]': a ']' without its '['");
  EXPECT_EQ(Error("n[2-1]"), "host list 'n[2-1]': range '2-1' runs backwards");
  EXPECT_EQ(Error("n[a-b]"),
            "host list 'n[a-b]': expected numbers or ranges like 01-08 in brackets, found 'a-b'");
  EXPECT_EQ(Error("n[]"),
            "host list 'n[]': expected numbers or ranges like 01-08 in brackets, found ''");
  EXPECT_EQ(Error("a,,b"), "host list 'a,,b': an empty host name");
  EXPECT_EQ(Error("n[0-999999999]"), "host list 'n[0-999999999]': more than 1000000 hosts");
  EXPECT_EQ(Error("a[0-999]b[0-9999]"), "host list 'a[0-999]b[0-9999]': more than 1000000 hosts");
}

}  // namespace
}  // namespace fleetsim
