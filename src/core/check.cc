// The failure path of FLEETSIM_CHECK.
#include "fleetsim/core/check.h"

#include <cstdio>
#include <cstdlib>

namespace fleetsim::detail {

void CheckFailed(const char* file, int line, const char* condition, const char* what) {
  std::fprintf(stderr, "fleetsim: internal error at %s:%d: check '%s' failed: %s\n", file, line,
               condition, what);
  std::abort();
}

}  // namespace fleetsim::detail
