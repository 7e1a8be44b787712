// topology.conf to blocks or leaf switches (see slurm_topology.h).
#include "cluster_config/slurm_topology.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>
#include <set>

#include "cluster_config/config_lines.h"
#include "cluster_config/hostlist.h"
#include "text/text_fields.h"

namespace fleetsim {

namespace {

// The most nodes a block may hold: a block is a rack, and a node template's rack holds at most
// 10,000 nodes (docs/fleet-model.md).
constexpr std::int64_t kMaxBlockSize = 10'000;

class TopologyReader {
 public:
  explicit TopologyReader(SlurmTopology& topology) : topology_(topology) {}

  Status Read(const std::string& path, const ConfigText& text) {
    for (const ConfigLine& line : text.lines) {
      if (Status status = ReadLine(line); !status.ok()) {
        return status;
      }
    }
    if (topology_.groups.empty()) {
      return Status::InvalidInput(fmt::format(
          "{}: no BlockName line and no SwitchName line with Nodes=: no host is placed", path));
    }
    return topology_.blocks ? Status::Ok() : CheckSwitchTree();
  }

 private:
  // A switch above others: where it is written and the switches it names.
  struct ParentSwitch {
    std::string where;
    std::vector<std::string> children;
  };

  Status ReadLine(const ConfigLine& line) {
    const std::string& kind = line.kind();
    if (kind != "blockname" && kind != "blocksizes" && kind != "switchname") {
      return Status::InvalidInput(
          fmt::format("{}: expected a BlockName=, BlockSizes= or SwitchName= line, found '{}='",
                      line.where(), line.fields.front().key));
    }
    if (Status status = CheckForm(line, kind != "switchname"); !status.ok()) {
      return status;
    }
    if (kind == "blocksizes") {
      return ReadBlockSizes(line);
    }
    if (Status status = CheckFields(line); !status.ok()) {
      return status;
    }
    if (Status status = ClaimName(line); !status.ok()) {
      return status;
    }
    return kind == "blockname" ? ReadBlock(line) : ReadSwitch(line);
  }

  // One file is one plugin's: blocks or switches, not both.
  Status CheckForm(const ConfigLine& line, bool blocks) {
    if (form_where_.empty()) {
      form_where_ = line.where();
      topology_.blocks = blocks;
      return Status::Ok();
    }
    if (topology_.blocks == blocks) {
      return Status::Ok();
    }
    return Status::InvalidInput(
        fmt::format("{}: a {} line in a topology.conf of {} (from {}): a file is for one plugin, "
                    "topology/block or topology/tree",
                    line.where(), line.fields.front().key, topology_.blocks ? "blocks" : "switches",
                    form_where_));
  }

  // Each field once, and only those the line's kind takes.
  static Status CheckFields(const ConfigLine& line) {
    const bool block = line.kind() == "blockname";
    const std::set<std::string> allowed =
        block ? std::set<std::string>{"nodes"}
              : std::set<std::string>{"nodes", "switches", "linkspeed"};
    std::set<std::string> seen;
    for (std::size_t i = 1; i < line.fields.size(); ++i) {
      const ConfigField& field = line.fields[i];
      if (!allowed.contains(field.name)) {
        return Status::InvalidInput(fmt::format(
            "{}: expected {} beside {}, found '{}='", line.where(),
            block ? "only Nodes=" : "Nodes=, Switches= or LinkSpeed=", line.fields.front().key,
            field.key));
      }
      if (!seen.insert(field.name).second) {
        return Status::InvalidInput(fmt::format("{}: {}= given twice", line.where(), field.key));
      }
    }
    return Status::Ok();
  }

  Status ClaimName(const ConfigLine& line) {
    const std::string& name = line.fields.front().value;
    if (name.empty()) {
      return Status::InvalidInput(
          fmt::format("{}: {}= needs a name", line.where(), line.fields.front().key));
    }
    if (const auto [it, fresh] = name_at_.emplace(name, line.where()); !fresh) {
      return Status::InvalidInput(fmt::format("{}: {} '{}' is defined already, at {}", line.where(),
                                              line.fields.front().key, name, it->second));
    }
    return Status::Ok();
  }

