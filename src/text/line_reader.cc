// LineReader: line splitting that ignores BOMs and CRLF endings.
#include "text/line_reader.h"

namespace fleetsim {

namespace {
constexpr char kUtf8Bom[] = "\xEF\xBB\xBF";
}

LineReader::LineReader(const FileSystem& files, const std::string& path)
    : path_(path), status_(files.OpenForReading(path, in_)) {}

bool LineReader::Next(std::string& line) {
  if (!ok() || !std::getline(*in_, line)) {
    return false;
  }
  ++line_number_;
  if (line_number_ == 1 && line.compare(0, 3, kUtf8Bom) == 0) {
    line.erase(0, 3);
  }
  if (!line.empty() && line.back() == '\r') {
    line.pop_back();
  }
  return true;
}

}  // namespace fleetsim
