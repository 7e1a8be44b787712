// The Alibaba GPU cluster trace v2023 ("openb") importer: the pod lists (format
// "alibaba-openb", one pod per row, rows handed out in file order) and the node lists
// (LoadOpenbNodes, OpenbFleet). docs/trace-formats.md ("Alibaba GPU v2023") gives the mapping,
// the options and the rules for rows the trace leaves ambiguous.
#include "fleetsim/trace/alibaba_openb.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "fleetsim/core/check.h"
#include "fleetsim/core/diagnostics.h"
#include "text/csv.h"
#include "text/line_reader.h"
#include "trace/csv_job_source.h"
#include "trace/fields.h"
#include "trace/readers.h"

namespace fleetsim {
namespace {

// Upper bound of a CPU (milli-core) or memory (MiB) amount, for pods and nodes alike.
constexpr std::int64_t kMaxHostAmount = 1'000'000'000'000;
// The most GPUs a node may hold, as for a catalog node template.
constexpr std::int64_t kMaxNodeGpus = 1024;
constexpr double kMilliPerCore = 1000;
constexpr double kMibPerGib = 1024;

std::vector<std::string> NodeColumns() { return {"sn", "cpu_milli", "memory_mib", "gpu", "model"}; }

struct NodeColumnIndex {
  explicit NodeColumnIndex(const CsvHeader& header)
      : sn(*header.Find("sn")),
        cpu_milli(*header.Find("cpu_milli")),
        memory_mib(*header.Find("memory_mib")),
        gpu(*header.Find("gpu")),
        model(*header.Find("model")) {}

