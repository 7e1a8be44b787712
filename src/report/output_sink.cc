// Staged, all-or-nothing output files, and the manifest that marks a folder's commit complete.
#include "fleetsim/report/output_sink.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <vector>

#include "fleetsim/core/check.h"
#include "fleetsim/core/random.h"
#include "json/json_text.h"

namespace fleetsim {

namespace fs = std::filesystem;

void OutputSink::Stage(const std::string& relative_path, std::string contents) {
  staged_[relative_path] = std::move(contents);
}

namespace {

// The registry of live temporaries the signal handler removes: heap copies of their paths in
// lock-free slots (a handler may read them at any moment; unlink is async-signal-safe). A path
// is registered before its file is made, and owned from when the file is made: the handler
// removes owned paths only, so a signal while a name is tried that turns out to be taken (by a
// planted link, or another process's temporary) removes nothing. The thread making the file
// holds the removing signals from the registration until the file is owned (SignalsHeld), so a
// handler never runs on it in between; a handler on another thread waits for such a slot.
struct TrackedTemporary {
  std::atomic<char*> path{nullptr};
  std::atomic<bool> owned{false};
};
std::array<TrackedTemporary, kMaxTrackedTemporaries> tracked_temporaries{};
// Handlers that have begun reading the registry. A path forgotten once one has is not freed: the
// handler may hold it, and the process is about to die anyway.
std::atomic<int> registry_readers{0};
static_assert(std::atomic<char*>::is_always_lock_free && std::atomic<int>::is_always_lock_free &&
                  std::atomic<bool>::is_always_lock_free,
              "the signal handler reads the registry: its atomics must be lock-free");

// Registers `path`; returns its slot, or kMaxTrackedTemporaries when every slot is taken.
std::size_t TrackTemporary(const std::string& path) {
  char* copy = new char[path.size() + 1];
  std::memcpy(copy, path.c_str(), path.size() + 1);
  for (std::size_t slot = 0; slot < tracked_temporaries.size(); ++slot) {
    char* expected = nullptr;
    if (tracked_temporaries[slot].path.compare_exchange_strong(expected, copy)) {
      return slot;
    }
  }
  delete[] copy;
  return kMaxTrackedTemporaries;
}

// Marks a registered path's file as made by this process (a slot of kMaxTrackedTemporaries: not
// registered, nothing to do).
void OwnTemporary(std::size_t slot) {
  if (slot < tracked_temporaries.size()) {
    tracked_temporaries[slot].owned.store(true);
  }
}

// Unregisters a slot. The order of the two atomic operations (sequentially consistent) makes
// the free safe: a handler that loaded the path before the exchange counted itself a reader
// before that, so the count read after the exchange is not 0.
void ForgetTemporary(std::size_t slot) {
  if (slot < tracked_temporaries.size()) {
    tracked_temporaries[slot].owned.store(false);
    char* path = tracked_temporaries[slot].path.exchange(nullptr);
    if (registry_readers.load() == 0) {
      delete[] path;
    }
  }
}

// The signals whose handler removes the temporaries (RemoveTemporariesOnSignals).
constexpr std::array<int, 5> kRemovingSignals = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGABRT};

// The removing signals blocked on this thread while one of its temporaries is registered but not
// yet owned; a signal that comes meanwhile is handled on Release (or on another thread).
class SignalsHeld {
 public:
  explicit SignalsHeld(bool hold) {
    if (hold) {
      sigset_t signals;
      sigemptyset(&signals);
      for (const int signal_number : kRemovingSignals) {
        sigaddset(&signals, signal_number);
      }
      held_ = pthread_sigmask(SIG_BLOCK, &signals, &before_) == 0;
    }
  }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;
  ~SignalsHeld() { Release(); }

  void Release() {
    if (held_) {
      held_ = false;
      pthread_sigmask(SIG_SETMASK, &before_, nullptr);
    }
  }

