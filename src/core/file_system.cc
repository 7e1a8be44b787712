// The disk and the in-memory file system (core/file_system.h), with the same messages.
#include "fleetsim/core/file_system.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <system_error>

namespace fleetsim {

namespace fs = std::filesystem;

namespace {

Status CannotRead(const std::string& path, const std::string& why) {
  return Status::IoError(fmt::format("{}: cannot read: {}", path, why));
}

class Disk final : public FileSystem {
 public:
  Status ReadFile(const std::string& path, std::string& contents) const override {
    std::unique_ptr<std::istream> in;
    if (Status status = OpenForReading(path, in); !status.ok()) {
      return status;
    }
    contents.assign(std::istreambuf_iterator<char>(*in), std::istreambuf_iterator<char>());
    if (in->bad()) {
      return CannotRead(path, std::strerror(errno));
    }
    return Status::Ok();
  }

  Status OpenForReading(const std::string& path, std::unique_ptr<std::istream>& in) const override {
    if (IsDirectory(path)) {
      return CannotRead(path, "it is a directory");
    }
    auto file = std::make_unique<std::ifstream>(path, std::ios::binary);
    if (!*file) {
      return CannotRead(path, std::strerror(errno));
    }
    in = std::move(file);
    return Status::Ok();
  }

  bool Exists(const std::string& path) const override {
    std::error_code ignored;
    return fs::exists(path, ignored);
  }

  bool IsFile(const std::string& path) const override {
    std::error_code ignored;
    return fs::is_regular_file(path, ignored);
  }

  bool IsDirectory(const std::string& path) const override {
    std::error_code ignored;
    return fs::is_directory(path, ignored);
  }

  Status CreateDirectories(const std::string& path) override {
    if (path.empty()) {
      return Status::Ok();  // the working directory
    }
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec) {
      return Status::IoError(fmt::format("{}: cannot create directory: {}", path, ec.message()));
    }
    return Status::Ok();
  }

  Status WriteFile(const std::string& path, const std::string& contents) override {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
      return Status::IoError(fmt::format("{}: cannot create: {}", path, std::strerror(errno)));
    }
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.close();
    if (!out) {
      return Status::IoError(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
    }
    return Status::Ok();
  }

  using FileSystem::CreateNewFile;
  Status CreateNewFile(const std::string& path, const std::string& contents,
                       const std::function<void()>& made) override {
    const int descriptor = CreateNewDiskFile(path);
    if (descriptor < 0) {
      return CannotCreateNewFile(path, errno);
    }
    try {
      made();
    } catch (...) {
      close(descriptor);
      unlink(path.c_str());
      throw;
    }
    int error = WriteAll(descriptor, contents.data(), contents.size());
    if (close(descriptor) != 0 && error == 0) {
      error = errno;
    }
    if (error != 0) {
      unlink(path.c_str());
      return Status::IoError(fmt::format("{}: cannot write: {}", path, std::strerror(error)));
    }
    return Status::Ok();
  }

  Status Rename(const std::string& from, const std::string& to) override {
    std::error_code ec;
    fs::rename(from, to, ec);
    if (ec) {
      return Status::IoError(fmt::format("{}: cannot rename into place: {}", to, ec.message()));
    }
    return Status::Ok();
  }

  Status Remove(const std::string& path) override {
    std::error_code ec;
    fs::remove(path, ec);
    if (ec) {
      return Status::IoError(fmt::format("{}: cannot remove: {}", path, ec.message()));
    }
    return Status::Ok();
  }

  bool on_disk() const override { return true; }
};

// "./a//b/" -> "a/b"; "." -> "" (the root of a memory file system).
std::string Normal(const std::string& path) {
  std::string normal = fs::path(path).lexically_normal().generic_string();
  while (normal.size() > 1 && normal.back() == '/') {
    normal.pop_back();
  }
  return normal == "." ? "" : normal;
}

std::string ParentOf(const std::string& key) {
  return fs::path(key).parent_path().generic_string();
}

}  // namespace

FileSystem& DiskFileSystem() {
  static Disk disk;
  return disk;
}

int CreateNewDiskFile(const std::string& path) {
  int descriptor;
  do {
    descriptor = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  } while (descriptor < 0 && errno == EINTR);
  return descriptor;
}

Status CannotCreateNewFile(const std::string& path, int error) {
  std::string message = fmt::format("{}: cannot create: {}", path, std::strerror(error));
  return error == EEXIST ? Status::AlreadyExists(std::move(message))
                         : Status::IoError(std::move(message));
}

int WriteAll(int descriptor, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = write(descriptor, data, size);
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      return errno;
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return 0;
}

namespace {

// `path` made absolute, with the symbolic links of its existing part resolved, and normal;
// without the links resolved when they cannot be (a loop, a folder that cannot be read).
std::optional<fs::path> Resolved(const std::string& path) {
  std::error_code error;
  const fs::path absolute = fs::absolute(path, error);
  if (error) {
    return std::nullopt;
  }
  const fs::path resolved = fs::weakly_canonical(absolute, error);
  return (error ? absolute : resolved).lexically_normal();
}

}  // namespace