  std::size_t sn;
  std::size_t cpu_milli;
  std::size_t memory_mib;
  std::size_t gpu;
  std::size_t model;
};

// A GPU node names a model (one of the catalog's, when there is a catalog); a CPU-only node none.
void CheckNodeModel(const OpenbNode& node, const Catalog* catalog, FieldError& problem) {
  if (node.gpus == 0) {
    if (!node.model.empty()) {
      problem.Set(kReasonBadValue, fmt::format("column 'model': expected no model for a node with "
                                               "gpu 0, found '{}'",
                                               node.model));
    }
    return;
  }
  if (node.model.empty()) {
    problem.Set(kReasonBadValue, fmt::format("column 'model': expected the GPU model of a node "
                                             "with gpu {}, found ''",
                                             node.gpus));
  } else if (catalog != nullptr && catalog->FindGpu(node.model) == nullptr) {
    problem.Set(kReasonUnknownGpuModel,
                fmt::format("column 'model': unknown GPU model '{}'{} (the catalog has {})",
                            node.model, catalog->SuggestGpu(node.model),
                            QuotedList(catalog->GpuNames())));
  }
}

OpenbNode ParseNode(const std::vector<std::string>& fields, const NodeColumnIndex& columns,
                    const Catalog* catalog, FieldError& problem) {
  OpenbNode node;
  node.sn = fields[columns.sn];
  if (node.sn.empty()) {
    problem.Set(kReasonBadValue, "column 'sn': expected a node name, found ''");
  }
  const auto cpu = IntField(fields[columns.cpu_milli], "cpu_milli", 0, kMaxHostAmount, problem);
  const auto memory =
      IntField(fields[columns.memory_mib], "memory_mib", 0, kMaxHostAmount, problem);
  const auto gpus = IntField(fields[columns.gpu], "gpu", 0, kMaxNodeGpus, problem);
  if (!problem.ok()) {
    return node;
  }
  node.cpu_milli = *cpu;
  node.memory_mib = *memory;
  node.gpus = *gpus;
  node.model = fields[columns.model];
  CheckNodeModel(node, catalog, problem);
  return node;
}

// The whole-list checks: at least one GPU node, and no more GPUs than a fleet may have.
Status CheckNodeTotals(const std::string& path, const std::vector<OpenbNode>& nodes) {
  std::int64_t gpus = 0;
  for (const OpenbNode& node : nodes) {
    gpus += node.gpus;
  }
  if (gpus == 0) {
    return Status::InvalidInput(
        fmt::format("{}: no GPU nodes: every node of the list has gpu 0", path));
  }
  if (gpus > kMaxFleetGpus) {
    return Status::InvalidInput(fmt::format(
        "{}: the node list holds {} GPUs; a fleet may have at most {}", path, gpus, kMaxFleetGpus));
  }
  return Status::Ok();
}

// Reads a node list into `out` (appending only on success). Without a catalog (the pod reader
// has none) a GPU node's model may be any name.
Status ReadNodes(const FileSystem& files, const std::string& path, const Catalog* catalog,
                 std::vector<OpenbNode>& out) {
  LineReader lines(files, path);
  CsvHeader header;
  if (Status status = ReadCsvHeader(lines, NodeColumns(), header); !status.ok()) {
    return status;
  }
  const NodeColumnIndex columns(header);
  std::vector<OpenbNode> nodes;
  std::map<std::string, std::int64_t> line_of_sn;
  std::vector<std::string> fields;
  FieldError problem;
  while (NextCsvRow(lines, header, fields, problem)) {
    OpenbNode node;
    if (problem.ok()) {
      node = ParseNode(fields, columns, catalog, problem);
    }
    if (problem.ok()) {
      const auto [first, inserted] = line_of_sn.emplace(node.sn, lines.line_number());
      if (!inserted) {
        problem.Set(kReasonDuplicateId, fmt::format("column 'sn': duplicate node '{}' (first at "
                                                    "line {})",
                                                    node.sn, first->second));
      }
    }
    if (!problem.ok()) {
      return Status::InvalidInput(
          fmt::format("{}:{}: {}", path, lines.line_number(), problem.message));
    }
    node.line = lines.line_number();
    nodes.push_back(std::move(node));
  }
  if (Status status = CheckNodeTotals(path, nodes); !status.ok()) {
    return status;
  }
  out.insert(out.end(), std::make_move_iterator(nodes.begin()),
             std::make_move_iterator(nodes.end()));
  return Status::Ok();
}

// What makes two GPU nodes interchangeable: the same model, GPU count, CPU and memory.
using NodeShape = std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t>;

NodeShape ShapeOf(const OpenbNode& node) {
  return {node.model, node.gpus, node.cpu_milli, node.memory_mib};
}

PoolSpec PoolFor(const OpenbNode& node, const Catalog& catalog) {
  const GpuModel* gpu = catalog.FindGpu(node.model);
  FLEETSIM_CHECK(gpu != nullptr, "OpenbFleet: a node's GPU model is not in the catalog");
  const double cores = static_cast<double>(node.cpu_milli) / kMilliPerCore;
  const double memory_gib = static_cast<double>(node.memory_mib) / kMibPerGib;
  PoolSpec pool;
  pool.name = fmt::format("{}-{}gpu-{}cpu-{}gib", node.model, node.gpus, cores, memory_gib);
  pool.node.name = pool.name;
  pool.node.description = fmt::format(
      "Alibaba openb node: {} x {}, {} CPU cores, {} GiB; no NVLink and one rack per pool "
      "assumed (the trace gives neither)",
      node.gpus, node.model, cores, memory_gib);
  pool.node.gpu = gpu->name;
  pool.node.gpus_per_node = static_cast<int>(node.gpus);
  pool.node.nvlink_domain_gpus = 1;
  pool.node.cpu_cores = cores;
  pool.node.memory_gb = memory_gib;
  pool.gpu = *gpu;
  pool.cpu_cores = cores;
  pool.memory_gb = memory_gib;
  return pool;
}

constexpr std::array<const char*, 5> kPodPhases = {"Pending", "Running", "Succeeded", "Failed",
                                                   "Unknown"};

std::vector<std::string> RequiredPodColumns() {
  return {"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"};
}

std::vector<std::string> UsedPodColumns() {
  std::vector<std::string> used = RequiredPodColumns();
  for (const char* optional : {"gpu_spec", "qos", "pod_phase", "creation_time", "deletion_time"}) {
    used.emplace_back(optional);
  }
  return used;
}

struct OpenbOptions {
  std::string tenant;
  std::vector<std::pair<std::string, std::int64_t>> qos_priorities;  // in the option's order
  SimDuration untimed_duration = 0;
  std::string nodes_path;
};

// "LS=3,BE=1" -> {{"LS", 3}, {"BE", 1}}.
Status ParseQosPriorities(const std::string& text,
                          std::vector<std::pair<std::string, std::int64_t>>& out) {
  const Status expected = Status::InvalidInput(fmt::format(
      "option 'qos_priorities': expected CLASS=WEIGHT pairs separated by commas, each weight an "
      "integer in [1, {}], found '{}'",
      kMaxPriority, text));
  std::size_t start = 0;
  while (true) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string pair = text.substr(start, end - start);
    const std::size_t equals = pair.find('=');
    if (equals == 0 || equals == std::string::npos) {
      return expected;
    }
    const std::string qos = pair.substr(0, equals);
    Status ignored;
    const auto weight =
        IntOption("qos_priorities", pair.substr(equals + 1), 1, kMaxPriority, ignored);
    if (!weight) {
      return expected;
    }
    const bool repeated =
        std::any_of(out.begin(), out.end(), [&](const auto& entry) { return entry.first == qos; });
    if (repeated) {
      return Status::InvalidInput(
          fmt::format("option 'qos_priorities': class '{}' is given twice in '{}'", qos, text));
    }
    out.emplace_back(qos, *weight);
    if (end == text.size()) {
      return Status::Ok();
    }
    start = end + 1;
  }
}

Status ParseOptions(const TraceOptionValues& values, OpenbOptions& options) {
  options.tenant = values.at("tenant");
  if (options.tenant.empty()) {
    return Status::InvalidInput("option 'tenant': expected a tenant name, found ''");
  }
  if (Status status = ParseQosPriorities(values.at("qos_priorities"), options.qos_priorities);
      !status.ok()) {
    return status;
  }
  Status status;
  options.untimed_duration =
      DurationOption("untimed_duration_s", values.at("untimed_duration_s"), status).value_or(0);
  options.nodes_path = values.at("nodes");
  return status;
}

// What a row says beyond its job, counted into the notes once the row is known to be good.
struct RowFacts {
  std::string phase;            // "" when the file has no pod_phase column
  bool zero_lifetime = false;   // deletion_time == creation_time
  bool repeated_model = false;  // gpu_spec names a model twice
};

struct Lifetime {
  SimTime submit = 0;
  SimDuration duration = 0;
};

// A count of pods with something worth a note, and the first of them as an example.
struct PodTally {
  std::int64_t pods = 0;
  std::string example;

