// OutputSink: where result files go. Files are staged in memory and committed together:
// DirectorySink writes each to a temporary beside its target (a fresh name, ".NAME.PID-N.tmp",
// created exclusively: no link planted there is followed, and no two writers share one) and
// renames them into place only when all were written, so a failed write leaves no result file and
// no temporary behind, and no file is ever half-written. A set of renames is not atomic, so the
// folder's manifest (kOutputManifest: every file of the commit with its size and digest) is removed
// before the first rename and written after the last: a folder whose manifest is missing or does
// not match its files (VerifyOutputFolder) holds an interrupted commit, even when every file in it
// looks complete (docs/robustness.md#output-commit). Files of earlier runs in the directory that
// this commit does not replace are left alone (and are not in the new manifest). Files go through a
// FileSystem (core/file_system.h): the disk, or memory for tests. StagedFile is the streaming
// counterpart for one large file (a converted trace): written through a temporary beside the
// target, renamed into place by Commit, removed if never committed (a link given as the target is
// replaced by the file, as atomic writers do: the target's link is not followed). A character
// device, FIFO or socket, directly or through a link (/dev/full, a pipe), is written in place
// instead, from the staging on; the process's own standard output or error, by any name
// (/dev/stdout, also when it is a regular file), is written through std::cout or std::cerr, in
// order with what they print. A block device is refused. Not thread-safe.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"

namespace fleetsim {

// The manifest DirectorySink writes last, in the folder it commits to. Its name starts with a
// dot, which no scenario or policy name (the other entries of an output folder) may.
inline constexpr const char* kOutputManifest = ".fleetsim-manifest.json";

// The manifest of `files` (relative path -> contents), as DirectorySink writes it: JSON, paths
// sorted, each with its size in bytes and FNV-1a 64 digest; no time or process detail, so a
// rerun writes the same bytes.
std::string OutputManifest(const std::map<std::string, std::string>& files);

// Checks the folder on `files` against its manifest: the manifest is present and readable, and
// every file it lists exists with the listed size and digest. Returns the problems (empty: the
// folder holds one complete commit), each naming the file.
std::vector<std::string> VerifyOutputFolder(const FileSystem& files, const std::string& directory);

// For a reader of result files in `directory`, a run folder or a folder inside one
// (DIR/SCENARIO/POLICY/seed-N): the folder of the commit that holds it (`directory` or the
// nearest of its three parents with a manifest) is verified, and the files its manifest lists are
// returned, as absolute normal paths (on the disk; as given, normal, on a memory file system).
// Files there that the manifest does not list are earlier runs', not part of the result. nullopt,
// with `problems`, when the commit does not verify (or there is no manifest).
std::optional<std::set<std::string>> CommittedFiles(const FileSystem& files,
                                                    const std::string& directory,
                                                    std::vector<std::string>& problems);

// Every temporary DirectorySink (on the disk) and StagedFile create is registered while it exists
// (up to kMaxTrackedTemporaries at once). After this call (once, from the command's main), SIGINT,
// SIGTERM, SIGHUP, SIGPIPE and SIGABRT (a failed internal check, an uncaught exception) first
// remove the registered temporaries, then end the process as the signal would have. What no
// handler can clean (SIGKILL, a segmentation fault) may leave hidden ".NAME.PID-N.tmp" files
// beside the targets; no target is ever half-written.
inline constexpr std::size_t kMaxTrackedTemporaries = 1024;
void RemoveTemporariesOnSignals();

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  // Stages a file; `relative_path` may contain directories ("scenario/fifo/summary.json").
  void Stage(const std::string& relative_path, std::string contents);
  // Writes every staged file; an I/O error says what failed.
  virtual Status Commit() = 0;

 protected:
  std::map<std::string, std::string> staged_;
};

class DirectorySink final : public OutputSink {
 public:
  // Commits into `directory` on `files`, which must outlive the sink.
  DirectorySink(FileSystem& files, std::string directory)
      : files_(files), directory_(std::move(directory)) {}
  Status Commit() override;

 private:
  FileSystem& files_;
  std::string directory_;
};

class StagedFile {
 public:
  // How a target is written (see above).
  enum class Target {
    kRenamedOver,     // through a temporary renamed over it: a regular file, a link, nothing yet
    kInPlace,         // a character device, FIFO or socket, directly or through a link
    kStandardOutput,  // the process's own standard output by any name, even a regular file
    kStandardError,
    kBlockDevice,  // refused: no result goes to a disk
  };
  static Target KindOfTarget(const std::string& path);

  // Opens a temporary file beside `path` (or `path` itself, written in place: see above);
  // ok()/status() tell whether that worked.
  explicit StagedFile(std::string path);
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  std::ostream& stream() { return *stream_; }
  // Writes what the stream holds so far, so that a write error (a full device written in place)
  // shows before any other output is committed; returns status().
  Status Flush();
  // Flushes, closes and renames the file into place; on an I/O error the temporary is removed.
  Status Commit();

 private:
  class Buffer;  // the file's descriptor, buffered

  // Streams into the descriptor, which this file now owns, through buffer_ (allocated before
  // the descriptor was opened: nothing here allocates, so nothing opened can be lost).
  void Attach(int descriptor);
  // The file the stream writes: the temporary, or the path written in place.
  std::string WrittenPath() const;

  std::string path_;
  std::string temporary_;  // empty for a file written in place
  std::unique_ptr<Buffer> buffer_;        // null for std::cout / std::cerr, or when nothing opened
  std::ostream file_stream_{nullptr};     // fails every write until a descriptor is attached
  std::ostream* stream_ = &file_stream_;  // or std::cout / std::cerr, when the path is one
  Status status_;
  std::size_t slot_ = kMaxTrackedTemporaries;  // in the registry of temporaries
  bool committed_ = false;
};

}  // namespace fleetsim
