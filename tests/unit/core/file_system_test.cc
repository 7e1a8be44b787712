// The FileSystem conformance suite: the disk (in a fresh temporary folder) and the memory file
// system behave alike and say the same words — reads of missing files and of directories,
// writes into missing directories, renames over files and onto directories, removes of what is
// not there, and the paths "a/./b" and "a//b" naming "a/b". And SameDiskFile.
#include "fleetsim/core/file_system.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "testutil/command.h"

namespace fleetsim {
namespace {

enum class Kind { kDisk, kMemory };

class FileSystemTest : public ::testing::TestWithParam<Kind> {
 protected:
  void SetUp() override {
    if (GetParam() == Kind::kDisk) {
      root_ = testing::FreshTempDir() + "/";
    }
  }
  void TearDown() override {
    if (GetParam() == Kind::kDisk) {
      std::filesystem::remove_all(root_);
    }
  }

  FileSystem& files() { return GetParam() == Kind::kDisk ? DiskFileSystem() : memory_; }
  // `relative` under the test's own root (a temporary folder on the disk).
  std::string At(const std::string& relative) const { return root_ + relative; }

  std::string Read(const std::string& relative) {
    std::string contents;
    const Status status = files().ReadFile(At(relative), contents);
    return status.ok() ? contents : status.message();
  }

