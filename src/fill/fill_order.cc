// Reading fill order files: "kind,name,rank" rows, a pod per arrival and every node once.
#include "fleetsim/fill/fill_order.h"

#include <fmt/format.h>

#include <charconv>
#include <limits>
#include <map>
#include <string_view>

#include "text/line_reader.h"

namespace fleetsim {

namespace {

constexpr std::uint32_t kNoRank = std::numeric_limits<std::uint32_t>::max();

std::vector<std::string> SplitCommas(const std::string& line) {
  std::vector<std::string> fields(1);
  for (const char c : line) {
    if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

std::map<std::string, std::size_t> IndexByName(const std::vector<std::string>& names) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < names.size(); ++i) {
    index.emplace(names[i], i);
  }
  return index;
}

class OrderReader {
 public:
  OrderReader(const std::string& path, const FillWorkload& workload)
      : path_(path), nodes_(IndexByName(workload.node_names)) {
    std::vector<std::string> pod_names;
    for (const FillPod& pod : workload.pods) {
      pod_names.push_back(pod.name);
    }
    pods_ = IndexByName(pod_names);
    order_.tie_rank.assign(workload.nodes.size(), kNoRank);
    rank_taken_.assign(workload.nodes.size(), false);
  }

  // Fails with the row's problem.
  Status Row(const std::vector<std::string>& fields) {
    // A pod row may carry an empty rank field, as CSV writers give a three-column file.
    if (fields[0] == "pod" && (fields.size() == 2 || (fields.size() == 3 && fields[2].empty()))) {
      return Pod(fields[1]);
    }
    if (fields[0] == "node" && fields.size() == 3) {
      return Node(fields[1], fields[2]);
    }
    return Status::InvalidInput(fmt::format(
        "expected \"pod,NAME\" or \"node,NAME,RANK\", found \"{}\"", fmt::join(fields, ",")));
  }

  Status Finish(FillOrder& out) {
    if (order_.arrivals.empty()) {
      return Status::InvalidInput(
          fmt::format("{}: expected at least one pod row, found none", path_));
    }
    for (std::size_t n = 0; n < order_.tie_rank.size(); ++n) {
      if (order_.tie_rank[n] == kNoRank) {
        return Status::InvalidInput(
            fmt::format("{}: expected a node row for every node of the node list; none for \"{}\"",
                        path_, NameOfNode(n)));
      }
    }
    out = std::move(order_);
    return Status::Ok();
  }

 private:
  Status Pod(const std::string& name) {
    const auto found = pods_.find(name);
    if (found == pods_.end()) {
      return Status::InvalidInput(
          fmt::format("expected a pod of the pod list, found \"{}\"", name));
    }
    order_.arrivals.push_back(found->second);
    return Status::Ok();
  }

  Status Node(const std::string& name, const std::string& rank_text) {
    const auto found = nodes_.find(name);
    if (found == nodes_.end()) {
      return Status::InvalidInput(
          fmt::format("expected a node of the node list, found \"{}\"", name));
    }
    if (order_.tie_rank[found->second] != kNoRank) {
      return Status::InvalidInput(fmt::format("expected each node once, found \"{}\" again", name));
    }
    std::uint32_t rank = 0;
    const char* end = rank_text.data() + rank_text.size();
    const auto [stop, error] = std::from_chars(rank_text.data(), end, rank);
    if (error != std::errc() || stop != end || rank >= order_.tie_rank.size()) {
      return Status::InvalidInput(fmt::format("expected a rank from 0 to {}, found \"{}\"",
                                              order_.tie_rank.size() - 1, rank_text));
    }
    if (rank_taken_[rank]) {
      return Status::InvalidInput(fmt::format("expected each rank once, found {} again", rank));
    }
    rank_taken_[rank] = true;
    order_.tie_rank[found->second] = rank;
    return Status::Ok();
  }

  std::string NameOfNode(std::size_t node) const {
    for (const auto& [name, index] : nodes_) {
      if (index == node) {
        return name;
      }
    }
    return "";
  }

  std::string path_;
  std::map<std::string, std::size_t> pods_;
  std::map<std::string, std::size_t> nodes_;
  std::vector<bool> rank_taken_;
  FillOrder order_;
};

}  // namespace

std::string FillOrderPath(const std::string& dir, const std::string& scenario, std::uint64_t seed) {
  return fmt::format("{}/{}-{}.csv", dir, scenario, seed);
}

Status LoadFillOrder(const FileSystem& files, const std::string& path, const FillWorkload& workload,
                     FillOrder& out) {
  if (!files.IsFile(path)) {
    return Status::IoError(
        files.Exists(path)
            ? fmt::format("{}: expected a fill order file, found a directory or special file", path)
            : fmt::format("{}: cannot read the fill order file (no such file)", path));
  }
  LineReader lines(files, path);
  if (!lines.ok()) {
    return Status::IoError(fmt::format("{}: cannot read the fill order file", path));
  }
  OrderReader reader(path, workload);
  std::string line;
  while (lines.Next(line)) {
    if (lines.line_number() == 1) {
      if (line != "kind,name,rank") {
        return Status::InvalidInput(
            fmt::format("{}:1: expected the header \"kind,name,rank\", found \"{}\"", path, line));
      }
      continue;
    }
    if (line.empty()) {
      continue;
    }
    if (Status status = reader.Row(SplitCommas(line)); !status.ok()) {
      return status.Within(fmt::format("{}:{}", path, lines.line_number()));
    }
  }
  if (lines.line_number() == 0) {
    return Status::InvalidInput(
        fmt::format("{}:1: expected the header \"kind,name,rank\", found an empty file", path));
  }
  return reader.Finish(out);
}

}  // namespace fleetsim
