// `fleetsim compare`'s report as text, JSON, JUnit XML or Markdown (see compare_report.h).
#include "fleetsim/report/compare_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

#include "fleetsim/report/html_chart.h"

namespace fleetsim {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// The most differences a Markdown report lists: a pull-request comment must stay readable.
constexpr std::size_t kMaxMarkdownRows = 100;

bool Listed(const ResultDiff& check, bool only_drift) {
  return check.kind != DiffKind::kSame && (!only_drift || check.beyond);
}

json ParsedValue(const std::string& text) { return json::parse(text, nullptr, false); }

// A float to 6 significant digits, or to as many (up to 17) as tell it from `other`.
std::string ShownNumber(const json& value, const json& other) {
  if (!value.is_number_float()) {
    return value.dump();
  }
  const auto at = [](const json& v, int digits) {
    return v.is_number() ? fmt::format("{:.{}g}", v.get<double>(), digits) : v.dump();
  };
  for (int digits = 6; digits < 17; ++digits) {
    if (value == other || at(value, digits) != at(other, digits)) {
      return at(value, digits);
    }
  }
  return at(value, 17);
}

std::string Shown(const std::string& text, const std::string& other_text) {
  return ShownNumber(ParsedValue(text), ParsedValue(other_text));
}

// "+0.004 (+0.509%)": current − baseline, exact for integers, and relative to the baseline; for
// a paired mean, "+0.004 (95% CI +0.001 to +0.007)".
std::string DescribeDifference(const ResultDiff& check) {
  if (check.kind == DiffKind::kPairedMean) {
    return fmt::format("{:+.6g} (95% CI {:+.6g} to {:+.6g})", check.difference, check.ci_low,
                       check.ci_high);
  }
  std::string text = check.integer_difference ? fmt::format("{:+}", *check.integer_difference)
                                              : fmt::format("{:+.6g}", check.difference);
  const double base = ParsedValue(check.baseline).get<double>();
  if (base != 0 && std::isfinite(check.difference)) {
    text += fmt::format(" ({:+.3g}%)", check.difference / std::fabs(base) * 100);
  }
  return text;
}

std::string Verdict(const ResultDiff& check) {
  const std::string added_or_drift = check.addition ? "added" : "drift";
  switch (check.kind) {
    case DiffKind::kSame:
      return "same";
    case DiffKind::kValue:
      if (check.allowed == 0) {
        return "beyond tolerance (exact)";
      }
      return fmt::format("{} tolerance (±{:.6g})", check.beyond ? "beyond" : "within",
                         check.allowed);
    case DiffKind::kNullVsNumber:
      return "drift: null vs number";
    case DiffKind::kMetricOnlyInBaseline:
      return "drift: metric only in the baseline";
    case DiffKind::kMetricOnlyInCurrent:
      return added_or_drift + ": metric only in the current";
    case DiffKind::kSeed:
      return "drift: seeds differ";
    case DiffKind::kResultOnlyInBaseline:
      return "drift: result only in the baseline";
    case DiffKind::kResultOnlyInCurrent:
      return added_or_drift + ": result only in the current";
    case DiffKind::kPairedMean:
      if (check.allowed == 0) {
        return check.beyond ? "beyond tolerance (interval excludes 0)"
                            : "within tolerance (interval includes 0)";
      }
      return fmt::format("{} tolerance (interval {} ±{:.6g})", check.beyond ? "beyond" : "within",
                         check.beyond ? "beyond" : "meets", check.allowed);
  }
  return "";
}

// "0.786 -> 0.79", "absent -> 0.5", "present -> absent".
std::string Change(const ResultDiff& check, const std::string& arrow) {
  switch (check.kind) {
    case DiffKind::kResultOnlyInBaseline:
      return "present" + arrow + "absent";
    case DiffKind::kResultOnlyInCurrent:
      return "absent" + arrow + "present";
    case DiffKind::kMetricOnlyInBaseline:
      return Shown(check.baseline, "null") + arrow + "absent";
    case DiffKind::kMetricOnlyInCurrent:
      return "absent" + arrow + Shown(check.current, "null");
    default:
      return Shown(check.baseline, check.current) + arrow + Shown(check.current, check.baseline);
  }
}

struct Row {
  std::string scenario, policy, axes, seed, metric, change, detail, verdict;
};

// "seed 7", or "20 seeds" for a cell of paired seeds.
std::string SeedText(const ResultDiff& check) {
  return check.pairs > 0 ? fmt::format("{} seeds", check.pairs)
                         : fmt::format("seed {}", check.seed);
}

// Text on one line: control characters (a newline in a name) shown as '?'.
std::string OneLine(std::string text) {
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20) {
      c = '?';
    }
  }
  return text;
}

