// slurm.conf and gres.conf to a fleet and scheduler parameters (see slurm_config.h).
#include "fleetsim/cluster_config/slurm_config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "cluster_config/config_lines.h"
#include "cluster_config/hostlist.h"
#include "cluster_config/slurm_topology.h"
#include "fleetsim/core/diagnostics.h"
#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/fleet/mig.h"
#include "text/text_fields.h"
#include "text/utc_time.h"

namespace fleetsim {

namespace {

using nlohmann::ordered_json;

constexpr double kMibPerGib = 1024;
constexpr std::int64_t kMaxWeight = 4'294'967'295;

// The GPUs of one type on a node, by Gres= field or gres.conf.
struct GpuCounts {
  std::map<std::string, std::int64_t> whole;              // type -> GPUs
  std::map<std::string, std::map<std::string, int>> mig;  // type -> profile -> n
  bool empty() const { return whole.empty() && mig.empty(); }
};

// The most GPUs (or MIG instances) one GRES entry may count: 7 instances on each of the 1,024
// GPUs a node template may hold.
constexpr std::int64_t kMaxGresCount = 7 * kMaxGpusPerNode;

// Adds `count` GPUs of `type` (whole or MIG) to `counts`.
void AddGpus(const std::string& type, std::int64_t count, GpuCounts& counts) {
  if (const std::optional<MigTypeName> mig = SplitMigTypeName(type)) {
    // Saturated just past the most a node holds, which the fleet builder then refuses, so that
    // no number of entries overflows.
    int& instances = counts.mig[mig->model][mig->profile];
    instances = static_cast<int>(std::min<std::int64_t>(instances + count, kMaxGresCount + 1));
  } else {
    counts.whole[type] += count;
  }
}

std::string CountsText(const GpuCounts& counts) {
  std::vector<std::string> items;
  for (const auto& [type, n] : counts.whole) {
    items.push_back(fmt::format("gpu:{}{}", type.empty() ? "" : type + ":", n));
  }
  for (const auto& [model, profiles] : counts.mig) {
    for (const auto& [profile, n] : profiles) {
      items.push_back(fmt::format("gpu:{}{}:{}", model.empty() ? "" : model + "_", profile, n));
    }
  }
  return items.empty() ? "no GPUs" : fmt::format("{}", fmt::join(items, ","));
}

// A non-negative whole number, or nullopt.
std::optional<std::int64_t> Count(std::string_view text) {
  FieldError ignored;
  return IntField(text, "", 0, 1'000'000'000'000, ignored);
}

// A GRES count: a whole number up to kMaxGresCount, or nullopt.
std::optional<std::int64_t> GresCount(std::string_view text) {
  const std::optional<std::int64_t> count = Count(text);
  return count && *count <= kMaxGresCount ? count : std::nullopt;
}

// A NodeName line, or consecutive lines that differ only in their names.
struct NodeLine {
  const ConfigLine* line = nullptr;  // the first
  std::vector<std::string> hosts;
  std::map<std::string, std::string> fields;  // lower-case name -> value, defaults merged in
  bool merged = false;                        // more than one line
};

bool SameShape(const NodeLine& a, const NodeLine& b) {
  auto x = a.fields;
  auto y = b.fields;
  x.erase("nodename");
  y.erase("nodename");
  return x == y;
}

struct GresEntry {
  std::string where;
  std::string type;
  std::int64_t count = 0;
};

class SlurmImporter {
 public:
  SlurmImporter(const Catalog& catalog, const SlurmImportOptions& options)
      : files_(options.files != nullptr ? *options.files : DiskFileSystem()),
        builder_(catalog, options.types, "slurm") {}

  SlurmImport Import(const std::string& slurm_conf, const std::string& gres_conf,
                     const std::string& topology_conf) {
    SlurmImport result;
    topology_conf_ = topology_conf;
    result.status = Run(slurm_conf, gres_conf, result.fleet);
    return result;
  }

 private:
  Status Run(const std::string& slurm_conf, const std::string& gres_conf, ImportedFleet& imported) {
    ConfigText conf;
    if (Status status = ReadConfigLines(files_, slurm_conf, conf); !status.ok()) {
      return status;
    }
    for (const std::string& include : conf.missing_includes) {
      notes_.push_back(include + ": not found, so its lines are not imported");
    }
    if (Status status = ReadNodes(conf); !status.ok()) {
      return status;
    }
    if (!gres_conf.empty()) {
      if (Status status = ReadGresConf(gres_conf); !status.ok()) {
        return status;
      }
    }
    if (Status status = ReadTopology(); !status.ok()) {
      return status;
    }
    if (Status status = ReadPartitions(conf); !status.ok()) {
      return status;
    }
    if (Status status = ReadParameters(conf, imported.parameters); !status.ok()) {
      return status;
    }
    if (Status status = BuildPools(); !status.ok()) {
      return status;
    }
    NoteUncheckedHosts();
    NotePartitions();
    if (builder_.empty()) {
      return Status::InvalidInput(
          fmt::format("{}: no node with GPUs (no NodeName line with a gpu Gres{})", slurm_conf,
                      conf.missing_includes.empty()
                          ? ""
                          : "; includes not found: " +
                                fmt::format("{}", fmt::join(conf.missing_includes, "; "))));
    }
    imported.fleet = builder_.Finish(imported.notes);
    imported.notes.insert(imported.notes.end(), notes_.begin(), notes_.end());
    if (!unmodelled_.empty()) {
      imported.notes.push_back(
          fmt::format("not modelled, so not imported: {}", fmt::join(unmodelled_, ", ")));
    }
    return Status::Ok();
  }

  // ---- NodeName and NodeSet lines ----

