// FLEETSIM_CHECK: invariants that must hold whatever the input. A failed check is a bug in
// fleetsim, not bad input, so it prints where and why and aborts. Checks stay on in every build:
// they guard the simulator's own state, are cheap, and a wrong result is worse than a crash.
#pragma once

namespace fleetsim::detail {
[[noreturn]] void CheckFailed(const char* file, int line, const char* condition, const char* what);
}  // namespace fleetsim::detail

#define FLEETSIM_CHECK(condition, what)                                      \
  do {                                                                       \
    if (!(condition)) {                                                      \
      ::fleetsim::detail::CheckFailed(__FILE__, __LINE__, #condition, what); \
    }                                                                        \
  } while (false)
