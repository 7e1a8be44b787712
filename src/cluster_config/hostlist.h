// Slurm host lists: "gpu-node[01-08]", "a[1-3,5],b7", "rack[1-2]-n[1-4]" expanded to host names
// (zero padding kept from the range's first number), as slurm.conf, gres.conf and sacct's NodeList
// write them. Internal to the cluster_config module. Thread-compatible.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/core/status.h"

namespace fleetsim {

// The most hosts one expression may expand to.
inline constexpr std::size_t kMaxHostListHosts = 1'000'000;

// Splits at the commas outside brackets: "a[1-2,5],b7" -> "a[1-2,5]", "b7".
std::vector<std::string_view> SplitHostListItems(std::string_view text);

// Expands `expression` into `hosts` (in the order written). Fails with what is wrong: an
// unclosed '[', an empty or reversed range, text that is not a number, too many hosts.
Status ExpandHostList(std::string_view expression, std::vector<std::string>& hosts);

}  // namespace fleetsim