  Status ReadNodes(const ConfigText& conf) {
    std::map<std::string, std::string> defaults;
    std::map<std::string, std::string> defined_at;  // host -> where its NodeName line is
    for (const ConfigLine& line : conf.lines) {
      if (line.kind() != "nodename") {
        continue;
      }
      std::map<std::string, std::string> fields = defaults;
      for (const ConfigField& field : line.fields) {
        fields[field.name] = field.value;
      }
      if (line.fields.front().value == "DEFAULT") {
        defaults = fields;
        continue;
      }
      NodeLine node{&line, {}, std::move(fields), false};
      if (Status status = ExpandHostList(line.fields.front().value, node.hosts); !status.ok()) {
        return status.Within(line.where() + ": NodeName");
      }
      for (const std::string& host : node.hosts) {
        if (const auto [it, fresh] = defined_at.emplace(host, line.where()); !fresh) {
          return Status::InvalidInput(
              fmt::format("{}: node {} is defined already, at {}", line.where(), host, it->second));
        }
      }
      const bool merge = !nodes_.empty() && SameShape(nodes_.back(), node);
      if (!merge) {
        nodes_.push_back({node.line, {}, node.fields, false});
      }
      NodeLine& target = nodes_.back();  // consecutive lines of one shape, as scontrol lists
      target.merged = merge || target.merged;
      for (const std::string& host : node.hosts) {
        host_line_[host] = nodes_.size() - 1;
        target.hosts.push_back(host);
      }
    }
    for (const ConfigLine& line : conf.lines) {  // node sets, once every node is known
      if (line.kind() == "nodeset") {
        if (Status status = ReadNodeSet(line); !status.ok()) {
          return status;
        }
      }
    }
    return Status::Ok();
  }

  Status ReadNodeSet(const ConfigLine& line) {
    std::vector<std::string>& hosts = node_sets_[line.fields.front().value];
    if (const ConfigField* nodes = line.Find("nodes")) {
      return ExpandHostList(nodes->value, hosts).Within(line.where() + ": Nodes");
    }
    if (const ConfigField* feature = line.Find("feature")) {
      for (const NodeLine& node : nodes_) {
        auto it = node.fields.find("features");
        it = it == node.fields.end() ? node.fields.find("feature") : it;
        if (it != node.fields.end() &&
            ("," + it->second + ",").find("," + feature->value + ",") != std::string::npos) {
          hosts.insert(hosts.end(), node.hosts.begin(), node.hosts.end());
        }
      }
      return Status::Ok();
    }
    return Status::InvalidInput(
        fmt::format("{}: a NodeSet needs Nodes= or Feature=", line.where()));
  }

  // The GPUs of scontrol's CfgTRES= ("cpu=64,mem=514404M,gres/gpu=4,gres/gpu:a100=4"): the
  // typed counts, else the untyped one.
  static Status CfgTresGpus(const NodeLine& node, const std::string& tres, GpuCounts& counts) {
    std::vector<std::string> items;
    SplitOnComma(tres, items);
    GpuCounts untyped;
    for (const std::string& item : items) {
      const std::size_t eq = item.find('=');
      const std::string key = item.substr(0, eq);
      if (key != "gres/gpu" && !key.starts_with("gres/gpu:")) {
        continue;
      }
      const std::optional<std::int64_t> count =
          eq == std::string::npos ? std::nullopt : GresCount(item.substr(eq + 1));
      if (!count) {
        return Status::InvalidInput(
            fmt::format("{}: CfgTRES '{}': expected {}=COUNT with a whole COUNT up to {}",
                        node.line->where(), item, key, kMaxGresCount));
      }
      if (*count > 0) {
        AddGpus(key == "gres/gpu" ? "" : key.substr(9), *count,
                key == "gres/gpu" ? untyped : counts);
      }
    }
    if (counts.empty()) {
      counts = untyped;
    }
    return Status::Ok();
  }

  // A TRES entry of CfgTRES ("cpu", "mem"), or "".
  static std::string CfgTresEntry(const NodeLine& node, const std::string& name) {
    const auto it = node.fields.find("cfgtres");
    if (it == node.fields.end()) {
      return "";
    }
    std::vector<std::string> items;
    SplitOnComma(it->second, items);
    for (const std::string& item : items) {
      if (item.starts_with(name + "=")) {
        return item.substr(name.size() + 1);
      }
    }
    return "";
  }

  // The GPUs of a node line's Gres= field ("gpu:h100:8,gpu:a100_3g.20gb:2,mps:100"), or of its
  // CfgTRES= when it has no Gres=.
  Status GresField(const NodeLine& node, GpuCounts& counts) {
    if (!node.fields.contains("gres") && node.fields.contains("cfgtres")) {
      return CfgTresGpus(node, node.fields.at("cfgtres"), counts);
    }
    const auto it = node.fields.find("gres");
    if (it == node.fields.end() || it->second.empty() || it->second == "(null)") {
      return Status::Ok();
    }
    std::vector<std::string> items;
    SplitOnComma(it->second, items);
    for (std::string item : items) {
      item = item.substr(0, item.find('('));  // "(S:0-1)": the sockets, not modelled
      const std::size_t colon = item.find(':');
      const std::string name = item.substr(0, colon);
      if (name != "gpu") {
        unmodelled_.insert("GRES '" + name + "'");
        continue;
      }
      const std::size_t last = item.rfind(':');
      const std::string type = colon == last ? "" : item.substr(colon + 1, last - colon - 1);
      const std::optional<std::int64_t> count = colon == std::string::npos
                                                    ? std::optional<std::int64_t>(1)
                                                    : GresCount(item.substr(last + 1));
      if (!count) {
        return Status::InvalidInput(
            fmt::format("{}: Gres '{}': expected gpu[:TYPE]:COUNT with a whole COUNT up to {}",
                        node.line->where(), item, kMaxGresCount));
      }
      if (*count > 0) {
        AddGpus(type, *count, counts);
      }
    }
    return Status::Ok();
  }

