// Workload builders for tests: single jobs (by duration or by work), and a seeded random mix of
// rich jobs — GPU-model lists, size ranges, power-of-two blocks, NVLink locality, MIG and
// fractional sharing, host CPU and memory, CPU-only jobs, spot eligibility, durations or work —
// for suites that must hold for every kind of request.
#pragma once

#include <cstdint>
#include <string>

#include "fleetsim/workload/job.h"

namespace fleetsim::testing {

// Adds a job; submit and duration are in seconds. Returns it for further settings.
Job& AddJob(Workload& workload, const std::string& id, double submit_s, std::int64_t gpus,
            double duration_s, std::int64_t priority = 1);

// Adds a job whose truth is work in reference GPU-hours instead of a duration.
Job& AddWorkJob(Workload& workload, const std::string& id, double submit_s, std::int64_t gpus,
                double work_gpu_hours);

// One real-time service job ("serve-3", submitted at 60.5 s, tenant "search") with every field of
// its request away from its default and work (2.5 GPU-hours, recorded state TIMEOUT) as its
// truth: for the readers and
// writers of every job format, so a field one of them forgets shows in a round trip.
Job EveryFieldJob();

// `jobs` random valid jobs (ProblemsWith is empty for each), sorted by submit time. GPU-model
// lists name H100 (an alias), GB200, B200, H200 or A100-80GB; sizes stay within 32 GPUs, so on
// a fleet with those models most jobs can run and some are rejected at admission.
// With `lifecycle`, jobs also carry what policies plan and preempt with, from a separate random
// stream (so the jobs themselves are the same as without): half are preemptible, some with a
// checkpoint interval; most have a walltime estimate (from their truth, exact to 3x over); and
// about one in twelve is a real-time service with a demand curve (10-minute steps, swap cap 0-2).
Workload RichWorkload(std::uint64_t seed, std::int64_t jobs, bool lifecycle = false);

}  // namespace fleetsim::testing
