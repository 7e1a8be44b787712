// Workload builders for tests.
#include "testutil/workloads.h"

#include <fmt/format.h>

#include <vector>

#include "fleetsim/core/check.h"
#include "fleetsim/core/random.h"

namespace fleetsim::testing {

Job& AddJob(Workload& workload, const std::string& id, double submit_s, std::int64_t gpus,
            double duration_s, std::int64_t priority) {
  Job job;
  job.request.id = id;
  job.request.submit = SecondsToTime(submit_s);
  job.request.gpus = gpus;
  job.request.priority = priority;
  job.truth.duration = SecondsToTime(duration_s);
  workload.jobs.push_back(job);
  return workload.jobs.back();
}

Job& AddWorkJob(Workload& workload, const std::string& id, double submit_s, std::int64_t gpus,
                double work_gpu_hours) {
  Job& job = AddJob(workload, id, submit_s, gpus, 0);
  job.truth = {.duration = 0, .work_gpu_hours = work_gpu_hours, .recorded_state = ""};
  return job;
}

namespace {

template <typename T>
const T& Pick(Rng& rng, const std::vector<T>& values) {
  return values[static_cast<std::size_t>(
      UniformInt(rng, 0, static_cast<std::int64_t>(values.size()) - 1))];
}

bool Chance(Rng& rng, double p) { return rng.NextDouble() < p; }

void ShapeWholeJob(Rng& rng, JobRequest& r) {
  const int shape = static_cast<int>(UniformInt(rng, 0, 9));
  if (shape < 2) {
    r.pow2_block = true;
    r.gpus = Pick<std::int64_t>(rng, {1, 2, 4, 8, 16});
    r.max_gpus = Chance(rng, 0.3) ? r.gpus * 2 : 0;
  } else if (shape < 4) {
    r.nvlink = NvlinkLocality::kRequired;
    r.gpus = Pick<std::int64_t>(rng, {2, 4, 8, 12, 32});
  } else {
    r.nvlink = shape < 6 ? NvlinkLocality::kPreferred : NvlinkLocality::kNone;
    r.gpus = Pick<std::int64_t>(rng, {1, 1, 2, 3, 4, 8, 16});
    r.max_gpus = Chance(rng, 0.2) ? r.gpus + UniformInt(rng, 1, 8) : 0;
  }
}

void ShapeSharedJob(Rng& rng, JobRequest& r) {
  r.gpus = 1;
  if (Chance(rng, 0.5)) {
    r.sharing = GpuSharing::kMig;
    r.gpu_memory_gb = Pick<double>(rng, {5, 10, 12, 20, 40, 70, 90});
    r.gpu_milli = Chance(rng, 0.3) ? Pick<std::int64_t>(rng, {100, 300, 500}) : kWholeGpuMilli;
  } else {
    r.sharing = GpuSharing::kFraction;
    r.gpu_milli = UniformInt(rng, 1, 10) * 100;
    r.gpu_memory_gb = Pick<double>(rng, {0, 8, 16, 40});
  }
}

Job RandomJob(Rng& rng, std::int64_t index, double submit_s) {
  Job job;
  JobRequest& r = job.request;
  r.id = fmt::format("rich-{:04}", index);
  r.submit = SecondsToTime(submit_s);
  r.tenant = Pick<std::string>(rng, {"default", "vision", "llm"});
  r.priority = UniformInt(rng, 1, 3);
  r.kind = static_cast<JobKind>(UniformInt(rng, 0, 6));
  const int family = static_cast<int>(UniformInt(rng, 0, 19));
  if (family == 0) {
    r.gpus = 0;  // CPU-only
    r.cpu_milli = UniformInt(rng, 1, 48) * 1000;
    r.memory_mib = UniformInt(rng, 0, 64) * 1024;
  } else if (family < 7) {
    ShapeSharedJob(rng, r);
  } else {
    ShapeWholeJob(rng, r);
  }
  if (!r.IsCpuOnly() && Chance(rng, 0.3)) {
    r.cpu_milli = UniformInt(rng, 1, 16) * 1000;
    r.memory_mib = UniformInt(rng, 0, 32) * 2048;
  }
  if (!r.IsCpuOnly() && Chance(rng, 0.3)) {
    r.gpu_models = {Pick<std::string>(rng, {"H100", "GB200", "B200", "H200", "A100-80GB"})};
    if (Chance(rng, 0.5)) {
      r.gpu_models.push_back(Pick<std::string>(rng, {"H100-NVL", "GB200", "H200"}));
    }
  }
  r.spot_eligible = !Chance(rng, 0.3);
  if (r.IsCpuOnly() || Chance(rng, 0.5)) {
    job.truth.duration = SecondsToTime(UniformReal(rng, 60, 7200));
  } else {
    job.truth.work_gpu_hours = UniformReal(rng, 0.05, 8);
  }
  return job;
}

// A real-time service: whole GPUs, 1..4, a demand curve of six 10-minute steps.
void MakeService(Rng& rng, Job& job) {
  JobRequest& r = job.request;
  JobRequest service;
  service.id = r.id;
  service.submit = r.submit;
  service.tenant = r.tenant;
  service.priority = r.priority;
  r = std::move(service);
  r.kind = JobKind::kRealtimeInference;
  r.gpus = 1;
  r.max_gpus = 4;
  r.demand = DemandCurve{.step = SecondsToTime(600), .gpus = {}, .swap_cap = UniformInt(rng, 0, 2)};
  for (int step = 0; step < 6; ++step) {
    r.demand->gpus.push_back(UniformInt(rng, 0, 4));
  }
  job.truth = {.duration = SecondsToTime(UniformReal(rng, 1200, 7200)),
               .work_gpu_hours = 0,
               .recorded_state = ""};
}

void AddLifecycle(Rng& rng, Job& job) {
  JobRequest& r = job.request;
  if (Chance(rng, 1.0 / 12)) {
    MakeService(rng, job);
  }
  r.preemptible = Chance(rng, 0.5);
  if (r.preemptible && Chance(rng, 0.5)) {
    r.checkpoint_interval = SecondsToTime(UniformReal(rng, 60, 1800));
  }
  if (Chance(rng, 0.8)) {
    const double truth_s = job.truth.duration > 0
                               ? TimeToSeconds(job.truth.duration)
                               : job.truth.work_gpu_hours * 3600 /
                                     static_cast<double>(std::max<std::int64_t>(1, r.gpus));
    r.walltime_estimate = SecondsToTime(truth_s * UniformReal(rng, 1, 3)) + 1;
  }
}

}  // namespace

Workload RichWorkload(std::uint64_t seed, std::int64_t jobs, bool lifecycle) {
  Rng rng = RandomStreams(seed, 0).Stream("tests.rich-workload");
  Rng lifecycle_rng = RandomStreams(seed, 0).Stream("tests.rich-workload.lifecycle");
  Workload workload;
  double submit_s = 0;
  for (std::int64_t i = 0; i < jobs; ++i) {
    submit_s += Exponential(rng, 90);
    workload.jobs.push_back(RandomJob(rng, i, submit_s));
    if (lifecycle) {
      AddLifecycle(lifecycle_rng, workload.jobs.back());
    }
    FLEETSIM_CHECK(ProblemsWith(workload.jobs.back()).empty(), "RichWorkload made a bad job");
  }
  SortBySubmit(workload);
  return workload;
}

Job EveryFieldJob() {
  Job job;
  JobRequest& r = job.request;
  r.id = "serve-3";
  r.submit = 60'500;
  r.tenant = "search";
  r.priority_class = "LS";
  r.priority = 5;
  r.kind = JobKind::kRealtimeInference;
  r.gpus = 1;
  r.max_gpus = 1;
  r.pow2_block = true;
  r.gpu_models = {"A100-80GB", "H100-SXM"};
  r.nvlink = NvlinkLocality::kRequired;
  r.sharing = GpuSharing::kMig;
  r.gpu_milli = 500;
  r.gpu_memory_gb = 19.5;
  r.cpu_milli = 4000;
  r.memory_mib = 16384;
  r.preemptible = true;
  r.spot_eligible = false;
  r.checkpoint_interval = 900'000;
  r.checkpoint_cost = 30'250;
  r.checkpoint_sharded = false;
  r.restart_cost = 90'500;
  r.walltime_estimate = 86'400'000;
  r.deadline = 90'000'001;
  r.demand = DemandCurve{3'600'000, {0, 1, 1}, 1};
  job.truth.work_gpu_hours = 2.5;
  job.truth.recorded_state = "TIMEOUT";
  return job;
}

}  // namespace fleetsim::testing