  static void SplitOnComma(const std::string& text, std::vector<std::string>& out) {
    out.clear();
    std::size_t begin = 0;
    while (begin <= text.size()) {
      const std::size_t comma = text.find(',', begin);
      const std::string item = text.substr(begin, comma - begin);
      if (!item.empty()) {
        out.push_back(item);
      }
      if (comma == std::string::npos) {
        break;
      }
      begin = comma + 1;
    }
  }

  // ---- gres.conf ----

  Status ReadGresConf(const std::string& path) {
    gres_conf_ = path;
    ConfigText gres;
    if (Status status = ReadConfigLines(files_, path, gres); !status.ok()) {
      return status;
    }
    for (const std::string& include : gres.missing_includes) {
      notes_.push_back(include + ": not found, so its lines are not imported");
    }
    for (const ConfigLine& line : gres.lines) {
      if (Status status = ReadGresLine(line); !status.ok()) {
        return status;
      }
    }
    return Status::Ok();
  }

  Status ReadGresLine(const ConfigLine& line) {
    const ConfigField* name = line.Find("name");
    if (line.Find("autodetect") != nullptr && name == nullptr) {
      autodetect_ = true;
      notes_.push_back(line.where() + ": AutoDetect: GPU counts are slurm.conf's");
      return Status::Ok();
    }
    if (name == nullptr) {
      return Status::InvalidInput(
          fmt::format("{}: expected a Name= field (the GRES, e.g. Name=gpu)", line.where()));
    }
    if (name->value != "gpu") {
      unmodelled_.insert("GRES '" + name->value + "'");
      return Status::Ok();
    }
    GresEntry entry{line.where(), line.Find("type") ? line.Find("type")->value : "", 0};
    if (Status status = DeviceCount(line, entry.count); !status.ok()) {
      return status;
    }
    std::vector<std::string> hosts;
    if (const ConfigField* nodes = line.Find("nodename")) {
      if (Status status = ExpandHostList(nodes->value, hosts); !status.ok()) {
        return status.Within(line.where() + ": NodeName");
      }
      NoteUnknownHosts(line, hosts);
    } else {
      for (const NodeLine& node : nodes_) {
        hosts.insert(hosts.end(), node.hosts.begin(), node.hosts.end());
      }
    }
    std::optional<std::int64_t> highest_core;
    if (Status status = HighestCore(line, highest_core); !status.ok()) {
      return status;
    }
    for (const std::string& host : hosts) {
      if (Status status = CheckCores(line, highest_core, host); !status.ok()) {
        return status;
      }
      gres_by_host_[host].push_back(entry);
    }
    return Status::Ok();
  }

  // Hosts of a gres.conf line that slurm.conf does not define are left out, with a note (a
  // gres.conf shared by several clusters names others' nodes; a misspelt name is found so).
  void NoteUnknownHosts(const ConfigLine& line, std::vector<std::string>& hosts) {
    const auto unknown = std::stable_partition(
        hosts.begin(), hosts.end(), [&](const auto& host) { return host_line_.contains(host); });
    if (unknown != hosts.end()) {
      notes_.push_back(fmt::format(
          "{}: NodeName names {} host(s) slurm.conf does not define (first: {}); left out",
          line.where(), hosts.end() - unknown, *unknown));
      hosts.erase(unknown, hosts.end());
    }
  }

  // Count= if given (Slurm takes it only as the number of File= devices, when both are given),
  // else the devices File= names (a host-list-like range), else 1 for MultipleFiles= (one MIG
  // device made of several files).
  static Status DeviceCount(const ConfigLine& line, std::int64_t& count) {
    const ConfigField* given = line.Find("count");
    if (given != nullptr) {
      const std::optional<std::int64_t> n = GresCount(given->value);
      if (!n) {
        return Status::InvalidInput(
            fmt::format("{}: Count: expected a whole number up to {}, found '{}'", line.where(),
                        kMaxGresCount, given->value));
      }
      count = *n;
    }
    if (const ConfigField* file = line.Find("file")) {
      std::vector<std::string> devices;
      if (Status status = ExpandHostList(file->value, devices); !status.ok()) {
        return status.Within(line.where() + ": File");
      }
      const auto files = static_cast<std::int64_t>(devices.size());
      if (given != nullptr && files != count) {
        return Status::InvalidInput(
            fmt::format("{}: Count={} but File= names {} device(s); Slurm needs them to agree",
                        line.where(), count, files));
      }
      if (files > kMaxGresCount) {
        return Status::InvalidInput(
            fmt::format("{}: File: {} devices, more than {}", line.where(), files, kMaxGresCount));
      }
      count = files;
      return Status::Ok();
    }
    if (given != nullptr) {
      return Status::Ok();
    }
    count = line.Find("multiplefiles") != nullptr ? 1 : 0;
    if (count == 0) {
      return Status::InvalidInput(fmt::format(
          "{}: expected Count=, File= or MultipleFiles= to say how many GPUs", line.where()));
    }
    return Status::Ok();
  }

  // Cores=[0-3] or 0,1,2: the highest core index the line names (each line once).
  static Status HighestCore(const ConfigLine& line, std::optional<std::int64_t>& highest) {
    const ConfigField* cores = line.Find("cores");
    if (cores == nullptr) {
      return Status::Ok();
    }
    std::vector<std::string> indexes;
    const std::string& value = cores->value;
    const std::string bracketed =
        !value.empty() && value.front() == '[' ? "c" + value : "c[" + value + "]";
    if (value.empty() || !ExpandHostList(bracketed, indexes).ok()) {
      return Status::InvalidInput(fmt::format(
          "{}: Cores: expected core indexes like [0-3] or 0,1,2, found '{}'", line.where(), value));
    }
    for (const std::string& index : indexes) {
      const std::optional<std::int64_t> n = Count(std::string_view(index).substr(1));
      highest = std::max(highest.value_or(0), n.value_or(0));
    }
    return Status::Ok();
  }