 private:
  bool held_ = false;
  sigset_t before_{};
};

// For a handler meeting a slot registered but not owned, whose file another thread is making:
// whether that file becomes this path's, owned, within about 0.1-0.2 s (nanosleep is
// async-signal-safe). False when the attempt fails (the slot is forgotten: a next attempt waits
// in WaitIfDying, making nothing) or takes longer.
bool OwnedAfterWaiting(const TrackedTemporary& slot, const char* path) {
  for (int wait = 0; wait < 1000; ++wait) {
    if (slot.owned.load()) {
      return slot.path.load() == path;
    }
    if (slot.path.load() != path) {
      return false;
    }
    const timespec pause{.tv_sec = 0, .tv_nsec = 100'000};
    nanosleep(&pause, nullptr);
  }
  return false;
}

// Called after registering a temporary (in `slot`), before making its file: when a signal
// handler has begun removing the temporaries, the process is about to die, and a file made now
// might escape it (the handler may have passed the slot, or be waiting on an earlier name of
// it), so this thread makes nothing and waits for the end. The registration and the handler's
// count being sequentially consistent, a handler that begins after the check sees the slot.
void WaitIfDying(std::size_t slot) {
  if (slot < tracked_temporaries.size() && registry_readers.load() != 0) {
    for (;;) {
      pause();
    }
  }
}

extern "C" void RemoveTemporariesAndDie(int signal_number) {
  registry_readers.fetch_add(1);
  for (const TrackedTemporary& slot : tracked_temporaries) {
    const char* path = slot.path.load();
    if (path != nullptr && (slot.owned.load() || OwnedAfterWaiting(slot, path))) {
      unlink(path);
    }
  }
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

std::string Digest(const std::string& contents) {
  return fmt::format("fnv1a64:{:016x}", Fnv1a64(contents));
}

// How many names CreateTemporary tries before it gives up.
constexpr int kTemporaryAttempts = 16;

// A fresh temporary name beside `target`: ".NAME.PID-N.tmp", N counting the process's
// temporaries, so that two processes (sweep shards) or two outputs never share one. The names
// are predictable: whoever may write the folder can take the 16 a write will try and make it
// fail (exit 4), never redirect it.
fs::path TemporaryName(const fs::path& target) {
  static std::atomic<unsigned long> made{0};
  const std::string suffix = fmt::format(".{}-{}.tmp", getpid(), made++);
  // A name the file system takes (NAME_MAX, 255 bytes on Linux) however long the target's: the
  // target's own name is cut short to fit, the suffix keeps the temporary unique.
  constexpr std::size_t kNameMax = 255;
  const std::string name = target.filename().string();
  std::size_t kept = std::min(name.size(), kNameMax - 1 - suffix.size());
  while (kept > 0 && kept < name.size() && (name[kept] & 0xC0) == 0x80) {
    --kept;  // not inside a UTF-8 character: some file systems accept only whole ones
  }
  return target.parent_path() / ("." + name.substr(0, kept) + suffix);
}

// Creates a temporary beside `target` with `create(name, made)`, which makes a new file (never
// following a link, failing when anything is at the name), calls `made()` as soon as the file is
// made, and writes it; fresh names are tried while the one tried is taken (a leftover of a killed
// process whose id was reused, a planted link). Each name is registered for the signal handler
// (`track`, in `slot`) before it is tried and owned from `made()` on, so that a signal during
// the write removes the file but one during the failed open(2) of a taken name leaves what took
// it; it is forgotten when the attempt fails. The removing signals are held on this thread from
// before the registration until the file is owned or forgotten, so one that comes between the
// open(2) that made the file and `made()` is handled after, and removes it. Everything is allocated
// before the file is made, so running out of memory leaves no file that nothing would remove.
// Returns the last attempt's status; `temporary` is the file's name when it is OK.
template <typename Create>
Status CreateTemporary(const fs::path& target, bool track, std::string& temporary,
                       std::size_t& slot, Create create) {
  Status status;
  for (int attempt = 0; attempt < kTemporaryAttempts; ++attempt) {
    temporary = TemporaryName(target).string();
    SignalsHeld held(track);
    slot = track ? TrackTemporary(temporary) : kMaxTrackedTemporaries;
    WaitIfDying(slot);
    try {
      status = create(temporary, [slot, &held] {
        OwnTemporary(slot);
        held.Release();
      });
    } catch (...) {
      ForgetTemporary(slot);
      slot = kMaxTrackedTemporaries;
      throw;
    }
    if (status.ok()) {
      return status;
    }
    ForgetTemporary(slot);
    slot = kMaxTrackedTemporaries;
    if (status.code() != StatusCode::kAlreadyExists) {
      break;
    }
  }
  return status;
}

// The temporaries of one commit on `files`, each tracked for the signal handler (on the disk)
// from its creation until it is renamed into place or removed. The destructor removes whatever
// was not renamed.
class PendingFiles {
 public:
  explicit PendingFiles(FileSystem& files) : files_(files) {}
  PendingFiles(const PendingFiles&) = delete;
  PendingFiles& operator=(const PendingFiles&) = delete;
  ~PendingFiles() {
    for (Pending& file : pending_) {
      if (file.created && !file.renamed) {
        (void)files_.Remove(file.temporary);  // best effort: the commit failed already
      }
      ForgetTemporary(file.slot);
    }
  }

  // Writes `contents` to a temporary beside `target` (directories created).
  Status Write(const fs::path& target, const std::string& contents) {
    if (Status status = files_.CreateDirectories(target.parent_path().string()); !status.ok()) {
      return status;
    }
    pending_.push_back({"", target});  // allocated before the file is made
    Pending& file = pending_.back();
    const Status status =
        CreateTemporary(target, files_.on_disk(), file.temporary, file.slot,
                        [&](const std::string& name, const std::function<void()>& made) {
                          return files_.CreateNewFile(name, contents, made);
                        });
    file.created = status.ok();
    return status;
  }

  // Renames every temporary into place, in order; fails with the first rename that failed.
  // Only after every Write succeeded (a commit stops at its first failed write).
  Status RenameAll() {
    for (Pending& file : pending_) {
      FLEETSIM_CHECK(file.created, "PendingFiles::RenameAll after a failed Write");
      const SignalsHeld held(file.slot < kMaxTrackedTemporaries);
      if (Status status = files_.Rename(file.temporary, file.target.string()); !status.ok()) {
        return status;
      }
      file.renamed = true;
      ForgetTemporary(file.slot);  // the name is no longer this process's file
      file.slot = kMaxTrackedTemporaries;
    }
    return Status::Ok();
  }

 private:
  struct Pending {
    std::string temporary;
    fs::path target;
    std::size_t slot = kMaxTrackedTemporaries;
    bool created = false;  // the temporary is this commit's file
    bool renamed = false;
  };
  FileSystem& files_;
  std::vector<Pending> pending_;
};

}  // namespace

std::string OutputManifest(const std::map<std::string, std::string>& files) {
  nlohmann::ordered_json listed = nlohmann::ordered_json::array();
  for (const auto& [path, contents] : files) {
    listed.push_back({{"path", path}, {"bytes", contents.size()}, {"digest", Digest(contents)}});
  }
  const nlohmann::ordered_json manifest = {
      {"format", "fleetsim-output-manifest"}, {"format_version", 1}, {"files", std::move(listed)}};
  return manifest.dump(2) + "\n";
}

Status DirectorySink::Commit() {
  const fs::path directory(directory_);
  PendingFiles pending(files_);
  for (const auto& [relative, contents] : staged_) {
    if (Status status = pending.Write(directory / relative, contents); !status.ok()) {
      return status;
    }
  }
  // From here until the new manifest is in place the folder has none, so a reader can tell an
  // interrupted commit from a complete one.
  if (Status status = files_.Remove((directory / kOutputManifest).string()); !status.ok()) {
    return status;
  }
  if (Status status = pending.RenameAll(); !status.ok()) {
    return status;
  }
  PendingFiles manifest(files_);
  Status status = manifest.Write(directory / kOutputManifest, OutputManifest(staged_));
  if (status.ok()) {
    status = manifest.RenameAll();
  }
  if (status.ok()) {
    staged_.clear();
  }
  return status;
}

namespace {

// Whether `listed` or a folder on its way down from `directory` is a symbolic link.
bool ThroughALink(const fs::path& directory, const std::string& listed) {
  fs::path at = directory;
  for (const fs::path& part : fs::path(listed)) {
    at /= part;
    if (std::error_code error; fs::is_symlink(fs::symlink_status(at, error))) {
      return true;
    }
  }
  return false;
}

// OK when the listed file is the one the manifest lists, else why not.
Status CheckListed(const FileSystem& files, const fs::path& directory,
                   const nlohmann::json& entry) {
  if (!entry.is_object() || !entry.contains("path") || !entry["path"].is_string() ||
      !entry.contains("bytes") || !entry["bytes"].is_number_unsigned() ||
      !entry.contains("digest") || !entry["digest"].is_string()) {
    return Status::InvalidInput(
        fmt::format("{}: a files entry is not {{\"path\", \"bytes\", \"digest\"}}",
                    (directory / kOutputManifest).string()));
  }
  const std::string listed = entry["path"].get<std::string>();
  if (const fs::path relative(listed); listed.empty() || relative.is_absolute() ||
                                       relative.lexically_normal().generic_string() != listed ||
                                       *relative.begin() == "..") {
    return Status::InvalidInput(
        fmt::format("{}: \"{}\" is not a path inside the folder (relative, normal, no \"..\")",
                    (directory / kOutputManifest).string(), listed));
  }
  const fs::path path = directory / listed;
  if (files.on_disk() && ThroughALink(directory, listed)) {
    return Status::InvalidInput(fmt::format(
        "{} (listed in the manifest): a symbolic link on its way, which no commit writes",
        path.string()));
  }
  if (files.Exists(path.string()) && !files.IsFile(path.string())) {
    return Status::InvalidInput(
        fmt::format("{} (listed in the manifest): not a regular file (a folder, a device, a FIFO)",
                    path.string()));
  }
  std::string contents;
  if (Status status = files.ReadFile(path.string(), contents); !status.ok()) {
    return Status::IoError(fmt::format("{} (listed in the manifest)", status.message()));
  }
  if (contents.size() != entry["bytes"].get<std::uint64_t>() ||
      Digest(contents) != entry["digest"].get<std::string>()) {
    return Status::InvalidInput(fmt::format(
        "{}: not the file the manifest lists ({} bytes, {}; found {} bytes, {}): it was "
        "replaced by a later commit that did not finish, or changed after the run",
        path.string(), entry["bytes"].get<std::uint64_t>(), entry["digest"].get<std::string>(),
        contents.size(), Digest(contents)));
  }
  return Status::Ok();
}

}  // namespace

namespace {

// VerifyOutputFolder, also giving the paths the manifest lists (when it could be read).
std::vector<std::string> VerifyAndList(const FileSystem& files, const std::string& directory,
                                       std::set<std::string>& listed) {
  const fs::path manifest_path = fs::path(directory) / kOutputManifest;
  std::string text;
  if (Status status = files.ReadFile(manifest_path.string(), text); !status.ok()) {
    return {
        fmt::format("{}: no readable manifest ({}): the folder's last commit did not finish, "
                    "or it was not written by fleetsim",
                    directory, status.message())};
  }
  nlohmann::json manifest;
  if (Status status = ParseJsonText(text, manifest_path.string(), manifest); !status.ok()) {
    return {status.message()};
  }
  if (!manifest.is_object() || !manifest.contains("format") ||
      manifest["format"] != "fleetsim-output-manifest" || !manifest.contains("files") ||
      !manifest["files"].is_array()) {
    return {
        fmt::format("{}: not a fleetsim output manifest (expected an object with \"format\": "
                    "\"fleetsim-output-manifest\" and a \"files\" array)",
                    manifest_path.string())};
  }
  std::vector<std::string> problems;
  if (manifest["files"].empty()) {
    problems.push_back(
        fmt::format("{}: lists no files (a commit writes at least one)", manifest_path.string()));
  }
  for (const nlohmann::json& entry : manifest["files"]) {
    if (Status status = CheckListed(files, directory, entry); !status.ok()) {
      problems.push_back(status.message());
    } else if (!listed.insert(entry["path"].get<std::string>()).second) {
      problems.push_back(fmt::format("{}: lists \"{}\" twice", manifest_path.string(),
                                     entry["path"].get<std::string>()));
    }
  }
  return problems;
}

}  // namespace

std::vector<std::string> VerifyOutputFolder(const FileSystem& files, const std::string& directory) {
  std::set<std::string> listed;
  return VerifyAndList(files, directory, listed);
}

std::optional<std::set<std::string>> CommittedFiles(const FileSystem& files,
                                                    const std::string& directory,
                                                    std::vector<std::string>& problems) {
  std::error_code error;
  const fs::path start = files.on_disk() ? fs::absolute(directory, error).lexically_normal()
                                         : fs::path(directory).lexically_normal();
  fs::path root = start.filename().empty() ? start.parent_path() : start;  // "DIR/" is DIR
  for (int up = 0;
       up < 3 && !files.Exists((root / kOutputManifest).string()) && root.has_relative_path();
       ++up) {
    root = root.parent_path();
  }
  std::set<std::string> listed;
  problems = VerifyAndList(
      files, files.Exists((root / kOutputManifest).string()) ? root.string() : directory, listed);
  if (!problems.empty()) {
    return std::nullopt;
  }
  std::set<std::string> paths;
  for (const std::string& path : listed) {
    paths.insert((root / path).lexically_normal().string());
  }
  return paths;
}

void RemoveTemporariesOnSignals() {
  for (const int signal_number : kRemovingSignals) {
    struct sigaction action {};
    action.sa_handler = RemoveTemporariesAndDie;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, nullptr);
  }
}

// A file descriptor the StagedFile owns, buffered; a failed write keeps its errno and fails the
// stream (badbit).
class StagedFile::Buffer final : public std::streambuf {
 public:
  Buffer() { Reset(); }
  ~Buffer() override { (void)Close(); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // Takes over an open descriptor (allocates nothing).
  void Adopt(int descriptor) { descriptor_ = descriptor; }

  // Writes what is buffered and closes the descriptor. Returns 0, or the errno of the first
  // write or close that failed.
  int Close() {
    if (descriptor_ >= 0) {
      (void)sync();
      if (close(descriptor_) != 0 && error_ == 0) {
        error_ = errno;
      }
      descriptor_ = -1;
    }
    return error_;
  }
  int error() const { return error_; }

 protected:
  int overflow(int ch) override {
    if (sync() != 0) {
      return traits_type::eof();
    }
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }

  std::streamsize xsputn(const char* data, std::streamsize size) override {
    if (size <= epptr() - pptr()) {
      std::memcpy(pptr(), data, static_cast<std::size_t>(size));
      pbump(static_cast<int>(size));
      return size;
    }
    if (sync() != 0) {
      return 0;
    }
    if (error_ = WriteAll(descriptor_, data, static_cast<std::size_t>(size)); error_ != 0) {
      return 0;
    }
    return size;
  }

  int sync() override {
    if (error_ == 0) {  // nothing is written after the file is closed
      error_ = descriptor_ < 0
                   ? EBADF
                   : WriteAll(descriptor_, pbase(), static_cast<std::size_t>(pptr() - pbase()));
    }
    Reset();
    return error_ == 0 ? 0 : -1;
  }

 private:
  void Reset() { setp(space_.data(), space_.data() + space_.size()); }

  int descriptor_ = -1;
  int error_ = 0;
  std::array<char, 1 << 16> space_{};
};

namespace {

// Whether `path`, through links, is the file open as `descriptor` (a regular file, a pipe, a
// terminal: std::filesystem::equivalent refuses to compare two pipes or devices).
bool IsOpenAs(const std::string& path, int descriptor) {
  struct stat named {};
  struct stat open {};
  return stat(path.c_str(), &named) == 0 && fstat(descriptor, &open) == 0 &&
         named.st_dev == open.st_dev && named.st_ino == open.st_ino;
}

}  // namespace

StagedFile::Target StagedFile::KindOfTarget(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);  // through links
  // A device is one for everyone who opens it: standard output on /dev/null or a terminal does
  // not make every other writer of that device standard output.
  return fs::is_block_file(status)                      ? Target::kBlockDevice
         : fs::is_character_file(status)                ? Target::kInPlace
         : IsOpenAs(path, STDOUT_FILENO)                ? Target::kStandardOutput
         : IsOpenAs(path, STDERR_FILENO)                ? Target::kStandardError
         : fs::is_fifo(status) || fs::is_socket(status) ? Target::kInPlace
                                                        : Target::kRenamedOver;
}

StagedFile::StagedFile(std::string path) : path_(std::move(path)) {
  switch (KindOfTarget(path_)) {
    case Target::kStandardOutput:
      stream_ = &std::cout;  // the process's own stream, in order with what it printed
      return;
    case Target::kStandardError:
      stream_ = &std::cerr;
      return;
    case Target::kBlockDevice:
      status_ = Status::IoError(
          fmt::format("{}: is a block device; results are not written to one", path_));
      return;
    case Target::kInPlace:
      // A device or FIFO: appended to, nothing to truncate.
      buffer_ = std::make_unique<Buffer>();  // allocated before anything is opened
      if (const int descriptor = open(path_.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
          descriptor >= 0) {
        Attach(descriptor);
      } else {
        status_ = Status::IoError(fmt::format("{}: cannot open: {}", path_, std::strerror(errno)));
      }
      return;
    case Target::kRenamedOver:
      break;
  }
  buffer_ = std::make_unique<Buffer>();  // allocated before the temporary is made
  int descriptor = -1;
  status_ = CreateTemporary(fs::path(path_), true, temporary_, slot_,
                            [&](const std::string& name, const auto& made) {
                              descriptor = CreateNewDiskFile(name);
                              if (descriptor < 0) {
                                return CannotCreateNewFile(name, errno);
                              }
                              made();
                              return Status::Ok();
                            });
  if (status_.ok()) {
    Attach(descriptor);
  } else {
    temporary_.clear();  // the name tried last is not this file's
  }
}

void StagedFile::Attach(int descriptor) {
  buffer_->Adopt(descriptor);
  file_stream_.rdbuf(buffer_.get());
}

StagedFile::~StagedFile() {
  if (!committed_) {
    buffer_.reset();
    if (!temporary_.empty()) {
      std::error_code ignored;
      fs::remove(temporary_, ignored);
    }
  }
  ForgetTemporary(slot_);
}

std::string StagedFile::WrittenPath() const { return temporary_.empty() ? path_ : temporary_; }

Status StagedFile::Flush() {
  stream_->flush();
  if (!*stream_ && status_.ok()) {
    const int error = buffer_ != nullptr && buffer_->error() != 0 ? buffer_->error() : errno;
    status_ =
        Status::IoError(fmt::format("{}: cannot write: {}", WrittenPath(), std::strerror(error)));
  }
  return status_;
}

Status StagedFile::Commit() {
  if (!Flush().ok() || buffer_ == nullptr) {
    committed_ = status_.ok();  // the process's own stream: written already
    return status_;
  }
  std::error_code ec;
  if (const int error = buffer_->Close(); error != 0) {
    status_ =
        Status::IoError(fmt::format("{}: cannot write: {}", WrittenPath(), std::strerror(error)));
  } else if (temporary_.empty()) {
    committed_ = true;  // written in place
  } else {
    const SignalsHeld held(slot_ < kMaxTrackedTemporaries);
    if (fs::rename(temporary_, path_, ec); ec) {
      status_ =
          Status::IoError(fmt::format("{}: cannot rename into place: {}", path_, ec.message()));
    } else {
      committed_ = true;
      ForgetTemporary(slot_);  // the name is no longer this process's file
      slot_ = kMaxTrackedTemporaries;
    }
  }
  return status_;
}

}  // namespace fleetsim