  MemoryFileSystem memory_;
  std::string root_;
};

TEST_P(FileSystemTest, WritesAndReadsBackWholeFilesByteForByte) {
  ASSERT_TRUE(files().CreateDirectories(At("a/b")).ok());
  const std::string bytes("x\0y\r\n\xEF\xBB\xBF", 7);
  ASSERT_TRUE(files().WriteFile(At("a/b/f.bin"), bytes).ok());
  EXPECT_EQ(Read("a/b/f.bin"), bytes);
  EXPECT_EQ(Read("a/./b//f.bin"), bytes);
  ASSERT_TRUE(files().WriteFile(At("a/b/f.bin"), "short").ok());  // truncates
  EXPECT_EQ(Read("a/b/f.bin"), "short");
  EXPECT_TRUE(files().IsFile(At("a/b/f.bin")));
  EXPECT_FALSE(files().IsDirectory(At("a/b/f.bin")));
  EXPECT_TRUE(files().IsDirectory(At("a/b")));
  EXPECT_FALSE(files().IsFile(At("a/b")));
  EXPECT_TRUE(files().Exists(At("a/b")));
  EXPECT_TRUE(files().Exists(At("a/b/f.bin")));
}

TEST_P(FileSystemTest, StreamsAFileForReading) {
  ASSERT_TRUE(files().WriteFile(At("lines.txt"), "one\ntwo\n").ok());
  std::unique_ptr<std::istream> in;
  ASSERT_TRUE(files().OpenForReading(At("lines.txt"), in).ok());
  std::string line;
  ASSERT_TRUE(std::getline(*in, line));
  EXPECT_EQ(line, "one");
  ASSERT_TRUE(std::getline(*in, line));
  EXPECT_EQ(line, "two");
  EXPECT_FALSE(std::getline(*in, line));
}

TEST_P(FileSystemTest, ReadingWhatIsNotAFileSaysWhy) {
  EXPECT_EQ(Read("none.json"), At("none.json") + ": cannot read: No such file or directory");
  ASSERT_TRUE(files().CreateDirectories(At("dir")).ok());
  EXPECT_EQ(Read("dir"), At("dir") + ": cannot read: it is a directory");
  std::unique_ptr<std::istream> in;
  EXPECT_EQ(files().OpenForReading(At("dir"), in),
            Status::IoError(At("dir") + ": cannot read: it is a directory"));
  EXPECT_FALSE(files().IsFile(At("none.json")));
  EXPECT_FALSE(files().Exists(At("none.json")));
  EXPECT_FALSE(files().IsDirectory(At("none.json")));
}

TEST_P(FileSystemTest, WritingNeedsItsDirectory) {
  EXPECT_EQ(files().WriteFile(At("no/such/f.csv"), "x"),
            Status::IoError(At("no/such/f.csv") + ": cannot create: No such file or directory"));
  ASSERT_TRUE(files().CreateDirectories(At("d")).ok());
  EXPECT_EQ(files().WriteFile(At("d"), "x"),
            Status::IoError(At("d") + ": cannot create: Is a directory"));
  EXPECT_TRUE(files().CreateDirectories(At("d")).ok());  // already there
}

TEST_P(FileSystemTest, ANewFileIsCreatedOnlyWhereNothingIsYet) {
  ASSERT_TRUE(files().CreateNewFile(At("t"), "first").ok());
  EXPECT_EQ(Read("t"), "first");
  const Status exists = Status::AlreadyExists(At("t") + ": cannot create: File exists");
  EXPECT_EQ(files().CreateNewFile(At("t"), "second"), exists);
  EXPECT_EQ(Read("t"), "first");
  ASSERT_TRUE(files().CreateDirectories(At("d")).ok());
  EXPECT_EQ(files().CreateNewFile(At("d"), "x"),
            Status::AlreadyExists(At("d") + ": cannot create: File exists"));
  EXPECT_EQ(files().CreateNewFile(At("no/t"), "x"),
            Status::IoError(At("no/t") + ": cannot create: No such file or directory"));
}

// `made` is called once the file is there and before its contents are written, and only when a
// file was made.
TEST_P(FileSystemTest, ANewFileIsReportedMadeBeforeItIsWritten) {
  std::vector<std::string> seen;  // what the file held at each call
  const auto made = [&] {
    std::string contents = "(none)";
    EXPECT_TRUE(files().ReadFile(At("t"), contents).ok());
    seen.push_back(contents);
  };
  ASSERT_TRUE(files().CreateNewFile(At("t"), "first", made).ok());
  EXPECT_EQ(seen, std::vector<std::string>{""});
  EXPECT_EQ(Read("t"), "first");
  EXPECT_EQ(files().CreateNewFile(At("t"), "second", made).code(), StatusCode::kAlreadyExists);
  EXPECT_FALSE(files().CreateNewFile(At("no/t"), "x", made).ok());
  EXPECT_EQ(seen.size(), 1U) << "called although no file was made";
}

// A link at the new file's path is not followed, even when it points nowhere: a link planted
// where a temporary will be created cannot send the write elsewhere.
TEST(CreateNewDiskFileTest, ALinkAtThePathIsNeitherFollowedNorReplaced) {
  const std::string root = testing::FreshTempDir();
  std::filesystem::create_symlink(root + "/victim", root + "/dangling");
  std::filesystem::create_symlink(root + "/existing", root + "/live");
  std::ofstream(root + "/existing") << "kept";
  for (const char* name : {"/dangling", "/live"}) {
    EXPECT_EQ(DiskFileSystem().CreateNewFile(root + name, "payload"),
              Status::AlreadyExists(root + name + ": cannot create: File exists"));
  }
  EXPECT_FALSE(std::filesystem::exists(root + "/victim"));
  std::string kept;
  ASSERT_TRUE(DiskFileSystem().ReadFile(root + "/existing", kept).ok());
  EXPECT_EQ(kept, "kept");
  std::filesystem::remove_all(root);
}

TEST_P(FileSystemTest, RenameReplacesATargetFileAndRefusesADirectory) {
  ASSERT_TRUE(files().WriteFile(At("new"), "new").ok());
  ASSERT_TRUE(files().WriteFile(At("old"), "old").ok());
  ASSERT_TRUE(files().Rename(At("new"), At("old")).ok());
  EXPECT_EQ(Read("old"), "new");
  EXPECT_FALSE(files().IsFile(At("new")));
  ASSERT_TRUE(files().CreateDirectories(At("busy/inside")).ok());
  ASSERT_TRUE(files().WriteFile(At("moving"), "m").ok());
  const Status onto_directory = files().Rename(At("moving"), At("busy"));
  EXPECT_EQ(onto_directory.code(), StatusCode::kIoError);
  EXPECT_EQ(onto_directory.message().rfind(At("busy") + ": cannot rename into place: ", 0), 0U)
      << onto_directory;
  EXPECT_EQ(Read("moving"), "m");  // left where it was
  EXPECT_EQ(files().Rename(At("gone"), At("old")).code(), StatusCode::kIoError);
}

TEST_P(FileSystemTest, RemoveTakesFilesAndEmptyDirectoriesAndIsDoneWhenNothingIsThere) {
  ASSERT_TRUE(files().WriteFile(At("f"), "x").ok());
  EXPECT_TRUE(files().Remove(At("f")).ok());
  EXPECT_FALSE(files().IsFile(At("f")));
  EXPECT_TRUE(files().Remove(At("f")).ok());
  ASSERT_TRUE(files().CreateDirectories(At("full/empty")).ok());
  ASSERT_TRUE(files().WriteFile(At("full/x"), "x").ok());
  EXPECT_TRUE(files().Remove(At("full/empty")).ok());
  EXPECT_FALSE(files().IsDirectory(At("full/empty")));
  EXPECT_EQ(files().Remove(At("full")),
            Status::IoError(At("full") + ": cannot remove: Directory not empty"));
}

TEST_P(FileSystemTest, AFileWhereADirectoryShouldBeStopsEverythingUnderIt) {
  ASSERT_TRUE(files().WriteFile(At("f"), "x").ok());
  const Status directories = files().CreateDirectories(At("f/sub"));
  EXPECT_EQ(directories.code(), StatusCode::kIoError);
  EXPECT_EQ(directories.message().rfind(At("f/sub") + ": cannot create directory: ", 0), 0U)
      << directories;
  EXPECT_FALSE(files().IsDirectory(At("f/sub")));
  EXPECT_EQ(files().WriteFile(At("f/sub/x"), "x"),
            Status::IoError(At("f/sub/x") + ": cannot create: Not a directory"));
  EXPECT_EQ(Read("f"), "x");
}

// SameDiskFile: the check that two outputs of one command differ (issue 19: "x.s" and "./x.s"
// were taken for two files, and both outputs went through one temporary).
TEST(SameDiskFileTest, OneFileByAnySpellingOrLinkIsTheSame) {
  const std::string dir = testing::FreshTempDir();
  const std::string file = dir + "/x.s";
  EXPECT_TRUE(SameDiskFile(file, dir + "/./x.s"));  // neither exists yet
  EXPECT_TRUE(SameDiskFile(file, dir + "/sub/../x.s"));
  EXPECT_TRUE(SameDiskFile(file, dir + "//x.s"));
  EXPECT_FALSE(SameDiskFile(file, dir + "/y.s"));
  const std::filesystem::path cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  EXPECT_TRUE(SameDiskFile("x.s", "./x.s"));
  EXPECT_TRUE(SameDiskFile("x.s", file));
  std::filesystem::current_path(cwd);
  std::ofstream(file) << "x";
  std::filesystem::create_symlink(file, dir + "/link");
  std::filesystem::create_hard_link(file, dir + "/hard");
  EXPECT_TRUE(SameDiskFile(file, dir + "/link"));
  EXPECT_TRUE(SameDiskFile(file, dir + "/hard"));
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(BothFileSystems, FileSystemTest,
                         ::testing::Values(Kind::kDisk, Kind::kMemory),
                         [](const ::testing::TestParamInfo<Kind>& param) {
                           return param.param == Kind::kDisk ? "Disk" : "Memory";
                         });

}  // namespace
}  // namespace fleetsim
