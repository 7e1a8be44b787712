// Test path helpers.
#include "testutil/paths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace fleetsim::testing {

std::string SourcePath(const std::string& relative) {
  return std::string(FLEETSIM_SOURCE_DIR) + "/" + relative;
}

std::string DataPath(const std::string& relative) { return SourcePath("tests/data/" + relative); }

std::vector<std::string> FilesIn(const std::string& relative_dir, const std::string& extension) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(SourcePath(relative_dir))) {
    if (entry.is_regular_file() && entry.path().extension() == extension) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string SharedTracePath(const std::string& relative) {
  const std::string path = SourcePath("../shared/traces/" + relative);
  if (!std::filesystem::exists(path)) {
    ADD_FAILURE() << "the shared traces are not here: " << path
                  << " (../shared is part of the test setup)";
  }
  return path;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace fleetsim::testing
