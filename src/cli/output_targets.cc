// Checking a command's outputs together before it runs.
#include "cli/output_targets.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <string_view>

#include "fleetsim/core/file_system.h"

namespace fleetsim::cli {

namespace {

// The words for a process stream, or "" for a file.
std::string_view StreamName(StagedFile::Target target) {
  switch (target) {
    case StagedFile::Target::kStandardOutput:
      return "standard output";
    case StagedFile::Target::kStandardError:
      return "standard error";
    default:
      return "";
  }
}

}  // namespace

StagedFile::Target OutputTargets::TargetOf(const std::string& path) const {
  return OnDisk(path) ? StagedFile::KindOfTarget(path) : StagedFile::Target::kStandardOutput;
}

bool OutputTargets::OnDisk(const std::string& path) const {
  return !(dash_is_standard_output_ && path == "-");
}

void OutputTargets::AddFile(std::string option, std::string path) {
  if (!path.empty()) {
    files_.push_back({std::move(option), std::move(path)});
  }
}

void OutputTargets::AddFolder(std::string option, std::string path) {
  if (!path.empty()) {
    folders_.push_back({std::move(option), std::move(path)});
  }
}

void OutputTargets::AddInput(std::string what, std::string path) {
  if (!path.empty()) {
    inputs_.push_back({std::move(what), std::move(path)});
  }
}

std::vector<std::string> OutputTargets::Problems() const {
  std::vector<std::string> problems;
  for (const Target& file : files_) {
    if (std::error_code error;
        OnDisk(file.path) && std::filesystem::is_directory(file.path, error)) {
      problems.push_back(
          fmt::format("{}: '{}' is a directory, not a file", file.option, file.path));
    }
  }
  for (std::size_t i = 0; i < files_.size(); ++i) {
    for (std::size_t j = i + 1; j < files_.size(); ++j) {
      const Target& a = files_[i];
      const Target& b = files_[j];
      if (const StagedFile::Target target = TargetOf(a.path);
          !StreamName(target).empty() && target == TargetOf(b.path)) {
        problems.push_back(fmt::format("{} '{}' and {} '{}' both write to {}", a.option, a.path,
                                       b.option, b.path, StreamName(target)));
      } else if (OnDisk(a.path) && OnDisk(b.path) && SameDiskFile(a.path, b.path)) {
        problems.push_back(
            fmt::format("{} and {} name the same file '{}'", a.option, b.option, b.path));
      }
    }
  }
  for (const Target& folder : folders_) {
    for (const Target& file : files_) {
      if (OnDisk(file.path) && InsideDiskFolder(file.path, folder.path)) {
        problems.push_back(fmt::format(
            "{}: '{}' is inside {} '{}', where it could be one of the run's files; put it "
            "beside that folder",
            file.option, file.path, folder.option, folder.path));
      }
    }
  }
  for (const Target& input : inputs_) {
    for (const Target& file : files_) {
      if (!OnDisk(file.path)) {
        continue;
      }
      if (std::error_code error; std::filesystem::is_directory(input.path, error)) {
        if (InsideDiskFolder(file.path, input.path)) {
          problems.push_back(
              fmt::format("{}: '{}' is inside {} '{}', which this command reads; put it elsewhere",
                          file.option, file.path, input.option, input.path));
        }
      } else if (SameDiskFile(file.path, input.path)) {
        problems.push_back(fmt::format("{}: '{}' is {} '{}', which it would replace", file.option,
                                       file.path, input.option, input.path));
      }
    }
  }
  return problems;
}

bool OutputTargets::Check(const std::string& prefix, std::ostream& err) const {
  const std::vector<std::string> problems = Problems();
  for (const std::string& problem : problems) {
    fmt::print(err, "{}: {}\n", prefix, problem);
  }
  return problems.empty();
}

bool OutputTargets::WritesStandardOutput() const {
  for (const Target& file : files_) {
    if (TargetOf(file.path) == StagedFile::Target::kStandardOutput) {
      return true;
    }
  }
  return false;
}

bool IsStandardOutput(const std::string& path) {
  return StagedFile::KindOfTarget(path) == StagedFile::Target::kStandardOutput;
}

}  // namespace fleetsim::cli