  void Add(const std::string& id) {
    if (pods++ == 0) {
      example = id;
    }
  }
};

// The GPU nodes of the `nodes` option, as far as the notes need them.
struct NodeSummary {
  std::int64_t gpu_nodes = 0;
  std::int64_t gpus = 0;
  std::int64_t cpu_only_nodes = 0;
  std::vector<NodeShape> shapes;  // distinct GPU-node shapes
  std::set<std::string> models;

  explicit NodeSummary(const std::vector<OpenbNode>& nodes) {
    std::set<NodeShape> seen;
    for (const OpenbNode& node : nodes) {
      if (node.gpus == 0) {
        ++cpu_only_nodes;
        continue;
      }
      ++gpu_nodes;
      gpus += node.gpus;
      models.insert(node.model);
      if (seen.insert(ShapeOf(node)).second) {
        shapes.push_back(ShapeOf(node));
      }
    }
  }

  bool HasAllModels(const JobRequest& pod) const {
    return std::all_of(pod.gpu_models.begin(), pod.gpu_models.end(),
                       [&](const std::string& model) { return models.contains(model); });
  }

  bool FitsSomeNode(const JobRequest& pod) const {
    return std::any_of(shapes.begin(), shapes.end(), [&](const NodeShape& shape) {
      const auto& [node_model, node_gpus, node_cpu_milli, node_memory_mib] = shape;
      const bool model_ok = pod.gpu_models.empty() ||
                            std::find(pod.gpu_models.begin(), pod.gpu_models.end(), node_model) !=
                                pod.gpu_models.end();
      return model_ok && node_gpus >= pod.gpus && node_cpu_milli >= pod.cpu_milli &&
             node_memory_mib >= pod.memory_mib;
    });
  }
};

class OpenbPodSource final : public CsvJobSource {
 public:
  OpenbPodSource(const FileSystem& files, const std::string& path, OpenbOptions options)
      : CsvJobSource(files, path, RequiredPodColumns(), UsedPodColumns()),
        files_(files),
        options_(std::move(options)) {}

