// Runs a shell command for end-to-end CLI tests, capturing stdout, stderr and the exit status.
#pragma once

#include <string>

namespace fleetsim::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `command` with /bin/sh; output goes through files in `scratch_dir`.
CommandResult RunCommand(const std::string& command, const std::string& scratch_dir);

// A fresh, empty directory under the system temp dir, unique to the running test; removed when
// the test passes, kept when it fails.
std::string FreshTempDir();

}  // namespace fleetsim::testing
