// CSV rows and headers. SplitCsv follows RFC 4180 on one line: fields separated by a delimiter,
// optionally in double quotes with "" for a quote (a quoted field cannot span lines). CsvHeader
// finds columns by name. Internal to the fleetsim libraries (the trace readers, fill's reader of
// published results). Value types; thread-compatible.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/core/status.h"
#include "text/line_reader.h"
#include "text/text_fields.h"

namespace fleetsim {

// Splits `line` into `fields` (reusing their storage). Fails with what is wrong (an unterminated
// quote, text after a closing quote).
Status SplitCsv(std::string_view line, std::vector<std::string>& fields, char delimiter = ',');

// Quotes a field for writing when it contains the delimiter, a quote, or leading/trailing
// spaces; otherwise returns it as is.
std::string QuoteCsv(std::string_view field, char delimiter = ',');

// Whether a line holds nothing but spaces and tabs (blank lines are skipped by readers).
bool IsBlank(std::string_view line);

class CsvHeader {
 public:
  CsvHeader() = default;
  explicit CsvHeader(std::vector<std::string> names);

  std::size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }
  std::optional<std::size_t> Find(std::string_view name) const;
  // OK when every name in `required` is present, else an error listing the missing ones and the
  // columns found.
  Status Missing(const std::vector<std::string>& required) const;

 private:
  std::vector<std::string> names_;
};

// Reading a trace that is a CSV file with a header line, through a LineReader.

// Reads the header (the first line that is not blank) into `header` and checks that it names
// every column in `required` (columns may come in any order). Fails with the open error: the
// reader's, "FILE: empty file: expected a header line with the columns 'a', 'b'", "FILE:LINE:
// header: <split problem>" or "FILE:LINE: expected a header with the column ..., found columns
// ...".
Status ReadCsvHeader(LineReader& lines, const std::vector<std::string>& required,
                     CsvHeader& header);

// Reads the next line that is not blank into `fields`; false at the end of the input. A line
// that does not split (kReasonBadSyntax) or does not have as many fields as the header
// (kReasonColumnCount, "expected 5 columns as in the header, found 4") is still returned, with
// the problem in `error`.
bool NextCsvRow(LineReader& lines, const CsvHeader& header, std::vector<std::string>& fields,
                FieldError& error);

// The header's columns that are not in `used`, in header order.
std::vector<std::string> UnusedColumns(const CsvHeader& header,
                                       const std::vector<std::string>& used);

}  // namespace fleetsim
