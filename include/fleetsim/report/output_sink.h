// OutputSink: where result files go. Files are staged in memory and committed together:
// DirectorySink writes each to a temporary name beside its target and renames them into place
// only when all were written, so a failed write leaves no result file and no temporary behind,
// and no file is ever half-written. (Renames within one directory do not fail in practice; if
// one did, the files renamed before it would stay and the rest would be removed.) Files of
// earlier runs in the directory that this commit does not replace are left alone.
// MemorySink keeps the files for tests. Not thread-safe.
#pragma once

#include <map>
#include <string>

namespace fleetsim {

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  // Stages a file; `relative_path` may contain directories ("scenario/fifo/summary.json").
  void Stage(const std::string& relative_path, std::string contents);
  // Writes every staged file. Returns "" on success, otherwise what failed.
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
