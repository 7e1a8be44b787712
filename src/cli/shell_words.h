// Words for /bin/sh: quoting one word, and the command line a user typed, as a line they can
// paste back (the reports' reproduce line, the Slurm batch scripts).
#pragma once

#include <string>

namespace fleetsim::cli {

// `text` as one word for /bin/sh, always single-quoted.
std::string ShellQuoted(const std::string& text);

// "fleetsim" and argv[1..] joined by spaces, leaving out the options that only say where outputs
// go (--out/-o, --json, --html, with their values): the command that reproduces the results,
// the same whatever file a report was written to. A word with characters the shell treats
// specially is single-quoted.
std::string ReproduceCommand(int argc, const char* const* argv);

}  // namespace fleetsim::cli
