// FileSystem: the files fleetsim reads and writes, behind one small interface (leveldb's Env and
// memenv, ninja's DiskInterface and VirtualFileSystem are the models). DiskFileSystem() is the
// machine's disk; MemoryFileSystem keeps files in memory, so that tests of the readers and the
// output commit run without touching the disk, and both pass one conformance suite
// (tests/unit/core/file_system_test.cc). Paths are plain strings, relative ones taken from the
// working directory (the memory file system's is its root). Every failure is an I/O error naming
// the path and the reason: "x.json: cannot read: No such file or directory", "... it is a
// directory". DiskFileSystem is stateless and thread-safe; a MemoryFileSystem is not thread-safe.
#pragma once

#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "fleetsim/core/status.h"

namespace fleetsim {

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // The whole file.
  virtual Status ReadFile(const std::string& path, std::string& contents) const = 0;
  // The file as a stream, to read a large one a line at a time.
  virtual Status OpenForReading(const std::string& path,
                                std::unique_ptr<std::istream>& in) const = 0;
  // Whether anything is there (a file, a directory, or on the disk a special file).
  virtual bool Exists(const std::string& path) const = 0;
  virtual bool IsFile(const std::string& path) const = 0;
  virtual bool IsDirectory(const std::string& path) const = 0;

  // Creates the directory and any missing parents; OK when it exists already (or is "", the
  // working directory).
  virtual Status CreateDirectories(const std::string& path) = 0;
  // Creates or truncates the file and writes `contents`; its directory must exist.
  virtual Status WriteFile(const std::string& path, const std::string& contents) = 0;
  // Creates a new file and writes `contents`; its directory must exist. Fails with
  // StatusCode::kAlreadyExists ("File exists") when anything is at `path` already: a file, a
  // directory, a link (which is not followed, even when it points nowhere). For temporaries no
  // one else can redirect.
  Status CreateNewFile(const std::string& path, const std::string& contents) {
    return CreateNewFile(path, contents, [] {});
  }
  // The same, calling `made` as soon as the file is made, before anything is written to it (for
  // a caller that must know from then on that the file is its own, as a signal handler removing
  // temporaries does); not called when no file is made. An exception from `made` removes the file.
  // (Implementations declare `using FileSystem::CreateNewFile;` to keep the form above.)
  virtual Status CreateNewFile(const std::string& path, const std::string& contents,
                               const std::function<void()>& made) = 0;
  // Moves a file over `to`, replacing it (atomically on the disk, as rename(2)).
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  // Removes a file or an empty directory; OK when there is none.
  virtual Status Remove(const std::string& path) = 0;

  // Whether the files are the machine's: only then do paths name something a signal handler
  // can clean up (report/output_sink.h).
  virtual bool on_disk() const = 0;
};

// The machine's file system.
FileSystem& DiskFileSystem();

// Whether two paths name one file on the disk: the same path once made absolute, with the
// symbolic links of its existing part resolved, and normal ("x", "./x" and "d/../x" are one); or,
// both existing, one file by two names (a hard link). Two existing devices or FIFOs are not one
// file (outputs are written into them in place, in turn). For outputs that must differ.
bool SameDiskFile(const std::string& a, const std::string& b);

// Whether `path` is `folder` or lies below it, both resolved as SameDiskFile does. For a file
// output that must not be one of an output folder's files.
bool InsideDiskFolder(const std::string& path, const std::string& folder);

// Opens a new file on the disk for writing, as FileSystem::CreateNewFile does (O_EXCL,
// O_NOFOLLOW, mode 0666 less the umask). Returns its descriptor, or -1 with errno set.
int CreateNewDiskFile(const std::string& path);

// Why a new file at `path` was not created, from the errno of the attempt: "PATH: cannot
// create: ERROR", kAlreadyExists for EEXIST (the name is taken), an I/O error otherwise.
Status CannotCreateNewFile(const std::string& path, int error);

// Writes all of `data` to the descriptor, through short writes and EINTR. Returns 0, or the
// errno of the write that failed.
int WriteAll(int descriptor, const char* data, std::size_t size);

class MemoryFileSystem final : public FileSystem {
 public:
  Status ReadFile(const std::string& path, std::string& contents) const override;
  Status OpenForReading(const std::string& path, std::unique_ptr<std::istream>& in) const override;
  bool Exists(const std::string& path) const override;
  bool IsFile(const std::string& path) const override;
  bool IsDirectory(const std::string& path) const override;
  Status CreateDirectories(const std::string& path) override;
  Status WriteFile(const std::string& path, const std::string& contents) override;
  using FileSystem::CreateNewFile;
  Status CreateNewFile(const std::string& path, const std::string& contents,
                       const std::function<void()>& made) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Status Remove(const std::string& path) override;
  bool on_disk() const override { return false; }

  // Every file, by normalized path ("a/b.csv").
  const std::map<std::string, std::string>& files() const { return files_; }

 private:
  Status CanRead(const std::string& key, const std::string& path) const;
  // Whether the normalized path names a directory ("" and "/" are the root).
  bool HasDirectory(const std::string& key) const;
  // Why a file cannot be made at the normalized path: ENOTDIR (a file stands where a parent
  // directory should), ENOENT (a parent is missing), or 0.
  int ParentError(const std::string& key) const;

  std::map<std::string, std::string> files_;
  std::set<std::string> directories_{""};  // the root
};

}  // namespace fleetsim
