// The fuzz targets' input file and property failures.
#include "fuzz_input.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace fleetsim::fuzz {

std::string WriteInputFile(const std::uint8_t* data, std::size_t size,
                           const std::string& file_name) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string path = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") +
                           "/fleetsim-fuzz-" + std::to_string(getpid()) + "-" + file_name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  if (!out) {
    PropertyFailed("cannot write the input file " + path);
  }
  return path;
}

void PropertyFailed(const std::string& what) {
  std::fprintf(stderr, "fleetsim fuzz: property failed: %s\n", what.c_str());
  std::abort();
}

}  // namespace fleetsim::fuzz
