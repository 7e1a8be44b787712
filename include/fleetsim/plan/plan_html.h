// plan.html: a plan's outcome as a self-contained page (docs/planning.md#planhtml) — the answer
// with its margins; per target, the run fleets' figure against their objective (the frontier),
// one colour per group of the non-count decision axes (GPU model, tier, ...), fleets that meet
// every target filled and the others hollow, the side of the target's bound that misses it
// shaded, the answer ringed; and the table of run fleets. The same page rules as the other
// reports (report/html_chart.h): no external resources, a self-check script. Pure function.
#pragma once

#include <string>

#include "fleetsim/plan/plan_search.h"

namespace fleetsim {

std::string PlanHtml(const PlanSpec& plan, const PlanCandidates& candidates,
                     const PlanOutcome& outcome, bool render_check = true);

}  // namespace fleetsim
