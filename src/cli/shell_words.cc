// Quoting words for /bin/sh.
#include "cli/shell_words.h"

#include <algorithm>
#include <array>
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

std::string ReproduceCommand(int argc, const char* const* argv) {
  constexpr std::array<std::string_view, 4> kOutputOptions = {"--out", "-o", "--json", "--html"};
  std::string out = "fleetsim";
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    const auto output =
        std::find_if(kOutputOptions.begin(), kOutputOptions.end(), [&](std::string_view option) {
          return word == option || word.starts_with(std::string(option) + "=") ||
                 (option == "-o" && word.starts_with("-o"));
        });
    if (output != kOutputOptions.end()) {
      i += word == *output ? 1 : 0;  // the value is the next word
      continue;
    }
    out += " " + (Plain(word) ? std::string(word) : ShellQuoted(std::string(word)));
  }
  return out;
}

}  // namespace fleetsim::cli
