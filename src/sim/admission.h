// Admission: which arriving jobs can never run on this fleet, and why. A job is admitted exactly
// when the shared placement helper (ChoosePlacement) finds a placement for it on the empty fleet,
// so a policy that uses the helper can always start an admitted job once the fleet has drained.
// Plain whole-GPU jobs (no GPU model, block, NVLink, host or spot restriction) are decided in O(1)
// by their size; the others against an empty copy of the fleet built on first need, with the
// verdict remembered per request shape. The reason names the first rule that rules the job out
// (docs/architecture.md#admission). Owned by one simulation; not thread-safe.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fleetsim/core/status.h"
#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

class Admission {
 public:
  // `ledger` is the simulation's (its pools and topology, never its allocations); it must outlive
  // the admission.
  Admission(const FleetSpec& spec, const FleetLedger& ledger);
  ~Admission();

  // OK when the job can run on this fleet (when empty); otherwise refused, saying why it never
  // can.
  Status CheckAdmissible(const JobRequest& request, const JobTruth& truth);

 private:
  // The verdicts below: why the job can never run, "" when it can (cached by job shape).
  std::string Verdict(const JobRequest& request, const JobTruth& truth);
  std::string PlainVerdict(const JobRequest& request) const;
  std::string Diagnose(const JobRequest& request) const;
  std::string DiagnoseGpus(const JobRequest& request) const;
  std::string DiagnoseWhole(const JobRequest& request) const;
  std::string DiagnoseMig(const JobRequest& request) const;
  std::string DiagnoseFraction(const JobRequest& request) const;
  std::string DiagnoseHostOnOneNode(const JobRequest& request, bool gpu_job) const;
  bool IsPlain(const JobRequest& request) const;

  FleetSpec spec_;
  const FleetLedger& ledger_;
  bool has_spot_ = false;
  std::vector<std::int64_t> largest_domain_;  // by pool: GPUs in its largest NVLink domain
  std::unique_ptr<FleetLedger> empty_;        // the fleet with nothing allocated
  std::map<std::string, std::string> verdicts_;
};

}  // namespace fleetsim
