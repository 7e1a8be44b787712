// Small workload builders for tests.
#pragma once

#include <string>

#include "fleetsim/workload/job.h"

namespace fleetsim::testing {

// Adds a job; submit and duration are in seconds.
void AddJob(Workload& workload, const std::string& id, double submit_s, std::int64_t gpus,
            double duration_s, std::int64_t priority = 1);

}  // namespace fleetsim::testing