  // The line's core indexes must exist on the host (below its CPU count, when slurm.conf says).
  Status CheckCores(const ConfigLine& line, std::optional<std::int64_t> highest,
                    const std::string& host) {
    const auto node = host_line_.find(host);
    if (!highest || node == host_line_.end()) {
      return Status::Ok();
    }
    std::optional<double> cpus;
    if (Status status = Cpus(nodes_[node->second], cpus); !status.ok()) {
      return status;
    }
    if (cpus && static_cast<double>(*highest) >= *cpus) {
      return Status::InvalidInput(fmt::format("{}: Cores={}: core {} is beyond node {}'s {} CPUs",
                                              line.where(), line.Find("cores")->value, *highest,
                                              host, *cpus));
    }
    return Status::Ok();
  }

  // ---- Pools ----

  // A number field of the node line (absent: nullopt); a malformed one is an error at its line.
  static Status NodeNumber(const NodeLine& node, const std::string& name, const char* key,
                           std::optional<double>& value) {
    value.reset();
    const auto it = node.fields.find(name);
    if (it == node.fields.end()) {
      return Status::Ok();
    }
    FieldError problem;
    value = RealField(it->second, key, 0, 1e12, problem);
    return value ? Status::Ok()
                 : Status::InvalidInput(fmt::format("{}: {}: expected a number, found '{}'",
                                                    node.line->where(), key, it->second));
  }

  // CPUs, else Sockets x CoresPerSocket x ThreadsPerCore, else CfgTRES cpu=; nullopt if none.
  static Status Cpus(const NodeLine& node, std::optional<double>& cpus) {
    if (Status status = NodeNumber(node, "cpus", "CPUs", cpus); !status.ok() || cpus) {
      return status;
    }
    std::optional<double> sockets;
    std::optional<double> cores;
    std::optional<double> threads;
    for (auto [name, key, value] : {std::tuple{"sockets", "Sockets", &sockets},
                                    std::tuple{"corespersocket", "CoresPerSocket", &cores},
                                    std::tuple{"threadspercore", "ThreadsPerCore", &threads}}) {
      if (Status status = NodeNumber(node, name, key, *value); !status.ok()) {
        return status;
      }
    }
    if (sockets || cores || threads) {
      cpus = sockets.value_or(1) * cores.value_or(1) * threads.value_or(1);
      return Status::Ok();
    }
    if (const std::string tres = CfgTresEntry(node, "cpu"); !tres.empty()) {
      NodeLine from_tres{node.line, {}, {{"cpu", tres}}, false};
      return NodeNumber(from_tres, "cpu", "CfgTRES cpu", cpus);
    }
    return Status::Ok();
  }

  // RealMemory (MiB), else CfgTRES mem=, in GiB; nullopt if neither.
  static Status MemoryGb(const NodeLine& node, std::optional<double>& gb) {
    std::optional<double> mib;
    if (Status status = NodeNumber(node, "realmemory", "RealMemory", mib); !status.ok()) {
      return status;
    }
    if (const std::string tres = CfgTresEntry(node, "mem"); !mib && !tres.empty()) {
      const std::optional<std::int64_t> size = SizeMib(tres);
      if (!size) {
        return Status::InvalidInput(
            fmt::format("{}: CfgTRES mem: expected a size such as 512G, "
                        "found '{}'",
                        node.line->where(), tres));
      }
      mib = static_cast<double>(*size);
    }
    gb = mib ? std::optional(*mib / kMibPerGib) : std::nullopt;
    return Status::Ok();
  }

  // The GPUs of a node line, the same on every host of it.
  Status LineGpus(const NodeLine& node, GpuCounts& counts) {
    for (const std::string& host : node.hosts) {
      GpuCounts host_counts;
      if (Status status = HostGpus(node, host, host_counts); !status.ok()) {
        return status;
      }
      if (&host == &node.hosts.front()) {
        counts = host_counts;
      } else if (CountsText(host_counts) != CountsText(counts)) {
        return Status::InvalidInput(fmt::format(
            "{}: nodes {} and {} of one NodeName line have different GPUs ({} and {}); give "
            "them lines of their own",
            node.line->where(), node.hosts.front(), host, CountsText(counts),
            CountsText(host_counts)));
      }
      if (gres_by_host_.empty()) {  // slurm.conf alone: every host has the line's Gres
        if (!gres_conf_.empty() && !counts.empty()) {
          CountUnchecked(node.hosts.front(), node.hosts.size());
        }
        break;
      }
    }
    return Status::Ok();
  }

  // GPU hosts gres.conf does not speak of: their counts are slurm.conf's, unchecked.
  void CountUnchecked(const std::string& host, std::size_t hosts) {
    if (unchecked_hosts_ == 0) {
      first_unchecked_host_ = host;
    }
    unchecked_hosts_ += hosts;
  }

  void NoteUncheckedHosts() {
    if (unchecked_hosts_ > 0 && !autodetect_) {  // AutoDetect's note says so already
      notes_.push_back(fmt::format(
          "{}: says nothing of {} node(s) that slurm.conf gives GPUs (first: {}); their counts "
          "are slurm.conf's, unchecked",
          gres_conf_, unchecked_hosts_, first_unchecked_host_));
    }
  }

