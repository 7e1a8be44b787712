// Which reports are runs of one scenario.
#include "fleetsim/results/run_report.h"

namespace fleetsim {

bool SameScenario(const RunReport& a, const RunReport& b) {
  return a.scenario.name == b.scenario.name;
}

}  // namespace fleetsim
