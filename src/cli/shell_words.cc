// Quoting words for /bin/sh.
#include "cli/shell_words.h"

#include <algorithm>
#include <string_view>

namespace fleetsim::cli {

namespace {

bool Plain(std::string_view word) {
  constexpr std::string_view kSafe = "_./=:,@%+-";
  return !word.empty() && std::all_of(word.begin(), word.end(), [&](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           kSafe.find(c) != std::string_view::npos;
  });
}

}  // namespace

std::string ShellQuoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

std::string CommandLine(int argc, const char* const* argv) {
  std::string out = "fleetsim";
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    out += " " + (Plain(word) ? word : ShellQuoted(word));
  }
  return out;
}

}  // namespace fleetsim::cli
