// What the libFuzzer targets share: the input as text, and the input written to a file for the
// readers that take a path (the trace formats, the fill scenario, the openb node list). Each
// process writes one file, under $TMPDIR (or /tmp), overwritten by every input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace fleetsim::fuzz {

inline std::string AsText(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// Writes the bytes to this process's input file (named after `file_name`, which keeps the
// extension a reader may look at) and returns its path.
std::string WriteInputFile(const std::uint8_t* data, std::size_t size,
                           const std::string& file_name);

// A folder of this process's own under $TMPDIR (or /tmp), made on the first call for `tag`, with
// `companion` written in it as `companion_name` (the spec targets' base scenario, which their
// inputs name by a relative path).
std::string ProcessFolder(const std::string& tag, const std::string& companion_name,
                          const std::string& companion);

// Writes the bytes to `path`, overwriting it.
void WriteBytes(const std::uint8_t* data, std::size_t size, const std::string& path);

// Ends the run as a finding (libFuzzer saves the input) when a property does not hold.
[[noreturn]] void PropertyFailed(const std::string& what);

}  // namespace fleetsim::fuzz
