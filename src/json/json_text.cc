// Reading files and parsing JSON with located error messages.
#include "json/json_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>

namespace fleetsim {

namespace {

// "path:line:col: invalid JSON: <what>" from nlohmann's parse_error text.
std::string DescribeParseError(const std::string& source, const std::string& what) {
  static const std::regex located(R"(parse error at line (\d+), column (\d+): (.*))");
  std::smatch m;
  if (std::regex_search(what, m, located)) {
    return fmt::format("{}:{}:{}: invalid JSON: {}", source, m[1].str(), m[2].str(), m[3].str());
  }
  const std::size_t bracket = what.find("] ");
  return fmt::format("{}: invalid JSON: {}", source,
                     bracket == std::string::npos ? what : what.substr(bracket + 2));
}

// nlohmann reports number overflow without a position; find the literal to give one.
std::string DescribeOverflow(const std::string& source, const std::string& text,
                             const std::string& what) {
  static const std::regex literal(R"(parsing '([^']*)')");
  std::smatch m;
  if (std::regex_search(what, m, literal)) {
    const std::size_t at = text.find(m[1].str());
    if (at != std::string::npos) {
      const std::size_t line =
          1 + static_cast<std::size_t>(
                  std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
      const std::size_t line_start = text.rfind('\n', at);
      const std::size_t column = line_start == std::string::npos ? at + 1 : at - line_start;
      return fmt::format("{}:{}:{}: invalid JSON: number {} is out of range of a double", source,
                         line, column, m[1].str());
    }
  }
  return DescribeParseError(source, what);
}

}  // namespace

std::string ReadTextFile(const std::string& path, std::string& text) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return fmt::format("{}: cannot read: it is a directory", path);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return fmt::format("{}: cannot read: {}", path, std::strerror(errno));
  }
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) {
    return fmt::format("{}: cannot read: {}", path, std::strerror(errno));
  }
  return {};
}

std::string ParseJsonText(const std::string& text, const std::string& source,
                          nlohmann::json& root) {
  try {
    root = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return DescribeParseError(source, e.what());
  } catch (const nlohmann::json::exception& e) {
    return DescribeOverflow(source, text, e.what());
  }
  return {};
}

}  // namespace fleetsim
