// OutputSink: where result files go. Files are staged in memory and committed together:
// DirectorySink writes each to a temporary name in the target directory and renames them into
// place only when all were written, so a failed or interrupted run never leaves a half-written
// or partial set of outputs. MemorySink keeps them for tests. Not thread-safe.
#pragma once

#include <map>
#include <string>

namespace fleetsim {

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  // Stages a file; `relative_path` may contain directories ("scenario/fifo/summary.json").
  void Stage(const std::string& relative_path, std::string contents);
  // Writes every staged file. Returns "" on success, otherwise what failed (nothing renamed).
  virtual std::string Commit() = 0;

 protected:
  std::map<std::string, std::string> staged_;
};

class DirectorySink final : public OutputSink {
 public:
  explicit DirectorySink(std::string directory) : directory_(std::move(directory)) {}
  std::string Commit() override;

 private:
  std::string directory_;
};

class MemorySink final : public OutputSink {
 public:
  std::string Commit() override;
  const std::map<std::string, std::string>& files() const { return committed_; }

 private:
  std::map<std::string, std::string> committed_;
};

}  // namespace fleetsim
