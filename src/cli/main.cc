// The fleetsim executable: a thin wrapper over the library's command line.
#include <unistd.h>

#include <iostream>

#include "cli/cli.h"
#include "fleetsim/report/output_sink.h"

int main(int argc, char** argv) {
  fleetsim::RemoveTemporariesOnSignals();
  return fleetsim::cli::Main(argc, argv, std::cout, std::cerr, isatty(STDERR_FILENO) == 1);
}