  // A host's GPUs: slurm.conf's Gres=, checked against gres.conf when it speaks of the host.
  Status HostGpus(const NodeLine& node, const std::string& host, GpuCounts& counts) {
    if (Status status = GresField(node, counts); !status.ok()) {
      return status;
    }
    const auto gres = gres_by_host_.find(host);
    if (gres == gres_by_host_.end()) {
      if (!gres_by_host_.empty() && !counts.empty()) {
        CountUnchecked(host, 1);
      }
      return Status::Ok();
    }
    GpuCounts from_gres;
    std::vector<std::string> where;
    for (const GresEntry& entry : gres->second) {
      AddGpus(entry.type, entry.count, from_gres);
      where.push_back(entry.where);
    }
    const bool untyped_in_conf =
        counts.mig.empty() && counts.whole.size() == 1 && counts.whole.begin()->first.empty();
    std::int64_t gres_total = 0;
    for (const auto& [type, n] : from_gres.whole) {
      gres_total += n;
    }
    for (const auto& [model, profiles] : from_gres.mig) {
      for (const auto& [profile, n] : profiles) {
        gres_total += n;
      }
    }
    if (untyped_in_conf && counts.whole.begin()->second == gres_total) {
      counts = from_gres;  // slurm.conf counts them, gres.conf says what they are
      return Status::Ok();
    }
    if (CountsText(counts) != CountsText(from_gres)) {
      return Status::InvalidInput(
          fmt::format("{}: node {} has {} in slurm.conf's Gres, but gres.conf ({}) gives it {}",
                      node.line->where(), host, CountsText(counts), fmt::join(where, ", "),
                      CountsText(from_gres)));
    }
    return Status::Ok();
  }

  Status BuildPools() {
    std::int64_t cpu_only = 0;
    for (const NodeLine& node : nodes_) {
      GpuCounts counts;
      if (Status status = LineGpus(node, counts); !status.ok()) {
        return status;
      }
      if (counts.empty()) {
        cpu_only += static_cast<std::int64_t>(node.hosts.size());
        continue;
      }
      if (Status status = AddGroups(node, counts); !status.ok()) {
        return status;
      }
      NoteNodeFields(node);
    }
    if (cpu_only > 0) {
      notes_.push_back(fmt::format("{} node{} without GPUs not modelled (a fleet is GPU nodes)",
                                   cpu_only, cpu_only == 1 ? "" : "s"));
    }
    return Status::Ok();
  }

  // One group per GPU type of the node; MIG types go with the whole-GPU type of their model (or
  // the node's only one).
  Status AddGroups(const NodeLine& node, const GpuCounts& counts) {
    std::set<std::string> types;
    for (const auto& [type, n] : counts.whole) {
      types.insert(type);
    }
    for (const auto& [model, profiles] : counts.mig) {
      const bool alone = model.empty() && counts.whole.size() == 1;
      types.insert(alone ? counts.whole.begin()->first : model);
    }
    const std::string base = PoolName(node);
    for (const std::string& type : types) {
      NodeGroup group;
      group.name = types.size() == 1 ? base : base + "-" + (type.empty() ? "gpu" : type);
      group.where = node.line->where();
      group.nodes = static_cast<std::int64_t>(node.hosts.size());
      group.gpu_type = type;
      if (const auto it = counts.whole.find(type); it != counts.whole.end()) {
        group.whole_gpus = it->second;
      }
      for (const auto& [model, profiles] : counts.mig) {
        const bool alone = model.empty() && counts.whole.size() == 1;
        if (model == type || alone) {
          for (const auto& [profile, n] : profiles) {
            group.mig_instances[profile] += n;
          }
        }
      }
      if (Status status = Cpus(node, group.cpu_cores); !status.ok()) {
        return status;
      }
      if (Status status = MemoryGb(node, group.memory_gb); !status.ok()) {
        return status;
      }
      const auto index = static_cast<std::size_t>(&node - nodes_.data());
      if (const auto blocks = nodes_by_block_size_.find(index);
          blocks != nodes_by_block_size_.end()) {
        group.nodes_by_block_size = blocks->second;
      }
      if (Status status = builder_.Add(group, pools_of_node_[index]); !status.ok()) {
        return status;
      }
    }
    return Status::Ok();
  }

  // "gpu-node[01-08]" -> "gpu-node01-08": the host list without its brackets; for merged lines
  // the hosts' common prefix without trailing digits ("a100gpu1", "a100gpu2" -> "a100gpu").
  static std::string PoolName(const NodeLine& node) {
    if (node.merged) {
      return CommonNamePrefix(node.hosts);
    }
    std::string name;
    for (const char c : node.line->fields.front().value) {
      if (c != '[' && c != ']') {
        name.push_back(c == ',' ? '_' : c);
      }
    }
    return name;
  }

  void NoteNodeFields(const NodeLine& node) {
    static const std::set<std::string> kUsed = {"nodename",       "cpus",           "sockets",
                                                "corespersocket", "threadspercore", "realmemory",
                                                "gres",           "cfgtres"};
    for (const auto& [name, value] : node.fields) {
      if (name == "state" && value == "CLOUD" && !cloud_nodes_noted_) {
        cloud_nodes_noted_ = true;
        notes_.push_back(node.line->where() +
                         ": State=CLOUD nodes (powered up on demand) are modelled as always up");
      } else if (!kUsed.contains(name)) {
        unmodelled_.insert("NodeName " + name);
      }
    }
  }

  // ---- topology.conf ----

