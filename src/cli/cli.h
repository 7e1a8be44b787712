// The fleetsim command line (CLI11): run, bench, compare, validate, fleet, import, list. Main()
// parses arguments, runs the command and returns the process exit status; it writes results to
// `out` and diagnostics to `err`, so tests can drive it without a process. Progress lines go to
// `err` only when it is a terminal (`err_is_terminal`). A write to `out` that fails (checked
// with a final flush) turns success into exit status 4, with a message on `err`.
#pragma once

#include <ostream>

namespace fleetsim::cli {

int Main(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
         bool err_is_terminal = false);

}  // namespace fleetsim::cli
