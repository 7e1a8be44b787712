// What a plan reports (docs/planning.md#outputs): the answer with its margin on every target,
// the runners-up, the cheapest fleets that missed and what they missed, and what the search cost
// against the whole grid — as text for the terminal, plan.csv (every candidate, one row each)
// and plan.json. Pure functions.
#pragma once

#include <string>

#include "fleetsim/plan/plan_search.h"

namespace fleetsim {

std::string PlanText(const PlanSpec& plan, const PlanCandidates& candidates,
                     const PlanOutcome& outcome);
std::string PlanCsv(const PlanSpec& plan, const PlanCandidates& candidates,
                    const PlanOutcome& outcome);
std::string PlanJson(const PlanSpec& plan, const PlanCandidates& candidates,
                     const PlanOutcome& outcome);

std::string CandidateStatusName(CandidateStatus status);  // "feasible", "inferred", ...

// A candidate's objective for people: "503.62 USD/day (20.98 USD/h)", "64 GPUs", or for output
// per dollar "0.912 output/USD at 503.62 USD/day".
std::string ObjectiveFigure(const PlanSpec& plan, const PlanCandidate& candidate,
                            const CandidateResult& result);

// The multi-year view of the answer in lines of text ("" without a horizon or an answer).
std::string HorizonSummary(const PlanSpec& plan, const PlanCandidates& candidates,
                           const PlanOutcome& outcome);

}  // namespace fleetsim