Row RowOf(const ResultDiff& check, const std::string& arrow) {
  const bool numeric = check.kind == DiffKind::kValue || check.kind == DiffKind::kPairedMean;
  return {OneLine(check.scenario),
          OneLine(check.policy),
          OneLine(check.axes),
          SeedText(check),
          check.metric.empty() ? "(result)" : OneLine(check.metric),
          Change(check, arrow),
          numeric ? DescribeDifference(check) : "",
          Verdict(check)};
}

std::string Plural(std::size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string DescribeFile(const CompareFileFacts& file) {
  std::string facts = Plural(file.results, "result", "results");
  if (!file.fleetsim_version.empty()) {
    facts = fmt::format("fleetsim {}, {}", file.fleetsim_version, facts);
  }
  return fmt::format("{} ({})", file.name, facts);
}

// ---- text ----

std::string TextReport(const CompareOutcome& outcome, bool only_drift) {
  std::vector<Row> rows;
  for (const ResultDiff& check : outcome.checks) {
    if (Listed(check, only_drift)) {
      rows.push_back(RowOf(check, " -> "));
    }
  }
  const auto cells = [](const Row& row) {
    return std::array<const std::string*, 8>{&row.scenario, &row.policy, &row.axes,   &row.seed,
                                             &row.metric,   &row.change, &row.detail, &row.verdict};
  };
  std::array<std::size_t, 8> width{};
  for (const Row& row : rows) {
    for (std::size_t i = 0; i < width.size(); ++i) {
      width[i] = std::max(width[i], cells(row)[i]->size());
    }
  }
  std::string text =
      fmt::format("baseline: {}\ncurrent:  {}\ntolerance: {}\n\n", DescribeFile(outcome.baseline),
                  DescribeFile(outcome.current), outcome.tolerance);
  for (const Row& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < width.size(); ++i) {
      if (width[i] > 0) {  // a column empty in every row (no detail) is left out
        line += fmt::format("{}{:<{}}", line.empty() ? "" : "  ", *cells(row)[i],
                            i + 1 == width.size() ? 0 : width[i]);
      }
    }
    text += line + "\n";
  }
  if (!rows.empty()) {
    text += "\n";
  }
  return text + CompareSummaryLine(outcome) + "\n";
}

// ---- JSON ----

const char* KindName(DiffKind kind) {
  switch (kind) {
    case DiffKind::kSame:
      return "same";
    case DiffKind::kValue:
      return "value";
    case DiffKind::kNullVsNumber:
      return "null_vs_number";
    case DiffKind::kMetricOnlyInBaseline:
      return "metric_only_in_baseline";
    case DiffKind::kMetricOnlyInCurrent:
      return "metric_only_in_current";
    case DiffKind::kSeed:
      return "seed";
    case DiffKind::kResultOnlyInBaseline:
      return "result_only_in_baseline";
    case DiffKind::kResultOnlyInCurrent:
      return "result_only_in_current";
    case DiffKind::kPairedMean:
      return "paired_mean";
  }
  return "";
}

ordered_json FileJson(const CompareFileFacts& file) {
  return {
      {"file", file.name}, {"fleetsim_version", file.fleetsim_version}, {"results", file.results}};
}

ordered_json DifferenceJson(const ResultDiff& check) {
  ordered_json item = {{"scenario", check.scenario}, {"policy", check.policy}};
  if (!check.axes.empty()) {
    item["axes"] = check.axes;
  }
  if (check.pairs > 0) {
    item["seeds"] = check.pairs;
  } else {
    item["seed"] = check.seed;
  }
  item["kind"] = KindName(check.kind);
  if (!check.metric.empty()) {
    item["metric"] = check.metric;
  }
  if (!check.baseline.empty()) {
    item["baseline"] = ordered_json::parse(check.baseline);
  }
  if (!check.current.empty()) {
    item["current"] = ordered_json::parse(check.current);
  }
  if (check.kind == DiffKind::kValue || check.kind == DiffKind::kPairedMean) {
    item["difference"] = check.difference;
    item["allowed"] = check.allowed;
  }
  if (check.kind == DiffKind::kPairedMean) {
    item["ci_low"] = check.ci_low;
    item["ci_high"] = check.ci_high;
  }
  item["status"] = check.addition ? "added" : (check.beyond ? "drift" : "within");
  return item;
}

