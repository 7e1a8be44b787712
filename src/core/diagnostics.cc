// Diagnostics collection, formatting and the spelling suggestions used in error messages.
#include "fleetsim/core/diagnostics.h"

#include <fmt/format.h>

#include <algorithm>

namespace fleetsim {

void Diagnostics::Error(std::string where, std::string message) {
  items_.push_back({Severity::kError, std::move(where), std::move(message)});
}

void Diagnostics::Warning(std::string where, std::string message) {
  items_.push_back({Severity::kWarning, std::move(where), std::move(message)});
}

void Diagnostics::PromoteWarnings() {
  for (Diagnostic& d : items_) {
    d.severity = Severity::kError;
  }
}

void Diagnostics::Append(const Diagnostics& other) {
  items_.insert(items_.end(), other.items_.begin(), other.items_.end());
}

bool Diagnostics::HasErrors() const {
  return std::any_of(items_.begin(), items_.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::kError; });
}

std::string Diagnostics::Format(const std::string& source) const {
  std::string out;
  for (const Diagnostic& d : items_) {
    const char* severity = d.severity == Severity::kError ? "error" : "warning";
    const std::string where = d.where.empty() ? "/" : d.where;
    out += fmt::format("{}: {}: {}: {}\n", source, where, severity, d.message);
  }
  return out;
}

namespace {

std::size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string ClosestMatch(const std::string& word, const std::vector<std::string>& candidates) {
  // A typo is at most a third of the word's letters away, and two edits are always allowed.
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  std::string best;
  std::size_t best_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    // The distance is at least the difference in length: a candidate that cannot come closer
    // than the best so far is not measured (a long unknown word costs nothing per candidate).
    const std::size_t length_gap = word.size() > candidate.size() ? word.size() - candidate.size()
                                                                  : candidate.size() - word.size();
    if (length_gap >= best_distance) {
      continue;
    }
    const std::size_t distance = EditDistance(word, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::string DidYouMean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string match = ClosestMatch(word, candidates);
  return match.empty() ? std::string() : fmt::format(", did you mean '{}'?", match);
}

std::string ShownName(std::string_view name) {
  if (name.size() <= kShownNameBytes) {
    return std::string(name);
  }
  std::size_t cut = kShownNameBytes - 3;
  // A UTF-8 character is at most 4 bytes: step back over at most 3 continuation bytes (text
  // that is not UTF-8, which a CSV header may be, is cut where it is).
  for (std::size_t back = 0; back < 3 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80;
       ++back) {
    --cut;
  }
  if ((static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) {
    cut = kShownNameBytes - 3;
  }
  return std::string(name.substr(0, cut)) + "...";
}

std::string QuotedList(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    out += out.empty() ? "" : ", ";
    out += "'" + name + "'";
  }
  return out;
}

std::string QuotedInputNames(const std::vector<std::string>& names) {
  std::vector<std::string> shown;
  shown.reserve(names.size());
  for (const std::string& name : names) {
    shown.push_back(ShownName(name));
  }
  return QuotedList(shown);
}

}  // namespace fleetsim
