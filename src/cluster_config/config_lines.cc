// Reading slurm.conf-style configuration lines.
#include "cluster_config/config_lines.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "text/line_reader.h"
#include "text/text_fields.h"

namespace fleetsim {

namespace {

constexpr int kMaxIncludeDepth = 16;

// The line without its comment ('#' not escaped as "\#"; an escaped one is kept as '#').
std::string WithoutComment(const std::string& line) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '#') {
      out.push_back('#');
      ++i;
    } else if (line[i] == '#') {
      break;
    } else {
      out.push_back(line[i]);
    }
  }
  return out;
}

// Blank-separated tokens, a double-quoted stretch kept whole (quotes removed).
Status Tokens(const std::string& text, const std::string& where, std::vector<std::string>& out) {
  out.clear();
  std::string token;
  bool quoted = false;
  bool any = false;
  for (const char c : text) {
    if (c == '"') {
      quoted = !quoted;
      any = true;
    } else if (!quoted && (c == ' ' || c == '\t')) {
      if (any) {
        out.push_back(token);
      }
      token.clear();
      any = false;
    } else {
      token.push_back(c);
      any = true;
    }
  }
  if (quoted) {
    return Status::InvalidInput(fmt::format("{}: a '\"' is not closed", where));
  }
  if (any) {
    out.push_back(token);
  }
  return Status::Ok();
}

// The file an include line names: an absolute path as written, a relative one from the folder
// of the first file read (slurm.conf's, as Slurm reads includes); "" when it is not a file.
std::string IncludedPath(const FileSystem& files, const std::string& root,
                         const std::string& named) {
  const std::string path =
      std::filesystem::path(named).is_absolute()
          ? named
          : (std::filesystem::path(root).parent_path() / named).lexically_normal().string();
  return files.IsFile(path) ? path : "";
}

Status ReadFile(const FileSystem& files, const std::string& root, const std::string& path,
                int depth, ConfigText& text) {
  LineReader lines(files, path);
  if (!lines.ok()) {
    return lines.status();
  }
  std::string physical;
  std::string joined;
  std::int64_t first_line = 0;
  std::vector<std::string> tokens;
  while (lines.Next(physical)) {
    if (joined.empty()) {
      first_line = lines.line_number();
    }
    std::string content = WithoutComment(physical);
    const bool continued = !content.empty() && content.back() == '\\';
    if (continued) {
      content.pop_back();
    }
    joined += content + " ";
    if (continued) {
      continue;
    }
    const std::string where = fmt::format("{}:{}", path, first_line);
    if (Status status = Tokens(joined, where, tokens); !status.ok()) {
      return status;
    }
    joined.clear();
    if (tokens.empty()) {
      continue;
    }
    if (AsciiLower(tokens.front()) == "include") {
      if (tokens.size() != 2) {
        return Status::InvalidInput(fmt::format(
            "{}: expected 'include FILE', found {} words after include", where, tokens.size() - 1));
      }
      const std::string included = IncludedPath(files, root, tokens[1]);
      if (included.empty()) {
        text.missing_includes.push_back(fmt::format("{}: include {}", where, tokens[1]));
        continue;
      }
      if (depth >= kMaxIncludeDepth) {
        return Status::InvalidInput(
            fmt::format("{}: includes nested more than {} deep", where, kMaxIncludeDepth));
      }
      if (Status status = ReadFile(files, root, included, depth + 1, text); !status.ok()) {
        return status;
      }
      continue;
    }
    ConfigLine line{path, first_line, {}};
    for (const std::string& token : tokens) {
      const std::size_t eq = token.find('=');
      if (eq == std::string::npos || eq == 0) {
        return Status::InvalidInput(
            fmt::format("{}: expected KEY=VALUE fields, found '{}'", where, token));
      }
      line.fields.push_back(
          {token.substr(0, eq), AsciiLower(token.substr(0, eq)), token.substr(eq + 1)});
    }
    text.lines.push_back(std::move(line));
  }
  return lines.status();
}

}  // namespace

const ConfigField* ConfigLine::Find(std::string_view name) const {
  const auto it = std::find_if(fields.begin(), fields.end(),
                               [&](const ConfigField& field) { return field.name == name; });
  return it == fields.end() ? nullptr : &*it;
}

Status ReadConfigLines(const FileSystem& files, const std::string& path, ConfigText& text) {
  return ReadFile(files, path, path, 0, text);
}

}  // namespace fleetsim
