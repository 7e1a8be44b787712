// The report of `fleetsim compare` (result_compare.h) in the forms CI and people read: text
// (one self-contained line per difference: scenario, policy, seed, metric, baseline -> current,
// change, verdict), JSON (every difference with exact values), JUnit XML (one test case per
// scenario x policy x metric, failures for drift) and Markdown (a pull-request comment). Values
// are shown to 6 significant digits, more where needed to tell two apart; JSON keeps them exact.
// Formats: docs/regression.md#report-formats. Pure functions; thread-compatible.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/report/result_compare.h"

namespace fleetsim {

enum class CompareFormat { kText, kJson, kJunit, kMarkdown };

// "text", "json", "junit", "markdown".
const std::vector<std::string>& CompareFormatNames();
std::optional<CompareFormat> CompareFormatNamed(std::string_view name);

// The report of a comparison that ran (outcome.ok()). With `only_drift`, differences that are
// not drift (within tolerance, additions) are left out of the list, not out of the counts.
std::string CompareReport(const CompareOutcome& outcome, CompareFormat format, bool only_drift);

// "N results compared, identical" or "N results compared, M metrics differ beyond tolerance,
// ...", without a newline.
std::string CompareSummaryLine(const CompareOutcome& outcome);

}  // namespace fleetsim
