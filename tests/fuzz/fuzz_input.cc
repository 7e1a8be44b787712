// The fuzz targets' input file and property failures.
#include "fuzz_input.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fleetsim::fuzz {

namespace {

std::string TempRoot() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

}  // namespace

void WriteBytes(const std::uint8_t* data, std::size_t size, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  if (!out) {
    PropertyFailed("cannot write the input file " + path);
  }
}

std::string WriteInputFile(const std::uint8_t* data, std::size_t size,
                           const std::string& file_name) {
  const std::string path =
      TempRoot() + "/fleetsim-fuzz-" + std::to_string(getpid()) + "-" + file_name;
  WriteBytes(data, size, path);
  return path;
}

std::string ProcessFolder(const std::string& tag, const std::string& companion_name,
                          const std::string& companion) {
  const std::string dir =
      TempRoot() + "/fleetsim-fuzz-" + tag + "-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/" + companion_name) << companion;
  return dir;
}

void PropertyFailed(const std::string& what) {
  std::fprintf(stderr, "fleetsim fuzz: property failed: %s\n", what.c_str());
  std::abort();
}

}  // namespace fleetsim::fuzz