 private:
  // The columns, and the node list if any; fails with the open error.
  Status OnHeader() override {
    name_ = Column("name");
    cpu_milli_ = Column("cpu_milli");
    memory_mib_ = Column("memory_mib");
    num_gpu_ = Column("num_gpu");
    gpu_milli_ = Column("gpu_milli");
    gpu_spec_ = OptionalColumn("gpu_spec");
    qos_ = OptionalColumn("qos");
    pod_phase_ = OptionalColumn("pod_phase");
    creation_ = OptionalColumn("creation_time");
    deletion_ = OptionalColumn("deletion_time");
    if (creation_.has_value() != deletion_.has_value()) {
      return Status::InvalidInput(
          fmt::format("{}:1: expected both creation_time and deletion_time (a pod runs from one "
                      "to the other) or neither, found only {}",
                      path(), creation_ ? "creation_time" : "deletion_time"));
    }
    if (options_.nodes_path.empty()) {
      return Status::Ok();
    }
    std::vector<OpenbNode> nodes;
    if (Status status = ReadNodes(files_, options_.nodes_path, nullptr, nodes); !status.ok()) {
      return status;
    }
    nodes_.emplace(nodes);
    return Status::Ok();
  }

  std::vector<std::string> FormatNotes() const override {
    std::vector<std::string> notes;
    if (!creation_) {
      notes.push_back(
          fmt::format("the file has no creation_time and deletion_time columns: every "
                      "pod is submitted at 0 s and runs for {} s (option "
                      "'untimed_duration_s')",
                      TimeToSeconds(options_.untimed_duration)));
    }
    if (!phase_counts_.empty()) {
      notes.push_back(PhaseNote());
    }
    AddTallyNote(notes, zero_lifetime_,
                 "with deletion_time = creation_time (deleted within the second it was created): "
                 "given a duration of 1 s, the trace's time resolution");
    AddTallyNote(notes, repeated_model_, "with a GPU model repeated in gpu_spec: repeats dropped");
    if (nodes_) {
      AddNodeNotes(notes);
    }
    return notes;
  }

  // The row's facts are kept until Accepted counts them in the notes' tallies.
  void FillJob(Job& job, FieldError& problem) override {
    facts_ = RowFacts{};
    FillPod(job, facts_, problem);
  }

  void Accepted(const Job& job) override { Count(job.request, facts_); }

