// CSV splitting and quoting.
#include "text/csv.h"

#include <fmt/format.h>

#include <algorithm>

#include "fleetsim/core/diagnostics.h"

namespace fleetsim {

Status SplitCsv(std::string_view line, std::vector<std::string>& fields, char delimiter) {
  fields.clear();
  std::size_t i = 0;
  while (true) {
    std::string& field = fields.emplace_back();
    if (i < line.size() && line[i] == '"') {
      ++i;
      while (true) {
        if (i >= line.size()) {
          return Status::InvalidInput(
              fmt::format("field {} has an opening quote but no closing quote", fields.size()));
        }
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field.push_back('"');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field.push_back(line[i++]);
      }
      if (i < line.size() && line[i] != delimiter) {
        return Status::InvalidInput(
            fmt::format("field {} has text after its closing quote", fields.size()));
      }
    } else {
      const std::size_t end = std::min(line.find(delimiter, i), line.size());
      field.assign(line.substr(i, end - i));
      i = end;
    }
    if (i >= line.size()) {
      return Status::Ok();
    }
    ++i;  // the delimiter
  }
}

std::string QuoteCsv(std::string_view field, char delimiter) {
  const bool needs_quotes =
      field.find_first_of(std::string{delimiter, '"', '\n', '\r'}) != std::string_view::npos ||
      (!field.empty() && (field.front() == ' ' || field.back() == ' '));
  if (!needs_quotes) {
    return std::string(field);
  }
  std::string out = "\"";
  for (const char c : field) {
    out += c;
    if (c == '"') {
      out += '"';
    }
  }
  out += '"';
  return out;
}

bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

CsvHeader::CsvHeader(std::vector<std::string> names) : names_(std::move(names)) {}

std::optional<std::size_t> CsvHeader::Find(std::string_view name) const {
  const auto it = std::find(names_.begin(), names_.end(), name);
  if (it == names_.end()) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(it - names_.begin());
}

Status CsvHeader::Missing(const std::vector<std::string>& required) const {
  std::vector<std::string> missing;
  for (const std::string& name : required) {
    if (!Find(name)) {
      missing.push_back(name);
    }
  }
  if (missing.empty()) {
    return Status::Ok();
  }
  return Status::InvalidInput(
      fmt::format("expected a header with the column{} {}, found columns {}",
                  missing.size() == 1 ? "" : "s", QuotedList(missing), QuotedInputNames(names_)));
}

Status ReadCsvHeader(LineReader& lines, const std::vector<std::string>& required,
                     CsvHeader& header) {
  std::string line;
  do {
    if (!lines.Next(line)) {
      return lines.ok() ? Status::InvalidInput(fmt::format(
                              "{}: empty file: expected a header line with the columns {}",
                              lines.path(), QuotedList(required)))
                        : lines.status();
    }
  } while (IsBlank(line));
  std::vector<std::string> names;
  if (const Status split = SplitCsv(line, names); !split.ok()) {
    return split.Within(fmt::format("{}:{}: header", lines.path(), lines.line_number()));
  }
  header = CsvHeader(std::move(names));
  return header.Missing(required).Within(fmt::format("{}:{}", lines.path(), lines.line_number()));
}

bool NextCsvRow(LineReader& lines, const CsvHeader& header, std::vector<std::string>& fields,
                FieldError& error) {
  std::string line;
  do {
    if (!lines.Next(line)) {
      return false;
    }
  } while (IsBlank(line));
  if (const Status split = SplitCsv(line, fields); !split.ok()) {
    error.Set(kReasonBadSyntax, split.message());
  } else if (fields.size() != header.size()) {
    error.Set(kReasonColumnCount, fmt::format("expected {} columns as in the header, found {}",
                                              header.size(), fields.size()));
  }
  return true;
}

std::vector<std::string> UnusedColumns(const CsvHeader& header,
                                       const std::vector<std::string>& used) {
  std::vector<std::string> unused;
  for (const std::string& name : header.names()) {
    if (std::find(used.begin(), used.end(), name) == used.end()) {
      unused.push_back(name);
    }
  }
  return unused;
}

}  // namespace fleetsim
