// Diagnostics: the problems found in an input, collected rather than thrown, so that a user sees
// every mistake in a file at once. Each names where (a JSON pointer such as /jobs/12/gpus, or a
// file line) and what was expected and found. Value types; thread-compatible.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fleetsim {

enum class Severity { kWarning, kError };

struct Diagnostic {
  Severity severity = Severity::kError;
  std::string where;    // JSON pointer ("/jobs/12/gpus"), "" for the whole document
  std::string message;  // "expected an integer >= 1, found -3"
};

class Diagnostics {
 public:
  void Error(std::string where, std::string message);
  void Warning(std::string where, std::string message);
  // Turns every warning into an error (the --strict switch).
  void PromoteWarnings();
  void Append(const Diagnostics& other);

  bool HasErrors() const;
  bool empty() const { return items_.empty(); }
  const std::vector<Diagnostic>& items() const { return items_; }

  // One line per diagnostic: "<source>: <where>: <severity>: <message>".
  std::string Format(const std::string& source) const;

 private:
  std::vector<Diagnostic> items_;
};

// "did you mean 'x'?" support: the candidate closest to `word` by edit distance, or "" when none
// is close enough to be a plausible typo.
std::string ClosestMatch(const std::string& word, const std::vector<std::string>& candidates);

// ", did you mean 'x'?" or "" — ready to append to a message.
std::string DidYouMean(const std::string& word, const std::vector<std::string>& candidates);

// A name the input made up (an unknown key, field or column), as a message or a path shows it:
// whole up to kShownNameBytes bytes, else cut (at a UTF-8 character boundary) and ended with
// "..." within them, so a hostile name of any length gives a message of bounded length.
inline constexpr std::size_t kShownNameBytes = 64;
std::string ShownName(std::string_view name);

// "'a', 'b', 'c'" — for "valid names are ..." messages (whole: the user may have to type them).
std::string QuotedList(const std::vector<std::string>& names);

// The same for names the input gave (a file's header), each as ShownName shows it.
std::string QuotedInputNames(const std::vector<std::string>& names);

}  // namespace fleetsim
