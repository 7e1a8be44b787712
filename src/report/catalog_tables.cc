// Catalog tables for the list commands.
#include "fleetsim/report/catalog_tables.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>

namespace fleetsim {

namespace {

bool IsUnverified(const GpuModel& m, const std::string& field) {
  return std::find(m.unverified.begin(), m.unverified.end(), field) != m.unverified.end();
}

// "989", "3.35", "-" for a missing value; '?' appended when the field is unverified.
std::string Value(const GpuModel& m, const std::string& field, std::optional<double> v) {
  const std::string mark = IsUnverified(m, field) ? "?" : "";
  return v ? fmt::format("{:g}{}", *v, mark) : "-" + mark;
}

}  // namespace

std::string GpuTable(const Catalog& catalog) {
  std::string out =
      fmt::format("{:<11} {:>8} {:>8} {:>9} {:>9} {:>9} {:>8} {:>7} {:>4} {:>9} {:>9} {:>9}\n",
                  "model", "mem GB", "BW TB/s", "BF16 TF", "FP8 TF", "FP4 TF", "NVL GB/s", "TDP W",
                  "MIG", "$/h od", "$/h res", "$/h spot");
  for (const GpuModel& m : catalog.gpus) {
    out += fmt::format(
        "{:<11} {:>8} {:>8} {:>9} {:>9} {:>9} {:>8} {:>7} {:>4} {:>9} {:>9} {:>9}\n", m.name,
        Value(m, "memory_gb", m.memory_gb),
        Value(m, "memory_bandwidth_tbs", m.memory_bandwidth_tbs),
        Value(m, "bf16", m.bf16_dense_tflops), Value(m, "fp8", m.fp8_dense_tflops),
        Value(m, "fp4", m.fp4_dense_tflops), Value(m, "nvlink_gbs", m.nvlink_gbs),
        Value(m, "tdp_w", m.tdp_w),
        std::string(m.supports_mig() ? "yes" : "no") + (IsUnverified(m, "mig") ? "?" : ""),
        Value(m, "on_demand", m.prices.on_demand), Value(m, "reserved", m.prices.reserved),
        Value(m, "spot", m.prices.spot));
  }
  out += "'?': not verified by the sources (docs/fleet-model.md); '-': unknown or not supported.\n";
  return out;
}

std::string MigProfileTable(const GpuModel& model) {
  if (!model.supports_mig()) {
    return fmt::format("{} does not support MIG.\n", model.name);
  }
  std::string out = fmt::format("MIG profiles of {}{}\n", model.name,
                                IsUnverified(model, "mig") ? " (geometry not verified on this "
                                                             "GPU; assumed as on H100)"
                                                           : "");
  out += fmt::format("{:<12} {:>7} {:>7} {:>7} {:>16} {:>7}\n", "profile", "compute", "memory",
                     "mem GB", "valid starts", "max/GPU");
  for (const MigProfile& p : model.mig_profiles) {
    out += fmt::format("{:<12} {:>7} {:>7} {:>7g} {:>16} {:>7}\n", p.name, p.compute_slices,
                       p.memory_slices, p.memory_gb,
                       fmt::format("{{{}}}", fmt::join(p.starts, ",")), p.max_instances);
  }
  out += "compute/memory: slices of 7 and 8; starts are memory-slice positions.\n";
  return out;
}

std::string NodeTemplateTable(const Catalog& catalog) {
  std::string out = fmt::format("{:<16} {:<11} {:>9} {:>12} {:>10}  {}\n", "template", "gpu",
                                "GPUs/node", "NVLink dom.", "nodes/rack", "description");
  for (const NodeTemplate& t : catalog.node_templates) {
    out += fmt::format("{:<16} {:<11} {:>9} {:>12} {:>10}  {}\n", t.name, t.gpu, t.gpus_per_node,
                       t.nvlink_domain_gpus, t.nodes_per_rack, t.description);
  }
  return out;
}

}  // namespace fleetsim
