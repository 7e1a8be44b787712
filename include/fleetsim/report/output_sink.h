// OutputSink: where result files go. Files are staged in memory and committed together:
// DirectorySink writes each to a temporary name beside its target and renames them into place
// only when all were written, so a failed write leaves no result file and no temporary behind,
// and no file is ever half-written. (Renames within one directory do not fail in practice; if
// one did, the files renamed before it would stay and the rest would be removed.) Files of
// earlier runs in the directory that this commit does not replace are left alone.
// MemorySink keeps the files for tests. StagedFile is the streaming counterpart for one large
// file (a converted trace): written through a temporary beside the target, renamed into place by
// Commit, removed if never committed. Not thread-safe.
#pragma once

#include <fstream>
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

class StagedFile {
 public:
  // Opens a temporary file beside `path`; ok()/error() tell whether that worked.
  explicit StagedFile(std::string path);
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  std::ostream& stream() { return out_; }
  // Flushes, closes and renames the file into place. Returns "" or what failed (the temporary
  // is removed then).
  std::string Commit();

 private:
  std::string path_;
  std::string temporary_;
  std::ofstream out_;
  std::string error_;
  bool committed_ = false;
};

}  // namespace fleetsim
