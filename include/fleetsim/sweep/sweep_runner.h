// Running a sweep's points on several threads. Each run is independent (runner.h); each result
// is handed, one at a time, to a callback as its run ends — in whatever order runs finish, which
// is why results are rendered from records keyed by run id, never from completion order.
#pragma once

#include <functional>
#include <vector>

#include "fleetsim/scenario/runner.h"
#include "fleetsim/sweep/sweep_spec.h"
#include "fleetsim/sweep/sweep_store.h"

namespace fleetsim {

struct SweepRunOptions {
  unsigned threads = 1;           // at least one; no more are started than there are points
  bool check_invariants = false;  // the engine's invariants after every event
};

// Called after each run, never concurrently: the point, its record (the callee's to keep: move
// it), and its full report (null when the run failed).
using SweepRunDone =
    std::function<void(const SweepPoint& point, SweepRecord&& record, const RunReport* report)>;

// Runs one point (which must have a loaded scenario). An illegal policy decision or an exception
// becomes a failed record; nothing escapes.
SweepRecord RunSweepPoint(const SweepPoint& point, const PolicyRegistry& registry,
                          const SweepRunOptions& options, RunReport* report);

void RunSweepPoints(const std::vector<const SweepPoint*>& points, const PolicyRegistry& registry,
                    const SweepRunOptions& options, const SweepRunDone& done);

}  // namespace fleetsim