  // Reads --topology: its blocks' sizes by NodeName line; a switch tree is checked and noted.
  Status ReadTopology() {
    if (topology_conf_.empty()) {
      return Status::Ok();
    }
    SlurmTopology topology;
    if (Status status = ReadSlurmTopology(files_, topology_conf_, topology); !status.ok()) {
      return status;
    }
    topology_blocks_ = topology.blocks;
    for (const std::string& field : topology.ignored) {
      unmodelled_.insert("topology.conf " + field);
    }
    if (topology.blocks) {
      for (const TopologyGroup& group : topology.groups) {
        std::size_t line = 0;
        if (Status status = BlockLine(group, line); !status.ok()) {
          return status;
        }
        const auto size = static_cast<std::int64_t>(group.hosts.size());
        nodes_by_block_size_[line][size] += size;
      }
      AddNodesInNoBlock();
      NoteBlocks(topology);
    } else {
      notes_.push_back(fmt::format(
          "{}: a switch tree of {} switches, {} of them leaves, read and checked; switches are "
          "not modelled (a template's nodes_per_rack gives racks)",
          topology_conf_, topology.switches, topology.groups.size()));
    }
    return Status::Ok();
  }

  // The NodeName line (index in nodes_) of a block's hosts: every host defined, and all of one
  // line, as a block is an NVLink domain of one kind of node.
  Status BlockLine(const TopologyGroup& group, std::size_t& line) const {
    for (const std::string& host : group.hosts) {
      const auto at = host_line_.find(host);
      if (at == host_line_.end()) {
        return Status::InvalidInput(
            fmt::format("{}: block '{}' has host {}, which no NodeName line of slurm.conf defines",
                        group.where, group.name, host));
      }
      if (&host != &group.hosts.front() && at->second != line) {
        return Status::InvalidInput(fmt::format(
            "{}: block '{}' has hosts of two NodeName lines ({} at {}, {} at {}); an NVLink "
            "block is one kind of node",
            group.where, group.name, group.hosts.front(), nodes_[line].line->where(), host,
            nodes_[at->second].line->where()));
      }
      line = at->second;
    }
    return Status::Ok();
  }

  // Each line's nodes in no block, as blocks of size 0.
  void AddNodesInNoBlock() {
    for (std::size_t line = 0; line < nodes_.size(); ++line) {
      std::map<std::int64_t, std::int64_t>& sizes = nodes_by_block_size_[line];
      std::int64_t in_blocks = 0;
      for (const auto& [size, nodes] : sizes) {
        in_blocks += nodes;
      }
      const auto all = static_cast<std::int64_t>(nodes_[line].hosts.size());
      if (in_blocks < all) {
        sizes[0] = all - in_blocks;
      }
    }
  }

  void NoteBlocks(const SlurmTopology& topology) {
    std::map<std::int64_t, std::int64_t> blocks_of_size;
    for (const TopologyGroup& group : topology.groups) {
      ++blocks_of_size[static_cast<std::int64_t>(group.hosts.size())];
    }
    std::vector<std::string> counts;
    for (const auto& [size, n] : blocks_of_size) {
      counts.push_back(fmt::format("{} of {} node{}", n, size, size == 1 ? "" : "s"));
    }
    notes_.push_back(fmt::format("{}: {} block{} ({}){}", topology_conf_, topology.groups.size(),
                                 topology.groups.size() == 1 ? "" : "s", fmt::join(counts, ", "),
                                 topology.block_sizes.empty()
                                     ? ""
                                     : fmt::format("; BlockSizes {} (job placement levels, not "
                                                   "modelled)",
                                                   fmt::join(topology.block_sizes, ","))));
  }

  void NoteTopologyPlugin(const ConfigLine& line, const ConfigField& field) {
    const std::string plugin = AsciiLower(field.value);
    if (plugin != "topology/block" && plugin != "topology/tree") {
      unmodelled_.insert(field.key);
    } else if (!topology_blocks_) {
      notes_.push_back(fmt::format(
          "{}: {}={}: give its topology.conf with --topology to read its {}", line.where(),
          field.key, field.value, plugin == "topology/block" ? "NVLink blocks" : "switches"));
    } else if (*topology_blocks_ != (plugin == "topology/block")) {
      notes_.push_back(fmt::format("{}: {}={}, but the --topology file has {}: read as such",
                                   line.where(), field.key, field.value,
                                   *topology_blocks_ ? "blocks" : "switches"));
    }
  }

  // ---- Partitions ----

  Status ReadPartitions(const ConfigText& conf) {
    std::map<std::string, std::string> defaults;
    for (const ConfigLine& line : conf.lines) {
      if (line.kind() != "partitionname") {
        continue;
      }
      std::map<std::string, std::string> fields = defaults;
      for (const ConfigField& field : line.fields) {
        fields[field.name] = field.value;
      }
      const std::string& name = line.fields.front().value;
      if (name == "DEFAULT") {
        defaults = fields;
        continue;
      }
      std::vector<std::string> hosts;
      if (Status status = PartitionHosts(line, fields["nodes"], hosts); !status.ok()) {
        return status;
      }
      partitions_.push_back({name, std::move(hosts)});
      // The default partition's DefaultTime, else (no partition marked) the first partition's.
      const bool is_default = AsciiLower(fields["default"]) == "yes";
      if (is_default || (!default_marked_ && partitions_.size() == 1)) {
        default_marked_ = is_default;
        default_time_ = fields["defaulttime"];
        default_time_where_ = line.where();
      }
      for (const auto& [key, value] : fields) {
        if (key != "partitionname" && key != "nodes" && key != "default" && key != "defaulttime") {
          unmodelled_.insert("PartitionName " + key);
        }
      }
    }
    return Status::Ok();
  }

