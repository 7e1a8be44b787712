// jobs.csv: the header and rows for a rich job that ran (tenant, kind, sharing, what it got), a
// CPU-only job, and jobs that never started, with RFC 4180 quoting, policy preemptions apart from
// interruptions, and the GPU-hours stops lost — exact text.
#include <gtest/gtest.h>

#include "fleetsim/report/outputs.h"

namespace fleetsim {
namespace {

TEST(JobsCsvTest, HeaderAndRowsForRichJobs) {
  JobRecordRow mig;
  mig.id = "infer-1";
  mig.tenant = "vision";
  mig.priority_class = "LS";
  mig.priority = 3;
  mig.kind = JobKind::kRealtimeInference;
  mig.submit = 1'000;
  mig.gpus = 1;
  mig.max_gpus = 1;
  mig.sharing = GpuSharing::kMig;
  mig.cpu_milli = 4000;
  mig.memory_mib = 16384;
  mig.started = true;
  mig.start = 61'000;
  mig.ended = true;
  mig.end = 3'661'000;
  mig.gpus_allocated = 1;
  mig.gpu_share = 3.0 / 7;
  mig.domains = 1;
  mig.gpu_models = "H100-SXM";
  mig.pools = "h100|h100-spot";
  mig.tiers = "on-demand|spot";
  mig.nodes = "0 3";
  mig.run_time = 2'400'500;
  mig.preemptions = 2;
  mig.interruptions = 1;
  mig.lost_gpu_hours = 0.25;
  mig.useful_gpu_hours = 1.5;
  mig.useful_work_gpu_hours = 1.25;
  mig.state = FinalState::kCompleted;

  JobRecordRow cpu;
  cpu.id = "etl";
  cpu.tenant = "data, ops";
  cpu.kind = JobKind::kBatchInference;
  cpu.cpu_milli = 8000;
  cpu.started = true;
  cpu.state = FinalState::kRunning;
  cpu.reason = "still running when the run ended";

  JobRecordRow rejected;
  rejected.id = "huge";
  rejected.tenant = "default";
  rejected.priority = 1;
  rejected.gpus = 16;
  rejected.max_gpus = 32;
  rejected.state = FinalState::kRejected;
  rejected.reason = "needs a GPU model in [A100-80GB]; the fleet has [H100-SXM, GB200]";

  mig.recorded_state = "COMPLETED";

  RunReport report;
  report.jobs = {mig, cpu, rejected};
  EXPECT_EQ(JobsCsv(report),
            "id,tenant,priority_class,priority,kind,submit_s,start_s,end_s,wait_s,run_time_s,gpus,"
            "max_gpus,sharing,cpu_milli,memory_mib,gres,resources,gpus_allocated,gpu_share,"
            "gpu_models,domains,pools,tiers,nodes,preemptions,interruptions,lost_gpu_hours,"
            "useful_gpu_hours,useful_work_gpu_hours,recorded_state,state,reason\n"
            "infer-1,vision,LS,3,realtime-inference,1.000,61.000,3661.000,60.000,2400.500,1,1,mig,"
            "4000,16384,,,1,0.42857142857142855,H100-SXM,1,h100|h100-spot,on-demand|spot,0 3,2,1,"
            "0.250000,1.500000,1.250000,COMPLETED,completed,\n"
            "etl,\"data, ops\",,0,batch-inference,0.000,0.000,,0.000,0.000,0,0,none,8000,0,,,0,0,,"
            "0,,,,0,0,0.000000,0.000000,0.000000,,running,still running when the run ended\n"
            "huge,default,,1,unspecified,0.000,,,,,16,32,none,0,0,,,,,,,,,,0,0,0.000000,0.000000,"
            "0.000000,,rejected,"
            "\"needs a GPU model in [A100-80GB]; the fleet has [H100-SXM, GB200]\"\n");
}

}  // namespace
}  // namespace fleetsim
