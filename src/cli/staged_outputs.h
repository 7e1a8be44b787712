// Result files a command writes all or none of: each is staged through a temporary file beside
// its target (parent directories created), and renamed into place only by Commit, after every
// file was staged and whatever else the command writes succeeded. A file staged but never
// committed is removed. Internal to the command-line tool; not thread-safe.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "fleetsim/report/output_sink.h"

namespace fleetsim::cli {

class StagedOutputs {
 public:
  // A file named "-" goes to `standard_output`, after every other file is committed (null: "-"
  // is a file of that name).
  explicit StagedOutputs(std::ostream* standard_output = nullptr)
      : standard_output_(standard_output) {}

  // Stages (path, contents) pairs. Returns the exit status: kOk, or kOutputError after printing
  // what failed.
  int Stage(const std::vector<std::pair<std::string, std::string>>& files, std::ostream& err);
  // Renames every staged file into place. Returns kOk or kOutputError (printed).
  int Commit(std::ostream& err);

 private:
  std::ostream* standard_output_;
  std::vector<std::unique_ptr<StagedFile>> staged_;
  std::vector<std::string> to_standard_output_;  // the "-" files' contents, in order
};

}  // namespace fleetsim::cli
