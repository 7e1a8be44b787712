// Reading the paper artifact's shipped fill results.
#include "fleetsim/fill/published_fill.h"

#include <fmt/format.h>

#include "text/csv.h"
#include "text/line_reader.h"
#include "text/text_fields.h"

namespace fleetsim {

namespace {

constexpr int kMaxPublishedX = 1000;

Status LoadSeries(const FileSystem& file_system, const std::string& path,
                  const std::string& workload, std::map<GpuSharePolicy, PublishedSeries>& out) {
  LineReader lines(file_system, path);
  if (!lines.ok()) {
    return lines.status();
  }
  CsvHeader header;
  if (Status status = ReadCsvHeader(lines, {"workload", "sc_policy", "seed", "0"}, header);
      !status.ok()) {
    return status;
  }
  std::vector<std::pair<int, std::size_t>> x_columns;  // (x, column)
  for (int x = 0; x <= kMaxPublishedX; ++x) {
    if (const auto column = header.Find(std::to_string(x))) {
      x_columns.emplace_back(x, *column);
    }
  }
  const std::size_t workload_column = *header.Find("workload");
  const std::size_t policy_column = *header.Find("sc_policy");
  std::vector<std::string> fields;
  std::int64_t rows = 0;
  while (true) {
    FieldError problem;
    if (!NextCsvRow(lines, header, fields, problem)) {
      break;
    }
    const auto where = [&] { return fmt::format("{}:{}", path, lines.line_number()); };
    if (!problem.ok()) {
      return Status::InvalidInput(fmt::format("{}: {}", where(), problem.message));
    }
    if (fields[workload_column] != workload) {
      continue;
    }
    const std::optional<GpuSharePolicy> policy = PolicyOfArtifactName(fields[policy_column]);
    if (!policy) {
      return Status::InvalidInput(
          fmt::format("{}: column 'sc_policy': expected one of the six policies "
                      "(01-Random ... 06-FGD), found '{}'",
                      where(), fields[policy_column]));
    }
    std::vector<std::optional<double>> values(static_cast<std::size_t>(x_columns.back().first) + 1);
    for (const auto& [x, column] : x_columns) {
      if (fields[column].empty()) {
        continue;
      }
      values[static_cast<std::size_t>(x)] =
          RealField(fields[column], std::to_string(x), -1e9, 1e9, problem);
      if (!problem.ok()) {
        return Status::InvalidInput(fmt::format("{}: {}", where(), problem.message));
      }
    }
    out[*policy].push_back(std::move(values));
    ++rows;
  }
  if (rows == 0) {
    return Status::InvalidInput(
        fmt::format("{}: expected rows for workload '{}', found none", path, workload));
  }
  return Status::Ok();
}

}  // namespace

std::optional<GpuSharePolicy> PolicyOfArtifactName(const std::string& name) {
  static const std::map<std::string, GpuSharePolicy> kNames = {
      {"Random", GpuSharePolicy::kRandom},
      {"DotProd", GpuSharePolicy::kDotProduct},
      {"GpuClustering", GpuSharePolicy::kGpuClustering},
      {"GpuPacking", GpuSharePolicy::kGpuPacking},
      {"BestFit", GpuSharePolicy::kBestFit},
      {"FGD", GpuSharePolicy::kFgd}};
  const std::size_t dash = name.find('-');
  const auto it = kNames.find(dash == std::string::npos ? name : name.substr(dash + 1));
  return it == kNames.end() ? std::nullopt : std::optional(it->second);
}

Status LoadPublishedFill(const FileSystem& file_system, const PublishedFillFiles& files,
                         PublishedFill& out) {
  PublishedFill loaded;
  if (Status status = LoadSeries(file_system, files.allocation, files.workload, loaded.allocation);
      !status.ok()) {
    return status;
  }
  if (Status status = LoadSeries(file_system, files.fragmentation_ratio, files.workload,
                                 loaded.fragmentation_ratio);
      !status.ok()) {
    return status;
  }
  out = std::move(loaded);
  return Status::Ok();
}

SeedStats PublishedStatsAt(const PublishedSeries& series, int x) {
  std::vector<double> values;
  for (const auto& seed : series) {
    const auto at = static_cast<std::size_t>(x);
    if (at < seed.size() && seed[at]) {
      values.push_back(*seed[at]);
    }
  }
  return SeedStatsOf(values);
}

}  // namespace fleetsim