  Status ReadBlock(const ConfigLine& line) {
    const ConfigField* nodes = line.Find("nodes");
    if (nodes == nullptr) {
      return Status::InvalidInput(
          fmt::format("{}: expected Nodes= beside BlockName", line.where()));
    }
    return AddGroup(line, *nodes);
  }

  Status ReadSwitch(const ConfigLine& line) {
    const ConfigField* nodes = line.Find("nodes");
    const ConfigField* switches = line.Find("switches");
    if (line.Find("linkspeed") != nullptr) {
      NoteIgnored("SwitchName LinkSpeed");
    }
    ++topology_.switches;
    if ((nodes == nullptr) == (switches == nullptr)) {
      return Status::InvalidInput(
          fmt::format("{}: expected one of Nodes= (a leaf switch) and Switches= (one above "
                      "others), found {}",
                      line.where(), nodes == nullptr ? "neither" : "both"));
    }
    if (nodes != nullptr) {
      return AddGroup(line, *nodes);
    }
    ParentSwitch parent{line.where(), {}};
    if (Status status = ExpandHostList(switches->value, parent.children); !status.ok()) {
      return status.Within(line.where() + ": " + switches->key);
    }
    if (Status status = CountNames(line, parent.children.size()); !status.ok()) {
      return status;
    }
    parents_.emplace(line.fields.front().value, std::move(parent));
    return Status::Ok();
  }

  // Host and switch names in all, against a cap for the whole file.
  Status CountNames(const ConfigLine& line, std::size_t names) {
    names_ += names;
    if (names_ > kMaxHostListHosts) {
      return Status::InvalidInput(
          fmt::format("{}: more than {} host and switch names in the topology", line.where(),
                      kMaxHostListHosts));
    }
    return Status::Ok();
  }

  // A block or leaf switch of the hosts `nodes` names. A host is in one block at most, and a
  // block holds at most kMaxBlockSize hosts; Slurm lets a host hang from several leaf switches.
  Status AddGroup(const ConfigLine& line, const ConfigField& nodes) {
    TopologyGroup group{line.fields.front().value, line.where(), {}};
    if (Status status = ExpandHostList(nodes.value, group.hosts); !status.ok()) {
      return status.Within(line.where() + ": " + nodes.key);
    }
    if (Status status = CountNames(line, group.hosts.size()); !status.ok()) {
      return status;
    }
    if (topology_.blocks) {
      if (static_cast<std::int64_t>(group.hosts.size()) > kMaxBlockSize) {
        return Status::InvalidInput(
            fmt::format("{}: block '{}' has {} hosts, more than the {} a rack may hold",
                        line.where(), group.name, group.hosts.size(), kMaxBlockSize));
      }
      for (const std::string& host : group.hosts) {
        if (const auto [it, fresh] = block_of_host_.emplace(host, line.where()); !fresh) {
          return Status::InvalidInput(fmt::format("{}: host {} is in a block already, at {}",
                                                  line.where(), host, it->second));
        }
      }
    }
    topology_.groups.push_back(std::move(group));
    return Status::Ok();
  }

  // BlockSizes=B,2B,4B...: once, each size the first times a power of two, rising.
  Status ReadBlockSizes(const ConfigLine& line) {
    if (!block_sizes_where_.empty()) {
      return Status::InvalidInput(fmt::format("{}: a second BlockSizes line (the first is at {})",
                                              line.where(), block_sizes_where_));
    }
    if (line.fields.size() > 1) {
      return Status::InvalidInput(
          fmt::format("{}: expected BlockSizes alone on its line, found '{}='", line.where(),
                      line.fields[1].key));
    }
    block_sizes_where_ = line.where();
    for (const std::string_view item : SplitHostListItems(line.fields.front().value)) {
      FieldError error;
      const std::optional<std::int64_t> size = IntField(item, "", 1, kMaxBlockSize, error);
      if (!size) {
        return Status::InvalidInput(
            fmt::format("{}: BlockSizes: expected whole numbers of nodes in [1, {}] separated by "
                        "commas, found '{}'",
                        line.where(), kMaxBlockSize, item));
      }
      const std::vector<std::int64_t>& sizes = topology_.block_sizes;
      if (!sizes.empty() && !IsBaseTimesPowerOfTwo(*size, sizes.front(), sizes.back())) {
        return Status::InvalidInput(fmt::format(
            "{}: BlockSizes: {} follows {}, but each size must be the first ({}) times a power "
            "of two, larger than the one before",
            line.where(), *size, sizes.back(), sizes.front()));
      }
      topology_.block_sizes.push_back(*size);
    }
    return Status::Ok();
  }

