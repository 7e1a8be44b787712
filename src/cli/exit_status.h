// The process exit codes of the fleetsim command, documented in docs/cli.md.
#pragma once

namespace fleetsim::cli {

enum class ExitStatus : int {
  kOk = 0,
  kInvalidInput = 1,  // a scenario file is unreadable, not JSON, or fails validation
  kUsage = 2,         // bad command line: unknown option, command or policy name, bad seed,
                      // or two scenarios with the same name in one run
  kPolicyError = 3,   // a policy made an illegal decision; no outputs were written
  kOutputError = 4,   // results could not be written; nothing partial was left behind
  kDrift = 5,         // compare: results differ beyond tolerance (docs/regression.md); fill
                      // --check: ours differs from the paper's beyond the targets
  kRunsFailed = 6,    // sweep: one or more runs failed; the others' results were written, the
                      // failures recorded in them with their causes
  kInfeasible = 7,    // plan: no candidate fleet meets every target; the closest are shown
  kOutOfMemory = 8,   // memory ran out (std::bad_alloc); no result was written
};

inline int ToInt(ExitStatus status) { return static_cast<int>(status); }

}  // namespace fleetsim::cli