bool SameDiskFile(const std::string& a, const std::string& b) {
  std::error_code error_a;
  std::error_code error_b;
  const fs::file_status status_a = fs::status(a, error_a);
  const fs::file_status status_b = fs::status(b, error_b);
  if (fs::exists(status_a) && !fs::is_regular_file(status_a) && fs::exists(status_b) &&
      !fs::is_regular_file(status_b)) {
    return false;  // devices and FIFOs are written in place, one after the other
  }
  const std::optional<fs::path> path_a = Resolved(a);
  const std::optional<fs::path> path_b = Resolved(b);
  if (path_a && path_b && *path_a == *path_b) {
    return true;
  }
  std::error_code error;
  return fs::exists(status_a) && fs::exists(status_b) && fs::equivalent(a, b, error) && !error;
}

bool InsideDiskFolder(const std::string& path, const std::string& folder) {
  const std::optional<fs::path> resolved_path = Resolved(path);
  const std::optional<fs::path> resolved_folder = Resolved(folder);
  if (!resolved_path || !resolved_folder) {
    return false;
  }
  const fs::path inside = resolved_path->lexically_relative(*resolved_folder);
  return !inside.empty() && *inside.begin() != "..";
}

Status MemoryFileSystem::CanRead(const std::string& key, const std::string& path) const {
  if (IsDirectory(path)) {
    return CannotRead(path, "it is a directory");
  }
  if (!files_.contains(key)) {
    return CannotRead(path, std::strerror(ENOENT));
  }
  return Status::Ok();
}

Status MemoryFileSystem::ReadFile(const std::string& path, std::string& contents) const {
  const std::string key = Normal(path);
  if (Status status = CanRead(key, path); !status.ok()) {
    return status;
  }
  contents = files_.at(key);
  return Status::Ok();
}

Status MemoryFileSystem::OpenForReading(const std::string& path,
                                        std::unique_ptr<std::istream>& in) const {
  const std::string key = Normal(path);
  if (Status status = CanRead(key, path); !status.ok()) {
    return status;
  }
  in = std::make_unique<std::istringstream>(files_.at(key));
  return Status::Ok();
}

bool MemoryFileSystem::Exists(const std::string& path) const {
  return IsFile(path) || IsDirectory(path);
}

bool MemoryFileSystem::IsFile(const std::string& path) const {
  return files_.contains(Normal(path));
}

bool MemoryFileSystem::IsDirectory(const std::string& path) const {
  return !path.empty() && HasDirectory(Normal(path));
}

bool MemoryFileSystem::HasDirectory(const std::string& key) const {
  return key.empty() || key == "/" || directories_.contains(key);
}

int MemoryFileSystem::ParentError(const std::string& key) const {
  for (std::string parent = ParentOf(key); !parent.empty(); parent = ParentOf(parent)) {
    if (files_.contains(parent)) {
      return ENOTDIR;
    }
    if (parent == "/") {
      break;
    }
  }
  return HasDirectory(ParentOf(key)) ? 0 : ENOENT;
}

Status MemoryFileSystem::CreateDirectories(const std::string& path) {
  const std::string key = Normal(path);
  if (files_.contains(key) || ParentError(key) == ENOTDIR) {
    return Status::IoError(fmt::format("{}: cannot create directory: {}", path,
                                       std::strerror(files_.contains(key) ? EEXIST : ENOTDIR)));
  }
  for (std::string dir = key; !dir.empty() && dir != "/"; dir = ParentOf(dir)) {
    directories_.insert(dir);
  }
  return Status::Ok();
}

Status MemoryFileSystem::WriteFile(const std::string& path, const std::string& contents) {
  const std::string key = Normal(path);
  const int error = HasDirectory(key) ? EISDIR : ParentError(key);
  if (error != 0) {
    return Status::IoError(fmt::format("{}: cannot create: {}", path, std::strerror(error)));
  }
  files_[key] = contents;
  return Status::Ok();
}

Status MemoryFileSystem::CreateNewFile(const std::string& path, const std::string& contents,
                                       const std::function<void()>& made) {
  const std::string key = Normal(path);
  if (files_.count(key) != 0 || HasDirectory(key)) {
    return CannotCreateNewFile(path, EEXIST);
  }
  if (Status status = WriteFile(path, ""); !status.ok()) {
    return status;
  }
  try {
    made();
  } catch (...) {
    files_.erase(key);
    throw;
  }
  files_[key] = contents;
  return Status::Ok();
}

Status MemoryFileSystem::Rename(const std::string& from, const std::string& to) {
  const std::string to_key = Normal(to);
  const auto it = files_.find(Normal(from));
  const int error = it == files_.end()     ? ENOENT
                    : HasDirectory(to_key) ? EISDIR
                                           : ParentError(to_key);
  if (error != 0) {
    return Status::IoError(
        fmt::format("{}: cannot rename into place: {}", to, std::strerror(error)));
  }
  std::string contents = std::move(it->second);
  files_.erase(it);
  files_[to_key] = std::move(contents);
  return Status::Ok();
}

Status MemoryFileSystem::Remove(const std::string& path) {
  const std::string key = Normal(path);
  if (directories_.contains(key)) {
    const std::string inside = key + "/";
    const auto file = files_.lower_bound(inside);
    const auto directory = directories_.lower_bound(inside);
    const bool empty = (file == files_.end() || !file->first.starts_with(inside)) &&
                       (directory == directories_.end() || !directory->starts_with(inside));
    if (!empty) {
      return Status::IoError(fmt::format("{}: cannot remove: {}", path, std::strerror(ENOTEMPTY)));
    }
    directories_.erase(key);
    return Status::Ok();
  }
  files_.erase(key);
  return Status::Ok();
}

}  // namespace fleetsim