  Status PartitionHosts(const ConfigLine& line, const std::string& nodes,
                        std::vector<std::string>& hosts) {
    if (nodes == "ALL") {
      for (const NodeLine& node : nodes_) {
        hosts.insert(hosts.end(), node.hosts.begin(), node.hosts.end());
      }
      return Status::Ok();
    }
    for (const std::string_view item_view : SplitHostListItems(nodes)) {
      const std::string item(item_view);
      if (const auto set = node_sets_.find(item); set != node_sets_.end()) {
        hosts.insert(hosts.end(), set->second.begin(), set->second.end());
        continue;
      }
      std::vector<std::string> expanded;
      if (Status status = ExpandHostList(item, expanded); !status.ok()) {
        return status.Within(line.where() + ": Nodes");
      }
      hosts.insert(hosts.end(), expanded.begin(), expanded.end());
    }
    return Status::Ok();
  }

  void NotePartitions() {
    for (const auto& [name, hosts] : partitions_) {
      std::vector<std::string> pools;
      for (const std::string& host : hosts) {
        const auto line = host_line_.find(host);
        if (line == host_line_.end()) {
          continue;
        }
        for (const std::string& pool : pools_of_node_[line->second]) {
          if (std::find(pools.begin(), pools.end(), pool) == pools.end()) {
            pools.push_back(pool);
          }
        }
      }
      notes_.push_back(
          fmt::format("partition '{}': {}", name,
                      pools.empty() ? std::string("no GPU pool") : "pools " + QuotedList(pools)));
    }
  }

  // ---- Scheduler parameters ----

  Status ReadParameters(const ConfigText& conf, ordered_json& parameters) {
    ordered_json fair_share = ordered_json::object();
    ordered_json backfill = ordered_json::object();
    for (const ConfigLine& line : conf.lines) {
      const std::string& kind = line.kind();
      if (kind == "nodename" || kind == "nodeset" || kind == "partitionname") {
        continue;
      }
      for (const ConfigField& field : line.fields) {
        if (Status status = ReadParameter(line, field, fair_share, backfill); !status.ok()) {
          return status;
        }
      }
    }
    const std::string unlimited = AsciiLower(default_time_);
    if (!default_time_.empty() && unlimited != "unlimited" && unlimited != "infinite") {
      const std::optional<std::int64_t> seconds = SlurmMinutesOrTime(default_time_);
      if (!seconds || *seconds < 1) {
        return Status::InvalidInput(
            fmt::format("{}: DefaultTime: expected minutes or [D-]HH:MM:SS, found '{}'",
                        default_time_where_, default_time_));
      }
      backfill["default_walltime_s"] = *seconds;
    }
    if (!backfill.empty() || scheduler_backfill_) {
      backfill["mode"] = "conservative";
      backfill["reservation_boundary"] = "slurm";
      notes_.push_back(
          "backfill: mode conservative, as Slurm's backfill reserves for every job "
          "it examines; reservation_boundary slurm, as it lets no job end exactly when a "
          "reservation begins");
    }
    if (!fair_share.empty()) {
      fair_share["charge_at_end"] = charge_at_end_;
      notes_.push_back(fmt::format(
          "fair-share: charge_at_end {}, as AccountingStorageEnforce {} limits, safe or all{}",
          charge_at_end_,
          !enforce_given_  ? "is absent: none of"
          : charge_at_end_ ? "has"
                           : "has none of",
          charge_at_end_ ? "" : " (Slurm then charges only jobs running at a PriorityCalcPeriod)"));
      parameters["fair-share"] = fair_share;
    }
    if (!backfill.empty()) {
      parameters["backfill"] = backfill;
    }
    return Status::Ok();
  }

  // Slurm's time values: a bare number is minutes; else [D-]HH:MM:SS and its short forms.
  static std::optional<std::int64_t> SlurmMinutesOrTime(const std::string& text) {
    if (const std::optional<std::int64_t> minutes = Count(text)) {
      return *minutes * 60;
    }
    return ParseSlurmDuration(text);
  }

  Status Weight(const ConfigLine& line, const ConfigField& field, const char* parameter,
                ordered_json& out) {
    const std::optional<std::int64_t> weight = Count(field.value);
    if (!weight || *weight > kMaxWeight) {
      return Status::InvalidInput(
          fmt::format("{}: {}: expected a whole number in [0, {}], found "
                      "'{}'",
                      line.where(), field.key, kMaxWeight, field.value));
    }
    out[parameter] = *weight;
    return Status::Ok();
  }

  Status Time(const ConfigLine& line, const ConfigField& field, const char* parameter,
              std::int64_t unit_if_number, ordered_json& out) {
    const std::optional<std::int64_t> plain = Count(field.value);
    const std::optional<std::int64_t> seconds =
        plain ? std::optional(*plain * unit_if_number) : ParseSlurmDuration(field.value);
    if (!seconds) {
      return Status::InvalidInput(
          fmt::format("{}: {}: expected a time as [D-]HH:MM:SS, D-HH or a number, found '{}'",
                      line.where(), field.key, field.value));
    }
    if (*seconds == 0) {
      notes_.push_back(fmt::format("{}: {}=0 (off) has no fleetsim equivalent; the default kept",
                                   line.where(), field.key));
      return Status::Ok();
    }
    out[parameter] = *seconds;
    return Status::Ok();
  }

