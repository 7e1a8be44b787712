// Staging result files and committing them together.
#include "cli/staged_outputs.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>

#include "cli/exit_status.h"

namespace fleetsim::cli {

int StagedOutputs::Stage(const std::vector<std::pair<std::string, std::string>>& files,
                         std::ostream& err) {
  for (const auto& [path, contents] : files) {
    if (path == "-" && standard_output_ != nullptr) {
      to_standard_output_.push_back(contents);
      continue;
    }
    std::error_code error;
    if (const auto parent = std::filesystem::path(path).parent_path(); !parent.empty()) {
      std::filesystem::create_directories(parent, error);
    }
    staged_.push_back(std::make_unique<StagedFile>(path));
    staged_.back()->stream() << contents;
    if (error || !staged_.back()->Flush().ok()) {
      fmt::print(err, "fleetsim: cannot write results: {}\n",
                 error ? fmt::format("{}: {}", path, error.message())
                       : staged_.back()->status().message());
      return ToInt(ExitStatus::kOutputError);
    }
  }
  return ToInt(ExitStatus::kOk);
}

int StagedOutputs::Commit(std::ostream& err) {
  for (const auto& file : staged_) {
    if (const Status status = file->Commit(); !status.ok()) {
      fmt::print(err, "fleetsim: cannot write results: {}\n", status.message());
      return ToInt(ExitStatus::kOutputError);
    }
  }
  for (const std::string& contents : to_standard_output_) {
    *standard_output_ << contents;
  }
  return ToInt(ExitStatus::kOk);
}

}  // namespace fleetsim::cli
