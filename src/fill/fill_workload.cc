// Loading a fill experiment's nodes and pods from the openb trace files.
#include "fleetsim/fill/fill_workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/trace/alibaba_openb.h"
#include "fleetsim/trace/import.h"
#include "text/csv.h"
#include "text/line_reader.h"
#include "text/text_fields.h"

namespace fleetsim {

namespace {

Status LoadNodes(const FileSystem& files, const std::string& path, FillWorkload& out) {
  std::vector<OpenbNode> nodes;
  if (Status status = LoadOpenbNodes(files, path, BuiltinCatalog(), nodes); !status.ok()) {
    return status;
  }
  for (const OpenbNode& node : nodes) {
    if (node.gpus == 0) {
      continue;  // a CPU-only node: not part of the GPU cluster (as for OpenbFleet)
    }
    if (node.gpus > static_cast<std::int64_t>(kMaxSharedNodeGpus)) {
      return Status::InvalidInput(
          fmt::format("{}:{}: column 'gpu': expected at most {} GPUs per node for a fill "
                      "experiment, found {} (node '{}')",
                      path, node.line, kMaxSharedNodeGpus, node.gpus, node.sn));
    }
    const int model = out.models.Index(node.model);
    if (model < 0) {
      return Status::InvalidInput(
          fmt::format("{}:{}: column 'model': expected at most {} GPU models in a fill "
                      "experiment, found more (node '{}')",
                      path, node.line, kMaxGpuModels, node.sn));
    }
    SharedNode shared{.free = {.cpu_free_milli = node.cpu_milli,
                               .model = model,
                               .gpu_count = static_cast<std::size_t>(node.gpus)},
                      .cpu_capacity_milli = node.cpu_milli,
                      .memory_free_mib = node.memory_mib};
    std::fill_n(shared.free.gpu_free.begin(), shared.free.gpu_count,
                static_cast<std::int32_t>(kGpuMilli));
    out.node_names.push_back(node.sn);
    out.nodes.push_back(shared);
    out.gpu_capacity_milli += node.gpus * kGpuMilli;
  }
  return Status::Ok();
}

// The gpu_spec text of every pod of the list at `path` (already read by the checked reader, which
// rejects empty model names), as the paper's artifact keys typical pods by it: as written, a
// repeated model kept (the importer drops repeats: "V100M16|V100M32|V100M32" and
// "V100M16|V100M32" are one model set but two typical-pod keys there).
Status LoadGpuSpecTexts(const FileSystem& files, const std::string& path,
                        std::map<std::string, std::string>& out) {
  LineReader lines(files, path);
  if (!lines.ok()) {
    return lines.status();
  }
  CsvHeader header;
  if (Status status = ReadCsvHeader(lines, {"name"}, header); !status.ok()) {
    return status;
  }
  const std::size_t name_column = *header.Find("name");
  const std::optional<std::size_t> spec_column = header.Find("gpu_spec");
  std::vector<std::string> fields;
  FieldError problem;
  while (NextCsvRow(lines, header, fields, problem)) {
    if (!problem.ok()) {
      return Status::InvalidInput(
          fmt::format("{}:{}: {}", path, lines.line_number(), problem.message));
    }
    out[fields[name_column]] = spec_column ? fields[*spec_column] : "";
  }
  return Status::Ok();
}

Status LoadPods(const FileSystem& files, const std::string& path, double popularity,
                FillWorkload& out) {
  const TraceFormat* format = FindTraceFormat("alibaba-openb");
  TraceOptionValues options;
  if (Status status = ResolveTraceOptions(*format, {}, options); !status.ok()) {
    return status;
  }
  Workload pods;
  const TraceReport report = ReadTrace(*format, path, options, {.files = &files}, pods);
  if (!report.ok()) {
    return report.status;
  }
  std::map<std::string, std::string> spec_texts;
  if (Status status = LoadGpuSpecTexts(files, path, spec_texts); !status.ok()) {
    return status;
  }
  std::vector<ListedTask> listed;
  for (const Job& job : pods.jobs) {
    const JobRequest& r = job.request;
    FillPod pod{.name = r.id,
                .request = {.cpu_milli = r.cpu_milli,
                            .memory_mib = r.memory_mib,
                            .gpus = r.gpus,
                            .gpu_milli = r.gpus == 0                          ? 0
                                         : r.sharing == GpuSharing::kFraction ? r.gpu_milli
                                                                              : kGpuMilli}};
    if (!out.models.Mask(r.gpu_models, pod.request.models)) {
      return Status::InvalidInput(
          fmt::format("{}: pod '{}': more than {} GPU models", path, r.id, kMaxGpuModels));
    }
    listed.push_back({.shape = {.cpu_milli = pod.request.cpu_milli,
                                .gpu_milli = pod.request.gpu_milli,
                                .gpus = pod.request.gpus,
                                .models = pod.request.models},
                      .models_text = r.gpus == 0 ? "" : spec_texts.at(r.id)});
    out.pods.push_back(std::move(pod));
  }
  const bool asks_for_gpus = std::any_of(out.pods.begin(), out.pods.end(), [](const FillPod& p) {
    return p.request.GpuDemandMilli() > 0;
  });
  if (!asks_for_gpus) {
    return Status::InvalidInput(
        fmt::format("{}: expected pods asking for GPUs (a fill fills GPUs), found none among "
                    "{} pods",
                    path, out.pods.size()));
  }
  std::stable_sort(out.pods.begin(), out.pods.end(),
                   [](const FillPod& a, const FillPod& b) { return a.name < b.name; });
  out.typical = ComputeTypicalTasks(listed, popularity);
  return Status::Ok();
}

}  // namespace

Status LoadFillWorkload(const FileSystem& files, const std::string& nodes_path,
                        const std::string& pods_path, double popularity, FillWorkload& out) {
  FillWorkload loaded;
  if (Status status = LoadNodes(files, nodes_path, loaded); !status.ok()) {
    return status;
  }
  if (Status status = LoadPods(files, pods_path, popularity, loaded); !status.ok()) {
    return status;
  }
  out = std::move(loaded);
  return Status::Ok();
}

}  // namespace fleetsim
