// The fleetsim executable: a thin wrapper over the library's command line.
#include <unistd.h>

#include <iostream>

#include "cli/cli.h"

int main(int argc, char** argv) {
  return fleetsim::cli::Main(argc, argv, std::cout, std::cerr, isatty(STDERR_FILENO) == 1);
}
