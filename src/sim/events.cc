// Names of event enumerations, as reports and logs print them.
#include "fleetsim/sim/events.h"

namespace fleetsim {

const char* StopCauseName(StopCause cause) {
  switch (cause) {
    case StopCause::kPolicy:
      return "policy";
    case StopCause::kSpotReclaim:
      return "spot-reclaim";
    case StopCause::kHardwareFailure:
      return "hardware-failure";
  }
  return "?";
}

}  // namespace fleetsim
