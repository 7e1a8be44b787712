// LineReader: line splitting that ignores BOMs and CRLF endings.
#include "text/line_reader.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace fleetsim {

namespace {
constexpr char kUtf8Bom[] = "\xEF\xBB\xBF";
}

LineReader::LineReader(const std::string& path) : path_(path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    status_ = Status::IoError(fmt::format("{}: cannot read: it is a directory", path));
    return;
  }
  in_.open(path, std::ios::binary);
  if (!in_) {
    status_ = Status::IoError(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  }
}

bool LineReader::Next(std::string& line) {
  if (!ok() || !std::getline(in_, line)) {
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
