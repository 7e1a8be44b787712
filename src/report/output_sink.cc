// Staged, all-or-nothing output files.
#include "fleetsim/report/output_sink.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace fleetsim {

namespace fs = std::filesystem;

void OutputSink::Stage(const std::string& relative_path, std::string contents) {
  staged_[relative_path] = std::move(contents);
}

namespace {

// Writes `contents` to `path`; "" on success.
std::string WriteWhole(const fs::path& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    return fmt::format("{}: cannot create: {}", path.string(), std::strerror(errno));
  }
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  out.close();
  if (!out) {
    return fmt::format("{}: cannot write: {}", path.string(), std::strerror(errno));
  }
  return {};
}

}  // namespace

std::string DirectorySink::Commit() {
  std::vector<std::pair<fs::path, fs::path>> renames;  // temporary -> final
  std::string error;
  for (const auto& [relative, contents] : staged_) {
    const fs::path target = fs::path(directory_) / relative;
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    if (ec) {
      error = fmt::format("{}: cannot create directory: {}", target.parent_path().string(),
                          ec.message());
      break;
    }
    const fs::path temporary = target.parent_path() / ("." + target.filename().string() + ".tmp");
    error = WriteWhole(temporary, contents);
    if (!error.empty()) {
      fs::remove(temporary, ec);
      break;
    }
    renames.emplace_back(temporary, target);
  }
  if (!error.empty()) {
    for (const auto& [temporary, target] : renames) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
    }
    return error;
  }
  for (std::size_t i = 0; i < renames.size(); ++i) {
    std::error_code ec;
    fs::rename(renames[i].first, renames[i].second, ec);
    if (ec) {
      for (std::size_t j = i; j < renames.size(); ++j) {
        std::error_code ignored;
        fs::remove(renames[j].first, ignored);
      }
      return fmt::format("{}: cannot rename into place: {}", renames[i].second.string(),
                         ec.message());
    }
  }
  staged_.clear();
  return {};
}

std::string MemorySink::Commit() {
  for (auto& [path, contents] : staged_) {
    committed_[path] = std::move(contents);
  }
  staged_.clear();
  return {};
}

StagedFile::StagedFile(std::string path) : path_(std::move(path)) {
  const fs::path target(path_);
  temporary_ = (target.parent_path() / ("." + target.filename().string() + ".tmp")).string();
  out_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    error_ = fmt::format("{}: cannot create: {}", temporary_, std::strerror(errno));
  }
}

StagedFile::~StagedFile() {
  if (!committed_) {
    out_.close();
    std::error_code ignored;
    fs::remove(temporary_, ignored);
  }
}

std::string StagedFile::Commit() {
  out_.close();
  std::error_code ec;
  if (!out_) {
    error_ = fmt::format("{}: cannot write: {}", temporary_, std::strerror(errno));
  } else if (fs::rename(temporary_, path_, ec); ec) {
    error_ = fmt::format("{}: cannot rename into place: {}", path_, ec.message());
  } else {
    committed_ = true;
  }
  return error_;
}

}  // namespace fleetsim
