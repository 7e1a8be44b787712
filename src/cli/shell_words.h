// Words for /bin/sh: quoting one word, and the command line a user typed, as a line they can
// paste back (the reports' reproduce line, the Slurm batch scripts).
#pragma once

#include <string>

namespace fleetsim::cli {

// `text` as one word for /bin/sh, always single-quoted.
std::string ShellQuoted(const std::string& text);

// "fleetsim" and argv[1..] joined by spaces; a word with characters the shell treats specially
// is single-quoted.
std::string CommandLine(int argc, const char* const* argv);

}  // namespace fleetsim::cli
