// The fleetsim command line (CLI11): run, validate, list. Main() parses arguments, runs the
// command and returns the process exit status; it writes results to `out` and diagnostics to
// `err`, so tests can drive it without a process.
#pragma once

#include <ostream>

namespace fleetsim::cli {

int Main(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace fleetsim::cli