  void FillPod(Job& job, RowFacts& facts, FieldError& problem) const {
    const auto id = IdField(Field(name_), "name", problem);
    const auto cpu = IntField(Field(cpu_milli_), "cpu_milli", 0, kMaxHostAmount, problem);
    const auto memory = IntField(Field(memory_mib_), "memory_mib", 0, kMaxHostAmount, problem);
    const auto gpus = IntField(Field(num_gpu_), "num_gpu", 0, kMaxJobGpus, problem);
    const auto milli = IntField(Field(gpu_milli_), "gpu_milli", 0, kWholeGpuMilli, problem);
    std::vector<std::string> models = GpuModels(facts, problem);
    const std::int64_t priority = Priority(problem);
    facts.phase = Phase(problem);
    const std::optional<Lifetime> lifetime = ReadLifetime(facts, problem);
    if (!problem.ok()) {
      return;
    }
    CheckGpuShare(*gpus, *milli, *cpu, problem);
    if (*gpus == 0 && !models.empty()) {
      problem.Set(kReasonBadValue, fmt::format("column 'gpu_spec': expected no GPU models for a "
                                               "CPU-only pod (num_gpu 0), found '{}'",
                                               Field(*gpu_spec_)));
    }
    if (!problem.ok()) {
      return;
    }
    JobRequest& r = job.request;
    r.id = *id;
    r.submit = lifetime->submit;
    r.tenant = options_.tenant;
    r.priority_class = qos_ ? Field(*qos_) : "";
    r.priority = priority;
    r.gpus = *gpus;
    r.gpu_models = std::move(models);
    if (*gpus == 1 && *milli < kWholeGpuMilli) {
      r.sharing = GpuSharing::kFraction;
      r.gpu_milli = *milli;
    }
    r.cpu_milli = *cpu;
    r.memory_mib = *memory;
    job.truth.duration = lifetime->duration;
  }

  // The rules tying num_gpu, gpu_milli and cpu_milli together (README: gpu_milli is the share of
  // each GPU, fractions only with num_gpu 1; a CPU-only pod has gpu_milli 0).
  static void CheckGpuShare(std::int64_t gpus, std::int64_t milli, std::int64_t cpu,
                            FieldError& problem) {
    if (gpus == 0 && milli != 0) {
      problem.Set(kReasonZeroGpus, fmt::format("column 'num_gpu': expected at least 1 GPU for a "
                                               "pod with gpu_milli {}, found 0",
                                               milli));
    } else if (gpus == 0 && cpu == 0) {
      problem.Set(kReasonZeroGpus,
                  "column 'cpu_milli': expected cpu_milli > 0 for a CPU-only "
                  "pod (num_gpu 0), found 0");
    } else if (gpus > 0 && milli == 0) {
      problem.Set(kReasonOutOfRange, fmt::format("column 'gpu_milli': expected an integer in "
                                                 "[1, 1000] for a pod with num_gpu {}, found 0",
                                                 gpus));
    } else if (gpus > 1 && milli < kWholeGpuMilli) {
      problem.Set(kReasonBadValue, fmt::format("column 'gpu_milli': expected 1000 for a pod with "
                                               "num_gpu {} (a share below 1000 needs num_gpu 1), "
                                               "found {}",
                                               gpus, milli));
    }
  }

  // gpu_spec: '|'-separated model names, a repeated name dropped; empty = any model.
  std::vector<std::string> GpuModels(RowFacts& facts, FieldError& problem) const {
    std::vector<std::string> models;
    if (!gpu_spec_ || Field(*gpu_spec_).empty()) {
      return models;
    }
    const std::string& spec = Field(*gpu_spec_);
    std::size_t start = 0;
    while (true) {
      const std::size_t end = std::min(spec.find('|', start), spec.size());
      std::string model = spec.substr(start, end - start);
      if (model.empty()) {
        problem.Set(kReasonBadValue, fmt::format("column 'gpu_spec': expected GPU model names "
                                                 "separated by '|', found '{}'",
                                                 spec));
        return {};
      }
      if (std::find(models.begin(), models.end(), model) == models.end()) {
        models.push_back(std::move(model));
      } else {
        facts.repeated_model = true;
      }
      if (end == spec.size()) {
        return models;
      }
      start = end + 1;
    }
  }

  // The weight of the row's qos class (option qos_priorities); 1 when qos is empty or absent.
  std::int64_t Priority(FieldError& problem) const {
    if (!qos_ || Field(*qos_).empty()) {
      return 1;
    }
    const std::string& qos = Field(*qos_);
    for (const auto& [name, weight] : options_.qos_priorities) {
      if (name == qos) {
        return weight;
      }
    }
    std::vector<std::string> classes;
    for (const auto& entry : options_.qos_priorities) {
      classes.push_back(entry.first);
    }
    problem.Set(kReasonBadValue,
                fmt::format("column 'qos': expected one of {} (option 'qos_priorities'), found "
                            "'{}'{}",
                            QuotedList(classes), qos, DidYouMean(qos, classes)));
    return 1;
  }

