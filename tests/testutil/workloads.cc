// Small workload builders for tests.
#include "testutil/workloads.h"

namespace fleetsim::testing {

void AddJob(Workload& workload, const std::string& id, double submit_s, std::int64_t gpus,
            double duration_s, std::int64_t priority) {
  Job job;
  job.request.id = id;
  job.request.submit = SecondsToTime(submit_s);
  job.request.gpus = gpus;
  job.request.priority = priority;
  job.truth.duration = SecondsToTime(duration_s);
  workload.jobs.push_back(job);
}

}  // namespace fleetsim::testing