std::string JsonReport(const CompareOutcome& outcome, bool only_drift) {
  ordered_json differences = ordered_json::array();
  for (const ResultDiff& check : outcome.checks) {
    if (Listed(check, only_drift)) {
      differences.push_back(DifferenceJson(check));
    }
  }
  const ordered_json report = {{"format_version", 1},
                               {"baseline", FileJson(outcome.baseline)},
                               {"current", FileJson(outcome.current)},
                               {"tolerance", outcome.tolerance},
                               {"strict", outcome.strict},
                               {"seeds", outcome.seeds},
                               {"drift", outcome.drift()},
                               {"summary",
                                {{"results_compared", outcome.results_compared},
                                 {"metrics_beyond", outcome.metrics_beyond},
                                 {"metrics_within", outcome.metrics_within},
                                 {"seeds_differ", outcome.seeds_differ},
                                 {"results_only_in_baseline", outcome.results_only_in_baseline},
                                 {"results_only_in_current", outcome.results_only_in_current},
                                 {"additions", outcome.additions}}},
                               {"differences", differences}};
  return report.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

// ---- JUnit XML ----

// Text for XML: escaped, and the control characters XML 1.0 forbids shown as '?'.
std::string Xml(const std::string& text) {
  std::string clean = text;
  for (char& c : clean) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      c = '?';
    }
  }
  return HtmlEscape(clean);
}

std::string TestCase(const ResultDiff& check) {
  const Row row = RowOf(check, " -> ");
  const std::string axes = check.axes.empty() ? "" : "[" + check.axes + "]";
  // The seed is in the name, so a cell's seeds are test cases of their own.
  std::string text =
      fmt::format("    <testcase classname=\"{}.{}{}\" name=\"{} ({})\"", Xml(check.scenario),
                  Xml(check.policy), Xml(axes), Xml(row.metric), row.seed);
  if (check.kind == DiffKind::kSame) {
    return text + "/>\n";
  }
  const std::string message =
      fmt::format("{}: {}{}, {}", row.seed, row.change,
                  row.detail.empty() ? "" : " (" + row.detail + ")", row.verdict);
  if (!check.beyond) {
    return text + fmt::format("><system-out>{}</system-out></testcase>\n", Xml(message));
  }
  return text + fmt::format("><failure message=\"{0}\" type=\"drift\">{0}</failure></testcase>\n",
                            Xml(message));
}

std::string JunitReport(const CompareOutcome& outcome, bool only_drift) {
  std::vector<std::string> scenarios;
  std::map<std::string, std::vector<const ResultDiff*>> by_scenario;
  for (const ResultDiff& check : outcome.checks) {
    if (only_drift && !check.beyond) {
      continue;
    }
    if (!by_scenario.contains(check.scenario)) {
      scenarios.push_back(check.scenario);
    }
    by_scenario[check.scenario].push_back(&check);
  }
  std::size_t tests = 0;
  std::size_t failures = 0;
  std::string suites;
  for (const std::string& scenario : scenarios) {
    const std::vector<const ResultDiff*>& checks = by_scenario[scenario];
    const auto failed = static_cast<std::size_t>(std::count_if(
        checks.begin(), checks.end(), [](const ResultDiff* check) { return check->beyond; }));
    suites += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
                          Xml(scenario), checks.size(), failed);
    for (const ResultDiff* check : checks) {
      suites += TestCase(*check);
    }
    suites += "  </testsuite>\n";
    tests += checks.size();
    failures += failed;
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"fleetsim compare {} {}\" "
      "tests=\"{}\" failures=\"{}\" errors=\"0\">\n{}</testsuites>\n",
      Xml(outcome.baseline.name), Xml(outcome.current.name), tests, failures, suites);
}

