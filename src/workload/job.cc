// Workload ordering.
#include "fleetsim/workload/job.h"

#include <algorithm>

namespace fleetsim {

void SortBySubmit(Workload& workload) {
  std::stable_sort(workload.jobs.begin(), workload.jobs.end(), [](const Job& a, const Job& b) {
    if (a.request.submit != b.request.submit) {
      return a.request.submit < b.request.submit;
    }
    return a.request.id < b.request.id;
  });
}

}  // namespace fleetsim
