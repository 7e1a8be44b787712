// The pieces of `fleetsim export`'s renderers: host names and Slurm host lists, Slurm times and
// durations, GRES types, NVIDIA product names and GPU UUIDs, the DCGM size limit, and a DCGM
// export of a bare {"gpus": N} fleet (no model: no power series, modelName "unknown"). The whole
// exports are tested end to end in tests/cli/export_cli_test.cc.
#include <gtest/gtest.h>

#include <set>

#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/report/dcgm_export.h"
#include "fleetsim/report/fleet_hosts.h"
#include "fleetsim/report/sacct_export.h"
#include "testutil/fleets.h"
#include "text/utc_time.h"

namespace fleetsim {
namespace {

using testing::CatalogPool;
using testing::FleetOf;

TEST(FleetHostsTest, NodesAreNamedByPoolAndNumber) {
  const FleetSpec fleet =
      FleetOf({CatalogPool("hgx-h100", 3, "H100 East"), CatalogPool("hgx-a100", 1, "a100"),
               CatalogPool("hgx-a100", 1, "A100")});
  const FleetHosts hosts = HostsOf(fleet);
  ASSERT_EQ(hosts.hosts.size(), 5U);
  EXPECT_EQ(hosts.hosts[0].Text(), "h100-east-001");
  EXPECT_EQ(hosts.hosts[2].Text(), "h100-east-003");
  EXPECT_EQ(hosts.hosts[3].Text(), "a100-001");
  EXPECT_EQ(hosts.hosts[4].Text(), "a100-p2-001") << "a name that reads the same lower-cased";
  ASSERT_EQ(hosts.gpus.size(), 40U);
  EXPECT_EQ(hosts.gpus[9].host, 1U);
  EXPECT_EQ(hosts.gpus[9].index, 1);
  EXPECT_EQ(hosts.gpus[25].pool, 1U);
  EXPECT_EQ(hosts.gpus[25].model->name, "A100-80GB");
}

TEST(FleetHostsTest, EveryNodeHasItsOwnNameWhateverThePoolsAreCalled) {
  // "x-p2" is the name the third pool would take: it moves on to "x-p3".
  const FleetSpec fleet =
      FleetOf({CatalogPool("hgx-h100", 2, "x"), CatalogPool("hgx-h100", 2, "x-p2"),
               CatalogPool("hgx-h100", 2, "X"), CatalogPool("hgx-h100", 2, "x P2")});
  const FleetHosts hosts = HostsOf(fleet);
  std::set<std::string> names;
  for (const HostName& host : hosts.hosts) {
    names.insert(host.Text());
  }
  EXPECT_EQ(names.size(), hosts.hosts.size());
  EXPECT_EQ(hosts.hosts[4].Text(), "x-p3-001");
  EXPECT_EQ(hosts.hosts[6].Text(), "x-p2-p3-001");
}

TEST(FleetHostsTest, ABareFleetIsOneNode) {
  const FleetHosts hosts = HostsOf(FleetSpec{.gpus = 12, .pools = {}});
  ASSERT_EQ(hosts.hosts.size(), 1U);
  EXPECT_EQ(hosts.hosts[0].Text(), "gpu-001");
  EXPECT_EQ(hosts.gpus[11].index, 11);
  EXPECT_EQ(hosts.gpus[11].model, nullptr);
}

TEST(FleetHostsTest, HostListsRangeOverNumbers) {
  const FleetSpec fleet =
      FleetOf({CatalogPool("hgx-h100", 1200, "h100"), CatalogPool("hgx-a100", 2, "a100")});
  const FleetHosts hosts = HostsOf(fleet);
  EXPECT_EQ(hosts.hosts[0].Text(), "h100-0001") << "four digits for 1,200 nodes";
  EXPECT_EQ(HostListOf(hosts, {}), "None assigned");
  EXPECT_EQ(HostListOf(hosts, {3, 5}), "h100-0001");
  EXPECT_EQ(HostListOf(hosts, {0, 8, 16, 17, 32, 9600}), "h100-[0001-0003,0005],a100-001");
  EXPECT_EQ(HostListOf(hosts, {9608, 9615}), "a100-002");
}

TEST(SacctExportTest, TimesAndDurationsAreSlurms) {
  EXPECT_EQ(FormatUtcTimestamp(1767225600, 'T'), "2026-01-01T00:00:00");
  EXPECT_EQ(FormatUtcTimestamp(951827696, 'T'), "2000-02-29T12:34:56");
  EXPECT_EQ(FormatSlurmDuration(0), "00:00:00");
  EXPECT_EQ(FormatSlurmDuration(86399), "23:59:59");
  EXPECT_EQ(FormatSlurmDuration(90061), "1-01:01:01");
  EXPECT_EQ(FormatSlurmDuration(100 * 86400), "100-00:00:00");
  for (const std::int64_t seconds : {0, 59, 3600, 86399, 90061, 8'640'000}) {
    EXPECT_EQ(ParseSlurmDuration(FormatSlurmDuration(seconds)), seconds);
  }
}

TEST(SacctExportTest, GresTypesAreCatalogNamesLowerCased) {
  const Catalog catalog = BuiltinCatalog();
  EXPECT_EQ(GresTypeOf(*catalog.FindGpu("H100-SXM")), "h100-sxm");
  EXPECT_EQ(GresTypeOf(*catalog.FindGpu("A100-80GB")), "a100-80gb");
}

TEST(DcgmExportTest, ModelsAreNamedAsNvidiaSmiNamesThem) {
  const Catalog catalog = BuiltinCatalog();
  EXPECT_EQ(NvidiaProductName(*catalog.FindGpu("H100-SXM")), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(NvidiaProductName(*catalog.FindGpu("A100-40GB")), "NVIDIA A100-SXM4-40GB");
  EXPECT_EQ(NvidiaProductName(*catalog.FindGpu("T4")), "Tesla T4");
  EXPECT_EQ(NvidiaProductName(*catalog.FindGpu("GB200")), "NVIDIA GB200");
}

TEST(DcgmExportTest, UuidsAreStableAndDistinct) {
  const FleetHosts hosts = HostsOf(FleetOf({CatalogPool("hgx-h100", 2, "h100")}));
  const std::string first = GpuUuid(hosts, 0);
  EXPECT_EQ(first.size(), 40U);
  EXPECT_TRUE(first.starts_with("GPU-"));
  EXPECT_EQ(first[12], '-');
  EXPECT_EQ(first[17], '-');
  EXPECT_EQ(first[22], '-');
  EXPECT_EQ(first[27], '-');
  EXPECT_EQ(first, GpuUuid(HostsOf(FleetOf({CatalogPool("hgx-h100", 2, "h100")})), 0));
  std::set<std::string> uuids;
  for (GpuId gpu = 0; gpu < 16; ++gpu) {
    uuids.insert(GpuUuid(hosts, gpu));
  }
  EXPECT_EQ(uuids.size(), 16U);
}

// A report of a bare fleet of 2 GPUs over 120 s: one job on GPU 0 from 0 to 60 s, asking 10 GB.
RunReport BareReport() {
  RunReport report;
  AllocationTimelineData timeline;
  timeline.fleet_gpus = 2;
  timeline.window_end = 120 * kMillisPerSecond;
  timeline.segments.push_back({.job = 0,
                               .start = 0,
                               .end = 60 * kMillisPerSecond,
                               .gpus = {0},
                               .gpu_share = 1,
                               .kind = JobKind::kUnspecified,
                               .priority = 1,
                               .realtime = false});
  report.timeline = timeline;
  return report;
}

TEST(DcgmExportTest, ABareFleetHasNoPowerAndNoModel) {
  Workload workload;
  workload.jobs.push_back({});
  workload.jobs[0].request.gpu_memory_gb = 10;
  const std::string text = DcgmExport(BareReport(), workload, FleetSpec{.gpus = 2, .pools = {}},
                                      {.epoch = 1000, .interval_s = 60});
  const std::string gpu0 = R"({gpu="0",UUID=")" +
                           GpuUuid(HostsOf(FleetSpec{.gpus = 2, .pools = {}}), 0) +
                           R"(",device="nvidia0",modelName="unknown",Hostname="gpu-001"})";
  EXPECT_NE(text.find("DCGM_FI_DEV_GPU_UTIL" + gpu0 + " 100 1000\n"), std::string::npos) << text;
  EXPECT_NE(text.find("DCGM_FI_DEV_GPU_UTIL" + gpu0 + " 0 1060\n"), std::string::npos);
  EXPECT_NE(text.find("DCGM_FI_DEV_FB_USED" + gpu0 + " 10240 1000\n"), std::string::npos);
  EXPECT_NE(text.find("DCGM_FI_DEV_XID_ERRORS" + gpu0 + " 0 1060\n"), std::string::npos);
  EXPECT_EQ(text.find(" 1120\n"), std::string::npos) << "no sample at the end of the run";
  EXPECT_EQ(text.find("DCGM_FI_DEV_POWER_USAGE{"), std::string::npos) << "no TDP, no power";
  EXPECT_NE(text.find("# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n"), std::string::npos);
  EXPECT_TRUE(text.ends_with("# EOF\n"));
}

TEST(DcgmExportTest, TooManySamplesAreRefusedWithAnIntervalThatFits) {
  RunReport report = BareReport();
  report.timeline->fleet_gpus = 1000;
  report.timeline->window_end = 86400 * kMillisPerSecond;
  EXPECT_EQ(DcgmSampleCount(report, 60), 1440);  // 0, 60, ..., 86340: before the end
  const Status status = CheckDcgmExportSize(report, 60);
  EXPECT_EQ(status.message(),
            "--dcgm: 1440 samples of 1000 GPUs (every 60 s over 86400 s) is more than 1000000 "
            "samples x GPUs; use a larger --interval, at least 87s");
  EXPECT_TRUE(CheckDcgmExportSize(report, 87).ok());
  EXPECT_FALSE(CheckDcgmExportSize(report, 86).ok());
}

}  // namespace
}  // namespace fleetsim