  Status ReadParameter(const ConfigLine& line, const ConfigField& field, ordered_json& fair_share,
                       ordered_json& backfill) {
    static const std::map<std::string, const char*> kWeights = {
        {"priorityweightage", "weight_age"},
        {"priorityweightfairshare", "weight_fairshare"},
        {"priorityweightjobsize", "weight_job_size"},
        {"priorityweightqos", "weight_qos"}};
    const std::string& name = field.name;
    if (const auto weight = kWeights.find(name); weight != kWeights.end()) {
      return Weight(line, field, weight->second, fair_share);
    }
    if (name == "prioritymaxage") {
      return Time(line, field, "max_age_s", 60, fair_share);
    }
    if (name == "prioritydecayhalflife") {
      return Time(line, field, "decay_half_life_s", 60, fair_share);
    }
    if (name == "prioritycalcperiod") {
      return Time(line, field, "calc_period_s", 60, fair_share);
    }
    if (name == "priorityfavorsmall") {
      fair_share["favor_small"] = field.value == "YES" || field.value == "yes";
      return Status::Ok();
    }
    if (name == "priorityflags") {
      std::vector<std::string> flags;
      SplitOnComma(field.value, flags);
      for (const std::string& flag : flags) {
        if (flag == "NO_FAIR_TREE") {
          fair_share["fairshare_algorithm"] = "classic";
        } else {
          unmodelled_.insert("PriorityFlags " + flag);
        }
      }
      return Status::Ok();
    }
    if (name == "fairsharedampeningfactor") {
      const std::optional<std::int64_t> d = Count(field.value);
      if (!d || *d < 1 || *d > 1'000'000) {
        return Status::InvalidInput(
            fmt::format("{}: {}: expected a whole number in [1, 1000000], found '{}'", line.where(),
                        field.key, field.value));
      }
      fair_share["dampening"] = *d;
      return Status::Ok();
    }
    if (name == "accountingstorageenforce") {
      std::vector<std::string> flags;
      SplitOnComma(AsciiLower(field.value), flags);
      charge_at_end_ = std::any_of(flags.begin(), flags.end(), [](const std::string& flag) {
        return flag == "limits" || flag == "safe" || flag == "all";
      });
      enforce_given_ = true;
      return Status::Ok();
    }
    if (name == "schedulertype") {
      scheduler_backfill_ = field.value == "sched/backfill";
      notes_.push_back(fmt::format(
          "{}: SchedulerType={}{}", line.where(), field.value,
          scheduler_backfill_ ? " (fleetsim's backfill)" : " (fleetsim's fifo is the nearest)"));
      return Status::Ok();
    }
    if (name == "schedulerparameters") {
      return SchedulerParameters(line, field, backfill);
    }
    if (name == "topologyplugin") {
      NoteTopologyPlugin(line, field);
      return Status::Ok();
    }
    if (name == "priorityweightpartition" || name == "priorityweightassoc" ||
        name == "priorityweighttres" || name == "prioritytype") {
      unmodelled_.insert(field.key);
      return Status::Ok();
    }
    if (name != "gres" && name != "grestypes") {
      unmodelled_.insert(field.key);
    }
    return Status::Ok();
  }

  Status SchedulerParameters(const ConfigLine& line, const ConfigField& field,
                             ordered_json& backfill) {
    std::vector<std::string> items;
    SplitOnComma(field.value, items);
    for (const std::string& item : items) {
      const std::size_t eq = item.find('=');
      const std::string key = item.substr(0, eq);
      const std::optional<std::int64_t> value =
          eq == std::string::npos ? std::nullopt : Count(item.substr(eq + 1));
      const auto set = [&](const char* parameter, std::int64_t scaled, std::int64_t low,
                           std::int64_t high) {
        if (!value || scaled < low || scaled > high) {
          return Status::InvalidInput(fmt::format(
              "{}: SchedulerParameters {}: expected a whole number giving {} in [{}, {}], found "
              "'{}'",
              line.where(), key, parameter, low, high, item));
        }
        backfill[parameter] = scaled;
        return Status::Ok();
      };
      Status status;
      if (key == "bf_window") {
        status = set("window_s", value.value_or(0) * 60, 60, 2'592'000);
      } else if (key == "bf_resolution") {
        status = set("resolution_s", value.value_or(0), 1, 3600);
      } else if (key == "bf_max_job_test") {
        status = set("max_job_test", value.value_or(0), 1, 1'000'000);
      } else {
        unmodelled_.insert("SchedulerParameters " + key);
      }
      if (!status.ok()) {
        return status;
      }
    }
    return Status::Ok();
  }

  const FileSystem& files_;
  FleetBuilder builder_;
  std::string topology_conf_;            // --topology: "" when not given
  std::optional<bool> topology_blocks_;  // once read: whether it has blocks (else switches)
  std::vector<NodeLine> nodes_;
  std::map<std::string, std::size_t> host_line_;  // host -> index in nodes_
  // By index in nodes_: block size in nodes -> the line's nodes in blocks of it (0: no block).
  std::map<std::size_t, std::map<std::int64_t, std::int64_t>> nodes_by_block_size_;
  std::map<std::string, std::vector<std::string>> node_sets_;
  std::string gres_conf_;  // --gres: "" when not given
  std::map<std::string, std::vector<GresEntry>> gres_by_host_;
  std::size_t unchecked_hosts_ = 0;  // GPU hosts gres.conf says nothing of
  bool autodetect_ = false;          // gres.conf has an AutoDetect line
  std::string first_unchecked_host_;
  std::vector<std::pair<std::string, std::vector<std::string>>> partitions_;
  std::map<std::size_t, std::vector<std::string>> pools_of_node_;  // by index in nodes_
  std::string default_time_;
  std::string default_time_where_;
  bool default_marked_ = false;  // a partition said Default=YES
  bool scheduler_backfill_ = false;
  bool charge_at_end_ = false;  // AccountingStorageEnforce has limits, safe or all
  bool enforce_given_ = false;  // AccountingStorageEnforce is in slurm.conf
  bool cloud_nodes_noted_ = false;
  std::set<std::string> unmodelled_;
  std::vector<std::string> notes_;
};

}  // namespace

SlurmImport ImportSlurmFleet(const std::string& slurm_conf, const std::string& gres_conf,
                             const SlurmImportOptions& options) {
  const Catalog& catalog = options.catalog == nullptr ? BuiltinCatalog() : *options.catalog;
  return SlurmImporter(catalog, options).Import(slurm_conf, gres_conf, options.topology);
}

}  // namespace fleetsim
