// StagedFile on the disk: what is streamed reaches the file byte for byte, through its buffer and
// around it; nothing is under the target's name before Commit, and nothing is left beside it
// after; two staged files for one target never share a temporary (the last commit wins); and a
// link planted where a temporary may be created is neither followed nor replaced.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

#include "fleetsim/core/file_system.h"
#include "fleetsim/report/output_sink.h"
#include "testutil/command.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;

class StagedFileTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Read(const std::string& name) const {
    std::string contents;
    const Status status = DiskFileSystem().ReadFile(dir_ + "/" + name, contents);
    return status.ok() ? contents : status.message();
  }

  // The names in the folder, sorted.
  std::set<std::string> Names() const {
    std::set<std::string> names;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir_)) {
      names.insert(entry.path().filename().string());
    }
    return names;
  }

  std::string dir_;
};

TEST_F(StagedFileTest, WhatIsStreamedIsCommittedByteForByte) {
  std::string large(200'000, '\0');
  for (std::size_t i = 0; i < large.size(); ++i) {
    large[i] = static_cast<char>('a' + i % 23);
  }
  StagedFile file(dir_ + "/out.csv");
  ASSERT_TRUE(file.ok()) << file.status().message();
  file.stream() << "head\n";
  for (int i = 0; i < 70'000; ++i) {
    file.stream().put(static_cast<char>('0' + i % 10));  // through the buffer, over its size
  }
  file.stream() << large;  // larger than the buffer: around it
  EXPECT_EQ(Names().count("out.csv"), 0U) << "nothing under the target's name before Commit";
  ASSERT_TRUE(file.Commit().ok()) << file.status().message();
  std::string expected = "head\n";
  for (int i = 0; i < 70'000; ++i) {
    expected += static_cast<char>('0' + i % 10);
  }
  expected += large;
  EXPECT_EQ(Read("out.csv"), expected);
  EXPECT_EQ(Names(), std::set<std::string>{"out.csv"});
}

TEST_F(StagedFileTest, AFileNeverCommittedLeavesNothing) {
  {
    StagedFile file(dir_ + "/out.csv");
    file.stream() << "partial";
    ASSERT_TRUE(file.Flush().ok());
    EXPECT_EQ(Names().size(), 1U) << "the temporary, while the file is staged";
  }
  EXPECT_TRUE(Names().empty());
}

TEST_F(StagedFileTest, TwoStagedFilesForOneTargetDoNotShareATemporary) {
  StagedFile first(dir_ + "/out.csv");
  StagedFile second(dir_ + "/out.csv");
  first.stream() << "first\n";
  second.stream() << "second\n";
  ASSERT_TRUE(first.Commit().ok()) << first.status().message();
  EXPECT_EQ(Read("out.csv"), "first\n");
  ASSERT_TRUE(second.Commit().ok()) << second.status().message();
  EXPECT_EQ(Read("out.csv"), "second\n");
  EXPECT_EQ(Names(), std::set<std::string>{"out.csv"});
}

// Links planted at the next five temporary names (read off a probe's temporary: this process's
// id and its count of temporaries) are skipped, not written through or replaced.
TEST_F(StagedFileTest, ALinkPlantedAtATemporaryNameIsNotFollowed) {
  std::string probe_name;
  {
    StagedFile probe(dir_ + "/probe");
    ASSERT_TRUE(probe.ok());
    ASSERT_EQ(Names().size(), 1U);
    probe_name = *Names().begin();  // ".probe.PID-N.tmp"
  }
  const std::string prefix = ".probe." + std::to_string(getpid()) + "-";
  ASSERT_EQ(probe_name.rfind(prefix, 0), 0U) << probe_name;
  const int count = std::stoi(probe_name.substr(prefix.size()));
  std::set<std::string> expected = {"out.csv"};
  for (int next = count + 1; next <= count + 5; ++next) {
    const std::string name =
        ".out.csv." + std::to_string(getpid()) + "-" + std::to_string(next) + ".tmp";
    fs::create_symlink(dir_ + "/victim-" + std::to_string(next), dir_ + "/" + name);
    expected.insert(name);
  }
  StagedFile file(dir_ + "/out.csv");
  ASSERT_TRUE(file.ok()) << file.status().message();
  file.stream() << "result\n";
  ASSERT_TRUE(file.Commit().ok()) << file.status().message();
  EXPECT_EQ(Read("out.csv"), "result\n");
  EXPECT_EQ(Names(), expected) << "no victim written, every link left as it was";
  for (const std::string& name : expected) {
    EXPECT_EQ(fs::is_symlink(dir_ + "/" + name), name != "out.csv") << name;
  }
}

}  // namespace
}  // namespace fleetsim
