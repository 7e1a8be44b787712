// Reading files and parsing JSON with located, bounded error messages, without recursion on the
// input's length or depth.
#include "json/json_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace fleetsim {

namespace {

// The decimal number at `text[at]` (advancing `at`), if there is one.
std::optional<std::size_t> Digits(const std::string& text, std::size_t& at) {
  std::size_t value = 0;
  const std::size_t start = at;
  while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])) != 0 &&
         at - start < 18) {
    value = value * 10 + static_cast<std::size_t>(text[at] - '0');
    ++at;
  }
  return at > start ? std::optional<std::size_t>(value) : std::nullopt;
}

// Whether `text` continues with `word` at `at` (advancing past it if so).
bool Skip(const std::string& text, std::size_t& at, std::string_view word) {
  if (text.compare(at, word.size(), word) != 0) {
    return false;
  }
  at += word.size();
  return true;
}

// A message of nlohmann's that quotes no token: its fixed words, and a bound in case.
std::string Bounded(const std::string& text) {
  constexpr std::size_t kMaxMessageChars = 4 * kMaxQuotedChars;
  return text.size() <= kMaxMessageChars ? text : text.substr(0, kMaxMessageChars) + "...";
}

// "path:line:col: invalid JSON: <what>" from nlohmann's parse_error text.
std::string DescribeParseError(const std::string& source, const std::string& what) {
  const JsonErrorText error = SplitJsonError(what);
  if (error.at) {
    return fmt::format("{}:{}:{}: invalid JSON: {}", source, error.at->line, error.at->column,
                       error.what);
  }
  return fmt::format("{}: invalid JSON: {}", source, error.what);
}

// nlohmann reports number overflow without a position; find the literal to give one.
std::string DescribeOverflow(const std::string& source, const std::string& text,
                             const std::string& what) {
  const std::size_t open = what.find("parsing '");
  const std::size_t close =
      open == std::string::npos ? std::string::npos : what.find('\'', open + 9);
  if (close != std::string::npos) {
    const std::string literal = what.substr(open + 9, close - open - 9);
    const std::size_t at = text.find(literal);
    if (at != std::string::npos) {
      const std::size_t line =
          1 + static_cast<std::size_t>(
                  std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
      const std::size_t line_start = text.rfind('\n', at);
      const std::size_t column = line_start == std::string::npos ? at + 1 : at - line_start;
      return fmt::format("{}:{}:{}: invalid JSON: number {} is out of range of a double", source,
                         line, column, Quoted(literal));
    }
  }
  return DescribeParseError(source, what);
}

}  // namespace

std::string Quoted(const std::string& text) {
  return text.size() <= kMaxQuotedChars ? text : text.substr(0, kMaxQuotedChars) + "...";
}

JsonErrorText SplitJsonError(const std::string& what) {
  JsonErrorText error;
  const std::size_t found = what.find("parse error at line ");
  if (found != std::string::npos) {
    std::size_t at = found + 20;
    const std::optional<std::size_t> line = Digits(what, at);
    const bool comma = line && Skip(what, at, ", column ");
    const std::optional<std::size_t> column = comma ? Digits(what, at) : std::nullopt;
    if (column && Skip(what, at, ": ")) {
      error.at = TextPosition{*line, *column};
      // nlohmann quotes the token read so far after "last read: "; cut that quote.
      const std::string rest = what.substr(at);
      const std::size_t quote = rest.find("last read: '");
      error.what = quote == std::string::npos
                       ? Bounded(rest)
                       : rest.substr(0, quote + 12) + Quoted(rest.substr(quote + 12));
      return error;
    }
  }
  const std::size_t bracket = what.find("] ");
  error.what = Bounded(bracket == std::string::npos ? what : what.substr(bracket + 2));
  return error;
}

std::optional<TextPosition> FirstTooDeep(const std::string& text) {
  std::size_t depth = 0;
  bool in_string = false;
  bool escaped = false;
  TextPosition position;
  for (const char c : text) {
    if (in_string) {
      in_string = escaped || c != '"';
      escaped = !escaped && c == '\\';
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        return position;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
    if (c == '\n') {
      ++position.line;
      position.column = 1;
    } else {
      ++position.column;
    }
  }
  return std::nullopt;
}

Status ParseJsonText(const std::string& text, const std::string& source, nlohmann::json& root) {
  if (const std::optional<TextPosition> deep = FirstTooDeep(text)) {
    return Status::InvalidInput(
        fmt::format("{}:{}:{}: invalid JSON: arrays and objects nested deeper than {} levels",
                    source, deep->line, deep->column, kMaxJsonDepth));
  }
  try {
    root = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return Status::InvalidInput(DescribeParseError(source, e.what()));
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidInput(DescribeOverflow(source, text, e.what()));
  }
  return Status::Ok();
}

}  // namespace fleetsim
