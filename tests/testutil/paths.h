// Paths tests need: the source tree (scenarios, docs, fixtures) and the shared traces folder
// beside the project (../shared/traces), which a test that reads a real trace needs: it fails,
// never skips, when the folder is missing, and tools/run-tests refuses to start without it.
#pragma once

#include <string>
#include <vector>

namespace fleetsim::testing {

// The project's source directory (compiled in by CMake).
std::string SourcePath(const std::string& relative);
// A fixture under tests/data/.
std::string DataPath(const std::string& relative);
// A file under ../shared/traces/ (beside the project); fails the current test (and carries on)
// when it is not there.
std::string SharedTracePath(const std::string& relative);
// All files in a source directory with the given extension, sorted.
std::vector<std::string> FilesIn(const std::string& relative_dir, const std::string& extension);
// Reads a whole file; fails the current test if it cannot.
std::string ReadFile(const std::string& path);

}  // namespace fleetsim::testing
