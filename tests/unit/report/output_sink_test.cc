// DirectorySink's commit and its manifest: a complete commit verifies; a changed, missing or
// extra-listed file does not; a commit that stops between renames leaves a folder without a
// manifest, which VerifyOutputFolder reports even though each file in it is complete (issue 19).
// A manifest may list only files inside its folder, each once; a reader of a folder inside a run
// folder finds the run's manifest above it (CommittedFiles). The folder is in a MemoryFileSystem;
// the disk's rename and remove are held to the same behaviour by the FileSystem conformance
// suite, and the CLI tests commit to the disk. On the disk, a signal handled on another thread
// while a temporary is being made waits for it and removes it (a death test).
#include "fleetsim/report/output_sink.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <istream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "testutil/command.h"

namespace fleetsim {
namespace {

class OutputSinkTest : public ::testing::Test {
 protected:
  std::string Commit(const std::map<std::string, std::string>& staged) {
    DirectorySink sink(files_, dir_);
    for (const auto& [path, contents] : staged) {
      sink.Stage(path, contents);
    }
    return sink.Commit().message();
  }

  std::string Read(const std::string& relative) const {
    std::string contents;
    EXPECT_TRUE(files_.ReadFile(dir_ + "/" + relative, contents).ok()) << relative;
    return contents;
  }

  std::vector<std::string> Verify() const { return VerifyOutputFolder(files_, dir_); }