  std::string Phase(FieldError& problem) const {
    if (!pod_phase_) {
      return "";
    }
    const std::string& phase = Field(*pod_phase_);
    if (std::find(kPodPhases.begin(), kPodPhases.end(), phase) == kPodPhases.end()) {
      const std::vector<std::string> phases(kPodPhases.begin(), kPodPhases.end());
      problem.Set(kReasonBadValue,
                  fmt::format("column 'pod_phase': expected one of {}, found '{}'{}",
                              QuotedList(phases), phase, DidYouMean(phase, phases)));
    }
    return phase;
  }

  // submit = creation_time, duration = deletion_time - creation_time (1 s when they are equal);
  // without the two columns, submit 0 and the option's duration.
  std::optional<Lifetime> ReadLifetime(RowFacts& facts, FieldError& problem) const {
    if (!creation_) {
      return Lifetime{0, options_.untimed_duration};
    }
    const auto created = SecondsField(Field(*creation_), "creation_time", problem);
    const auto deleted = SecondsField(Field(*deletion_), "deletion_time", problem);
    if (!created || !deleted) {
      return std::nullopt;
    }
    if (*deleted < *created) {
      problem.Set(kReasonNegativeTime, fmt::format("column 'deletion_time': expected a time at or "
                                                   "after creation_time {}, found {}",
                                                   Field(*creation_), Field(*deletion_)));
      return std::nullopt;
    }
    facts.zero_lifetime = *deleted == *created;
    return Lifetime{*created, facts.zero_lifetime ? kMillisPerSecond : *deleted - *created};
  }

  void Count(const JobRequest& pod, const RowFacts& facts) {
    if (!facts.phase.empty()) {
      ++phase_counts_[facts.phase];
    }
    if (facts.zero_lifetime) {
      zero_lifetime_.Add(pod.id);
    }
    if (facts.repeated_model) {
      repeated_model_.Add(pod.id);
    }
    if (nodes_ && !nodes_->HasAllModels(pod)) {
      model_not_in_nodes_.Add(pod.id);
    }
    if (nodes_ && !nodes_->FitsSomeNode(pod)) {
      fits_no_node_.Add(pod.id);
    }
  }

  std::string PhaseNote() const {
    std::vector<std::string> counts;
    for (const char* phase : kPodPhases) {
      if (const auto it = phase_counts_.find(phase); it != phase_counts_.end()) {
        counts.push_back(fmt::format("{} {}", it->second, phase));
      }
    }
    return fmt::format(
        "pod phases: {}; pods of every phase are imported (the phase is not part "
        "of the job model)",
        fmt::join(counts, ", "));
  }

  static void AddTallyNote(std::vector<std::string>& notes, const PodTally& tally,
                           const std::string& what) {
    if (tally.pods > 0) {
      notes.push_back(fmt::format("{} pod{} {} (e.g. '{}')", tally.pods, tally.pods == 1 ? "" : "s",
                                  what, tally.example));
    }
  }

  void AddNodeNotes(std::vector<std::string>& notes) const {
    std::string summary = fmt::format("{} GPU nodes, {} GPUs ({})", nodes_->gpu_nodes, nodes_->gpus,
                                      options_.nodes_path);
    if (nodes_->cpu_only_nodes > 0) {
      summary += fmt::format("; {} CPU-only node{} left out", nodes_->cpu_only_nodes,
                             nodes_->cpu_only_nodes == 1 ? "" : "s");
    }
    notes.push_back(summary);
    AddTallyNote(notes, model_not_in_nodes_,
                 "with a GPU model in gpu_spec that no node of the node list has");
    AddTallyNote(notes, fits_no_node_,
                 "fitting on no GPU node of the node list (by GPU count, GPU model, CPU or "
                 "memory), imported all the same");
  }