// ---- Markdown ----

std::string Cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    out += c == '|' ? std::string("\\|") : std::string(1, c == '\n' ? ' ' : c);
  }
  return out;
}

std::string MarkdownReport(const CompareOutcome& outcome, bool only_drift) {
  std::string text = fmt::format(
      "### fleetsim compare: {}\n\n{}\n\nBaseline {} · current {} · tolerance: {}\n",
      outcome.drift() ? "drift" : "no drift", CompareSummaryLine(outcome),
      Cell(DescribeFile(outcome.baseline)), Cell(DescribeFile(outcome.current)), outcome.tolerance);
  std::size_t listed = 0;
  std::size_t left_out = 0;
  for (const ResultDiff& check : outcome.checks) {
    if (!Listed(check, only_drift)) {
      continue;
    }
    if (listed == kMaxMarkdownRows) {
      ++left_out;
      continue;
    }
    if (listed++ == 0) {
      text +=
          "\n| scenario | policy | seed | metric | baseline → current | change | status |\n"
          "|---|---|---|---|---|---|---|\n";
    }
    const Row row = RowOf(check, " → ");
    const std::string policy = row.axes.empty() ? row.policy : row.policy + " (" + row.axes + ")";
    text += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", Cell(row.scenario), Cell(policy),
                        Cell(row.seed), Cell(row.metric), Cell(row.change), Cell(row.detail),
                        Cell(row.verdict));
  }
  if (left_out > 0) {
    text += fmt::format("\n…and {} more (the text or JSON report lists every one)\n", left_out);
  }
  return text;
}

// Every format by name, in the order --help lists them.
const std::vector<std::pair<std::string, CompareFormat>>& Formats() {
  static const std::vector<std::pair<std::string, CompareFormat>> kFormats = {
      {"text", CompareFormat::kText},
      {"json", CompareFormat::kJson},
      {"junit", CompareFormat::kJunit},
      {"markdown", CompareFormat::kMarkdown}};
  return kFormats;
}

}  // namespace

const std::vector<std::string>& CompareFormatNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const auto& [name, format] : Formats()) {
      names.push_back(name);
    }
    return names;
  }();
  return kNames;
}

std::optional<CompareFormat> CompareFormatNamed(std::string_view name) {
  for (const auto& [known, format] : Formats()) {
    if (known == name) {
      return format;
    }
  }
  return std::nullopt;
}

std::string CompareReport(const CompareOutcome& outcome, CompareFormat format, bool only_drift) {
  switch (format) {
    case CompareFormat::kText:
      return TextReport(outcome, only_drift);
    case CompareFormat::kJson:
      return JsonReport(outcome, only_drift);
    case CompareFormat::kJunit:
      return JunitReport(outcome, only_drift);
    case CompareFormat::kMarkdown:
      return MarkdownReport(outcome, only_drift);
  }
  return "";
}

std::string CompareSummaryLine(const CompareOutcome& o) {
  std::string line = Plural(o.results_compared, "result compared", "results compared");
  if (std::none_of(o.checks.begin(), o.checks.end(),
                   [](const ResultDiff& check) { return check.kind != DiffKind::kSame; })) {
    return line + ", identical";
  }
  line += ", " + Plural(o.metrics_beyond, "metric differs beyond tolerance",
                        "metrics differ beyond tolerance");
  if (o.metrics_within > 0) {
    line += fmt::format(" ({} within tolerance)", o.metrics_within);
  }
  if (o.seeds_differ > 0) {
    line += ", " + Plural(o.seeds_differ, "seed differs", "seeds differ");
  }
  if (o.results_only_in_baseline > 0) {
    line += ", " + Plural(o.results_only_in_baseline, "result only in the baseline",
                          "results only in the baseline");
  }
  if (o.results_only_in_current > 0) {
    line += ", " + Plural(o.results_only_in_current, "result only in the current",
                          "results only in the current");
  }
  const std::size_t added_metrics = o.additions - (o.strict ? 0 : o.results_only_in_current);
  if (added_metrics > 0) {
    line +=
        ", " + Plural(added_metrics, "metric only in the current", "metrics only in the current");
  }
  if (o.additions > 0) {
    line += " (additions, not drift without --strict)";
  }
  return line;
}

}  // namespace fleetsim