  MemoryFileSystem files_;
  std::string dir_ = "out";
};

TEST_F(OutputSinkTest, ACommitWritesItsFilesAndThenAManifestThatVerifies) {
  ASSERT_EQ(Commit({{"comparison.csv", "a,b\n"}, {"s/fifo/summary.json", "{}\n"}}), "");
  EXPECT_EQ(Read("comparison.csv"), "a,b\n");
  EXPECT_EQ(Read(kOutputManifest),
            OutputManifest({{"comparison.csv", "a,b\n"}, {"s/fifo/summary.json", "{}\n"}}));
  EXPECT_NE(Read(kOutputManifest).find("\"path\": \"s/fifo/summary.json\""), std::string::npos);
  EXPECT_TRUE(Verify().empty());
  EXPECT_EQ(files_.files().size(), 3U);  // no temporary left behind
}

TEST_F(OutputSinkTest, AChangedOrMissingFileFailsVerification) {
  ASSERT_EQ(Commit({{"a.csv", "1\n"}, {"b.csv", "2\n"}}), "");
  ASSERT_TRUE(files_.WriteFile(dir_ + "/a.csv", "3\n").ok());
  ASSERT_TRUE(files_.Remove(dir_ + "/b.csv").ok());
  const std::vector<std::string> problems = Verify();
  ASSERT_EQ(problems.size(), 2U);
  EXPECT_NE(problems[0].find("out/a.csv: not the file the manifest lists (2 bytes"),
            std::string::npos)
      << problems[0];
  EXPECT_NE(problems[1].find("out/b.csv: cannot read"), std::string::npos) << problems[1];
}

TEST_F(OutputSinkTest, ACommitInterruptedBetweenRenamesLeavesNoManifest) {
  ASSERT_EQ(Commit({{"a.csv", "old a\n"}, {"b.csv", "old b\n"}}), "");
  // The second rename cannot happen: a directory stands where b.csv goes. The first file is
  // already replaced, so the folder mixes two commits, each file complete.
  ASSERT_TRUE(files_.Remove(dir_ + "/b.csv").ok());
  ASSERT_TRUE(files_.CreateDirectories(dir_ + "/b.csv/inside").ok());
  const std::string error = Commit({{"a.csv", "new a\n"}, {"b.csv", "new b\n"}});
  EXPECT_NE(error.find("b.csv: cannot rename into place"), std::string::npos) << error;
  EXPECT_EQ(Read("a.csv"), "new a\n");
  const std::vector<std::string> problems = Verify();
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_NE(problems[0].find("no readable manifest"), std::string::npos) << problems[0];
  for (const auto& [path, contents] : files_.files()) {
    EXPECT_EQ(path.find(".tmp"), std::string::npos) << path;
  }
}

TEST_F(OutputSinkTest, AFolderWithoutAManifestOrWithABadOneFailsVerification) {
  ASSERT_TRUE(files_.CreateDirectories(dir_).ok());
  EXPECT_NE(Verify().at(0).find("no readable manifest"), std::string::npos);
  const std::string manifest = dir_ + "/" + kOutputManifest;
  ASSERT_TRUE(files_.WriteFile(manifest, "{\"format\": 3}").ok());
  EXPECT_NE(Verify().at(0).find("not a fleetsim output manifest"), std::string::npos);
  ASSERT_TRUE(
      files_
          .WriteFile(manifest, R"({"format": "fleetsim-output-manifest", "files": [{"path": 1}]})")
          .ok());
  EXPECT_NE(Verify().at(0).find("a files entry is not"), std::string::npos);
}

TEST_F(OutputSinkTest, AManifestListingPathsOutsideTheFolderTwiceOrNothingFailsVerification) {
  ASSERT_EQ(Commit({{"a.csv", "1\n"}}), "");
  ASSERT_TRUE(files_.CreateDirectories("elsewhere").ok());
  ASSERT_TRUE(files_.WriteFile("elsewhere/a.csv", "1\n").ok());
  const std::string manifest_path = dir_ + "/" + kOutputManifest;
  const nlohmann::json manifest = nlohmann::json::parse(Read(kOutputManifest));
  const auto verify_with = [&](const nlohmann::json& files) {
    nlohmann::json changed = manifest;
    changed["files"] = files;
    EXPECT_TRUE(files_.WriteFile(manifest_path, changed.dump()).ok());
    return Verify();
  };
  for (const std::string path : {"../elsewhere/a.csv", "/elsewhere/a.csv", "./a.csv", ""}) {
    nlohmann::json entries = manifest["files"];
    entries[0]["path"] = path;
    const std::vector<std::string> problems = verify_with(entries);
    ASSERT_EQ(problems.size(), 1U) << path;
    EXPECT_NE(problems[0].find("is not a path inside the folder"), std::string::npos)
        << problems[0];
  }
  const nlohmann::json entry = manifest["files"][0];
  std::vector<std::string> problems = verify_with(nlohmann::json::array({entry, entry}));
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_NE(problems[0].find("lists \"a.csv\" twice"), std::string::npos) << problems[0];
  problems = verify_with(nlohmann::json::array());
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_NE(problems[0].find("lists no files"), std::string::npos) << problems[0];
  EXPECT_TRUE(verify_with(manifest["files"]).empty());
}

TEST_F(OutputSinkTest, CommittedFilesAreThoseOfTheRunFolderAboveAndNoOthers) {
  ASSERT_EQ(Commit({{"comparison.csv", "c\n"},
                    {"s/fifo/seed-1/summary.json", "{}\n"},
                    {"s/fifo/seed-2/summary.json", "{}\n"}}),
            "");
  ASSERT_TRUE(files_.CreateDirectories(dir_ + "/s/fifo/seed-3").ok());  // an older run's
  ASSERT_TRUE(files_.WriteFile(dir_ + "/s/fifo/seed-3/summary.json", "{}\n").ok());
  std::vector<std::string> problems;
  for (const std::string from : {"out", "out/s", "out/s/fifo", "out/s/fifo/seed-1/"}) {
    const auto committed = CommittedFiles(files_, from, problems);
    ASSERT_TRUE(committed.has_value()) << from;
    EXPECT_EQ(*committed,
              (std::set<std::string>{"out/comparison.csv", "out/s/fifo/seed-1/summary.json",
                                     "out/s/fifo/seed-2/summary.json"}))
        << from;
  }
  ASSERT_TRUE(files_.WriteFile(dir_ + "/comparison.csv", "changed\n").ok());
  EXPECT_FALSE(CommittedFiles(files_, "out/s/fifo", problems).has_value());
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_NE(problems[0].find("out/comparison.csv: not the file the manifest lists"),
            std::string::npos)
      << problems[0];
  ASSERT_TRUE(files_.CreateDirectories("loose/a/b").ok());
  EXPECT_FALSE(CommittedFiles(files_, "loose/a/b", problems).has_value());
  EXPECT_NE(problems.at(0).find("loose/a/b: no readable manifest"), std::string::npos)
      << problems[0];
}

TEST_F(OutputSinkTest, TheManifestIsTheSameBytesForTheSameFiles) {
  const std::map<std::string, std::string> staged = {{"x", "1"}, {"y/z", "2"}};
  EXPECT_EQ(OutputManifest(staged), OutputManifest(staged));
  EXPECT_NE(OutputManifest(staged), OutputManifest({{"x", "1"}, {"y/z", "3"}}));
}

// Whether thread `tid` of this process is in nanosleep(2) (glibc's nanosleep is
// clock_nanosleep), as the signal handler is while it waits for a temporary to be owned.
bool Sleeping(long tid) {
  std::ifstream in(fmt::format("/proc/self/task/{}/syscall", tid));
  long number = -1;  // the file reads "running" when the thread is not in a system call
  return (in >> number) && (number == SYS_clock_nanosleep || number == SYS_nanosleep);
}

// The disk, except that once CreateNewFile has made a file, another thread sends the process
// SIGTERM, and the file is reported made only once that thread is seen sleeping: its handler
// waiting for the temporary, registered but not yet owned (this thread holds the signal
// meanwhile). Then nothing is written for 2 s, time for the handler to end the process.
class SignalledWhileMaking final : public FileSystem {
 public:
  Status ReadFile(const std::string& path, std::string& contents) const override {
    return disk_.ReadFile(path, contents);
  }
  Status OpenForReading(const std::string& path, std::unique_ptr<std::istream>& in) const override {
    return disk_.OpenForReading(path, in);
  }
  bool Exists(const std::string& path) const override { return disk_.Exists(path); }
  bool IsFile(const std::string& path) const override { return disk_.IsFile(path); }
  bool IsDirectory(const std::string& path) const override { return disk_.IsDirectory(path); }
  Status CreateDirectories(const std::string& path) override {
    return disk_.CreateDirectories(path);
  }
  Status WriteFile(const std::string& path, const std::string& contents) override {
    return disk_.WriteFile(path, contents);
  }
  using FileSystem::CreateNewFile;
  Status CreateNewFile(const std::string& path, const std::string& contents,
                       const std::function<void()>& made) override {
    return disk_.CreateNewFile(path, contents, [&made] {
      static std::atomic<long> sender{0};
      std::thread([] {
        sigset_t terminate;
        sigemptyset(&terminate);
        sigaddset(&terminate, SIGTERM);
        pthread_sigmask(SIG_UNBLOCK, &terminate, nullptr);  // held by the thread it came from
        sender.store(syscall(SYS_gettid));
        kill(getpid(), SIGTERM);  // handled on a thread not holding it: this one, here
      }).detach();
      while (sender.load() == 0) {
        std::this_thread::yield();
      }
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (!Sleeping(sender.load()) && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      }
      made();
      // The handler, seeing the file owned, removes it and ends the process meanwhile.
      std::this_thread::sleep_for(std::chrono::seconds(2));
    });
  }
  Status Rename(const std::string& from, const std::string& to) override {
    return disk_.Rename(from, to);
  }
  Status Remove(const std::string& path) override { return disk_.Remove(path); }
  bool on_disk() const override { return true; }

 private:
  FileSystem& disk_ = DiskFileSystem();
};

// A death test (the suite's name has gtest run it before the others start any thread).
TEST(OutputSinkDeathTest, AHandlerOnAnotherThreadWaitsForATemporaryBeingMadeAndRemovesIt) {
  const std::string dir = testing::FreshTempDir();
  EXPECT_EXIT(
      {
        RemoveTemporariesOnSignals();
        SignalledWhileMaking files;
        DirectorySink sink(files, dir + "/out");
        sink.Stage("summary.json", "{}\n");
        (void)sink.Commit();
        std::_Exit(0);  // not reached: SIGTERM ends the process while the file is made
      },
      ::testing::KilledBySignal(SIGTERM), "");
  ASSERT_TRUE(std::filesystem::is_directory(dir + "/out"));
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/out")) {
    left.push_back(entry.path().filename().string());
  }
  EXPECT_EQ(left, std::vector<std::string>{}) << "the temporary was left behind";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fleetsim
