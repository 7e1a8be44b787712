// The text report of `fleetsim bound` and its --json bounds file.
#include "fleetsim/bound/bound_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "fleetsim/core/version.h"

namespace fleetsim {

namespace {

using nlohmann::ordered_json;

std::string Verdict(const BoundResult& r) {
  if (r.proven_optimal) {
    return "proven optimal";
  }
  return fmt::format("not proven optimal: {}", r.status);
}

double Sum(const std::vector<double>& values) {
  double total = 0;
  for (const double v : values) {
    total += v;
  }
  return total;
}

}  // namespace

std::string BoundText(const BoundReport& report) {
  const BoundResult& r = report.bound;
  std::string out = fmt::format("{}\n", r.scenario);
  out +=
      fmt::format("  bound {:.1f} ({}); best solution {:.1f}; gap {:.2f} %; LP relaxation {:.1f}\n",
                  r.bound, Verdict(r), r.objective, 100.0 * r.gap, r.lp_bound);
  out += fmt::format(
      "  solved in {:.2f} s, {} nodes; model: {} steps of {:g} s, {} columns ({} integer), {} "
      "rows\n",
      r.seconds, r.nodes, r.steps, TimeToSeconds(r.step), r.size.columns, r.size.integer_columns,
      r.size.rows);
  if (!r.has_solution) {
    out += "  no solution found within the time limit\n";
    return out;
  }
  if (report.replay && report.replay->status.ok()) {
    out += fmt::format(
        "  replayed in the simulator: {:.1f} ({:.1f} % of the bound; jobs started later than "
        "planned: {}, earlier: {})\n",
        report.replay->output, r.bound > 0 ? 100.0 * report.replay->output / r.bound : 0.0,
        report.replay->jobs_started_late, report.replay->jobs_started_early);
  } else if (report.replay) {
    out += fmt::format("  replay in the simulator failed: {}\n", report.replay->status.message());
  }
  out += fmt::format("  schedule of the best solution ({} jobs started):\n", r.starts.size());
  out += fmt::format("    {:<24} {:>4}  {:>4}  {:<16}  {:<16}  {:>8}\n", "job", "prio", "GPUs",
                     "start", "end", "output");
  for (const BoundStart& s : r.starts) {
    out += fmt::format("    {:<24} {:>4}  {:>4}  {:<16}  {:<16}  {:>8.1f}\n", s.id, s.priority,
                       s.gpus, FormatTime(s.start), FormatTime(s.end), s.output);
  }
  for (const BoundServicePlan& p : r.services) {
    out += fmt::format(
        "    {:<24} {:>4}  service: holds {:.1f} GPU-h, serves {:.1f} of {:.1f} GPU-h demand; "
        "output {:.1f}\n",
        p.id, p.priority, Sum(p.held_gpu_hours), Sum(p.served_gpu_hours), Sum(p.demand_gpu_hours),
        p.output);
    std::string counts;
    for (const std::int64_t n : p.gpus_at_end) {
      counts += fmt::format("{}{}", counts.empty() ? "" : " ", n);
    }
    out += fmt::format("    {:<24}       GPUs at each step's end: {}\n", "", counts);
  }
  for (const std::string& why : r.left_out) {
    out += fmt::format("  left out: {}\n", why);
  }
  return out;
}

std::string BoundsJson(const std::vector<BoundReport>& reports, const BoundOptions& options) {
  ordered_json bounds = ordered_json::array();
  for (const BoundReport& report : reports) {
    const BoundResult& r = report.bound;
    ordered_json schedule = ordered_json::array();
    for (const BoundStart& s : r.starts) {
      schedule.push_back({{"job", s.id},
                          {"priority", s.priority},
                          {"gpus", s.gpus},
                          {"start_s", TimeToSeconds(s.start)},
                          {"end_s", TimeToSeconds(s.end)},
                          {"output", s.output}});
    }
    ordered_json services = ordered_json::array();
    for (const BoundServicePlan& p : r.services) {
      services.push_back({{"job", p.id},
                          {"priority", p.priority},
                          {"held_gpu_hours", p.held_gpu_hours},
                          {"served_gpu_hours", p.served_gpu_hours},
                          {"demand_gpu_hours", p.demand_gpu_hours},
                          {"gpus_at_step_end", p.gpus_at_end},
                          {"output", p.output}});
    }
    bounds.push_back({{"scenario", r.scenario},
                      {"seed", r.seed},
                      {"bound", r.bound},
                      {"objective", r.objective},
                      {"gap", r.gap},
                      {"proven_optimal", r.proven_optimal},
                      {"lp_bound", r.lp_bound},
                      {"replay_output", report.replay && report.replay->status.ok()
                                            ? ordered_json(report.replay->output)
                                            : ordered_json(nullptr)},
                      {"status", r.status},
                      {"nodes", r.nodes},
                      {"step_s", TimeToSeconds(r.step)},
                      {"steps", r.steps},
                      {"window_end_s", TimeToSeconds(r.window_end)},
                      {"model",
                       {{"columns", r.size.columns},
                        {"integer_columns", r.size.integer_columns},
                        {"rows", r.size.rows},
                        {"nonzeros", r.size.nonzeros}}},
                      {"schedule", std::move(schedule)},
                      {"services", std::move(services)},
                      {"left_out", r.left_out}});
  }
  const ordered_json root = {{"format_version", kBoundsFormatVersion},
                             {"fleetsim_version", kVersion},
                             {"time_limit_s", options.time_limit_s},
                             {"threads", options.threads},
                             {"bounds", std::move(bounds)}};
  return root.dump(1) + "\n";
}

}  // namespace fleetsim