  const FileSystem& files_;  // where the node list is read from
  OpenbOptions options_;
  std::size_t name_ = 0;
  std::size_t cpu_milli_ = 0;
  std::size_t memory_mib_ = 0;
  std::size_t num_gpu_ = 0;
  std::size_t gpu_milli_ = 0;
  std::optional<std::size_t> gpu_spec_;
  std::optional<std::size_t> qos_;
  std::optional<std::size_t> pod_phase_;
  std::optional<std::size_t> creation_;
  std::optional<std::size_t> deletion_;
  std::optional<NodeSummary> nodes_;
  std::map<std::string, std::int64_t> phase_counts_;
  PodTally zero_lifetime_;
  PodTally repeated_model_;
  PodTally model_not_in_nodes_;
  PodTally fits_no_node_;
  RowFacts facts_;  // of the row last read
};

OpenResult OpenOpenb(const FileSystem& files, const std::string& path,
                     const TraceOptionValues& values) {
  OpenbOptions options;
  if (const Status status = ParseOptions(values, options); !status.ok()) {
    return {nullptr, status.Within(path)};
  }
  return OpenCsvSource<OpenbPodSource>(files, path, std::move(options));
}

}  // namespace

Status LoadOpenbNodes(const FileSystem& files, const std::string& path, const Catalog& catalog,
                      std::vector<OpenbNode>& out) {
  return ReadNodes(files, path, &catalog, out);
}

FleetSpec OpenbFleet(const std::vector<OpenbNode>& nodes, const Catalog& catalog) {
  FleetSpec fleet;
  std::map<NodeShape, std::size_t> pool_of_shape;
  for (const OpenbNode& node : nodes) {
    if (node.gpus == 0) {
      continue;
    }
    const auto [it, added] = pool_of_shape.emplace(ShapeOf(node), fleet.pools.size());
    if (added) {
      fleet.pools.push_back(PoolFor(node, catalog));
    }
    ++fleet.pools[it->second].nodes;
    fleet.gpus += node.gpus;
  }
  for (PoolSpec& pool : fleet.pools) {
    pool.node.nodes_per_rack = static_cast<int>(pool.nodes);
  }
  return fleet;
}

TraceFormat AlibabaOpenbFormat() {
  return TraceFormat{
      .name = "alibaba-openb",
      .summary =
          "Alibaba GPU cluster trace v2023 (openb) pod list: name,cpu_milli,memory_mib,"
          "num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,"
          "scheduled_time",
      .options =
          {
              {.name = "tenant",
               .default_value = "default",
               .doc = "the tenant of every pod (the trace names no users or teams)"},
              {.name = "qos_priorities",
               .default_value = "LS=3,Guaranteed=3,Burstable=2,BE=1",
               .doc = "CLASS=WEIGHT pairs: the priority weight of each qos class (the class "
                      "itself becomes priority_class); a pod whose qos is not listed is a bad "
                      "row, an empty qos gets weight 1. The default ranks classes by how firmly "
                      "they hold their resources: reserved (Guaranteed, latency-sensitive LS), "
                      "then Burstable, then best-effort BE"},
              {.name = "untimed_duration_s",
               .default_value = "12902960",
               .doc = "the duration of every pod in a file without creation_time and "
                      "deletion_time columns (the multigpu50 variant), where all pods are "
                      "submitted at 0 s; the default is the span of the default variant "
                      "(149.3 days), so no pod leaves within the traced window"},
              {.name = "nodes",
               .default_value = "",
               .doc = "a node list (openb_node_list_gpu_node.csv) to check the pods against: "
                      "the notes then give its GPU nodes and GPUs and count the pods that name "
                      "a model it lacks or fit on none of its nodes (they are still imported)"},
          },
      .open = OpenOpenb,
  };
}

}  // namespace fleetsim