  static bool IsBaseTimesPowerOfTwo(std::int64_t size, std::int64_t base, std::int64_t previous) {
    if (size <= previous || size % base != 0) {
      return false;
    }
    const std::int64_t factor = size / base;
    return (factor & (factor - 1)) == 0;
  }

  // Every switch named above another is defined, and none is its own ancestor.
  Status CheckSwitchTree() const {
    for (const auto& [name, parent] : parents_) {
      for (const std::string& child : parent.children) {
        if (!name_at_.contains(child)) {
          return Status::InvalidInput(
              fmt::format("{}: switch {} names switch '{}', which no "
                          "SwitchName line defines",
                          parent.where, name, child));
        }
      }
    }
    std::map<std::string, WalkState> state;
    for (const auto& [name, parent] : parents_) {
      if (Status status = WalkBelow(name, state); !status.ok()) {
        return status;
      }
    }
    return Status::Ok();
  }

  enum class WalkState { kUnseen, kOnPath, kDone };

  // Depth first from `top`, with a stack of its own (a tree may be deep): a switch met again
  // while on the path from `top` is a cycle.
  Status WalkBelow(const std::string& top, std::map<std::string, WalkState>& state) const {
    std::vector<std::pair<const std::string*, std::size_t>> path;  // switch, next child
    const auto enter = [&](const std::string& name) {
      if (parents_.contains(name) && state[name] == WalkState::kUnseen) {
        state[name] = WalkState::kOnPath;
        path.emplace_back(&name, 0);
      }
    };
    enter(top);
    while (!path.empty()) {
      auto& [name, next] = path.back();
      const ParentSwitch& parent = parents_.at(*name);
      if (next == parent.children.size()) {
        state[*name] = WalkState::kDone;
        path.pop_back();
        continue;
      }
      const std::string& child = parent.children[next++];
      if (state[child] == WalkState::kOnPath) {
        return Status::InvalidInput(fmt::format(
            "{}: switch {} names switch '{}', which is {} (a switch tree has no cycles)",
            parent.where, *name, child, child == *name ? "itself" : "above it already"));
      }
      enter(child);
    }
    return Status::Ok();
  }

  void NoteIgnored(const std::string& what) {
    if (std::find(topology_.ignored.begin(), topology_.ignored.end(), what) ==
        topology_.ignored.end()) {
      topology_.ignored.push_back(what);
    }
  }

  SlurmTopology& topology_;
  std::string form_where_;                            // the first line: it sets blocks or switches
  std::string block_sizes_where_;                     // the BlockSizes line
  std::map<std::string, std::string> name_at_;        // block or switch name -> where defined
  std::map<std::string, std::string> block_of_host_;  // host -> where its block is defined
  std::map<std::string, ParentSwitch> parents_;
  std::size_t names_ = 0;  // host and switch names read
};

}  // namespace

Status ReadSlurmTopology(const FileSystem& files, const std::string& path,
                         SlurmTopology& topology) {
  ConfigText text;
  if (Status status = ReadConfigLines(files, path, text); !status.ok()) {
    return status;
  }
  if (!text.missing_includes.empty()) {
    return Status::InvalidInput(
        fmt::format("{}: file not found (the topology would be missing its lines)",
                    text.missing_includes.front()));
  }
  topology = SlurmTopology{};
  return TopologyReader(topology).Read(path, text);
}

}  // namespace fleetsim
