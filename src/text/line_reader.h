// LineReader: reads a text file one line at a time with its 1-based line number, the same way
// whatever wrote it: a UTF-8 byte-order mark at the start is dropped, "\r\n" and "\n" endings
// both end a line, and a last line without a newline is still a line. Internal to the fleetsim
// libraries (the trace readers, fill's reader of published results). Not thread-safe.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"

namespace fleetsim {

class LineReader {
 public:
  // Opens `path` on `files`; status() tells whether that worked (an I/O error "path: cannot
  // read: ...").
  LineReader(const FileSystem& files, const std::string& path);

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  const std::string& path() const { return path_; }

  // Reads the next line into `line` (without its ending); false at the end of the file.
  bool Next(std::string& line);
  // The line number of the line last returned (0 before the first).
  std::int64_t line_number() const { return line_number_; }

 private:
  std::string path_;
  std::unique_ptr<std::istream> in_;
  Status status_;
  std::int64_t line_number_ = 0;
};

}  // namespace fleetsim
