// The line syntax slurm.conf and gres.conf share: KEY=VALUE fields separated by blanks (a value
// may be double-quoted), keys without case, '#' to the end of a line a comment, a '\' at the end
// of a line joining the next, and "include FILE" lines read in place (a relative path from the
// folder of the first file, as Slurm reads includes from slurm.conf's folder). Internal to the
// cluster_config module. Thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"

namespace fleetsim {

struct ConfigField {
  std::string key;    // as written
  std::string name;   // lower case, for matching
  std::string value;  // quotes removed
};

struct ConfigLine {
  std::string file;
  std::int64_t line = 0;  // 1-based; the first physical line of a joined line
  std::vector<ConfigField> fields;

  std::string where() const { return file + ":" + std::to_string(line); }
  // The field named `name` (lower case), or nullptr.
  const ConfigField* Find(std::string_view name) const;
  // The lower-case name of the first field ("nodename" of a NodeName line).
  const std::string& kind() const { return fields.front().name; }
};

struct ConfigText {
  std::vector<ConfigLine> lines;              // in reading order, includes in place
  std::vector<std::string> missing_includes;  // "file:line: include X" that could not be read
};

// Reads the configuration file at `path` and its includes. Fails at file:line on a field that
// is not KEY=VALUE or an unclosed quote, and on includes nested more than 16 deep.
Status ReadConfigLines(const FileSystem& files, const std::string& path, ConfigText& text);

}  // namespace fleetsim
