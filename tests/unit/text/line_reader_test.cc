// LineReader: lines come out the same whatever wrote the file — a UTF-8 byte-order mark at the
// start is dropped, CRLF and LF endings both end a line, a last line without a newline still
// counts, blank lines are kept (readers decide what to do with them) — each with its 1-based
// line number; a file that cannot be opened says so and why. The files are in memory
// (MemoryFileSystem); the disk's own messages are checked by the FileSystem conformance suite.
#include "text/line_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"

namespace fleetsim {
namespace {

struct Line {
  std::int64_t number;
  std::string text;
  bool operator==(const Line&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Line& line) {
  return out << line.number << ":'" << line.text << "'";
}

// A memory file system holding `bytes` as input.txt.
MemoryFileSystem FileWith(const std::string& bytes) {
  MemoryFileSystem files;
  EXPECT_TRUE(files.WriteFile("input.txt", bytes).ok());
  return files;
}

std::vector<Line> LinesOf(const std::string& bytes) {
  const MemoryFileSystem files = FileWith(bytes);
  LineReader reader(files, "input.txt");
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  std::vector<Line> lines;
  std::string text;
  while (reader.Next(text)) {
    lines.push_back({reader.line_number(), text});
  }
  return lines;
}

TEST(LineReaderTest, SplitsLinesAndNumbersThemFromOne) {
  EXPECT_EQ(LinesOf("a,b\nc,d\n"), (std::vector<Line>{{1, "a,b"}, {2, "c,d"}}));
}

TEST(LineReaderTest, CrlfEndingsGiveTheSameLines) {
  EXPECT_EQ(LinesOf("a,b\r\nc,d\r\n"), (std::vector<Line>{{1, "a,b"}, {2, "c,d"}}));
}

TEST(LineReaderTest, OnlyTheLineEndingCarriageReturnIsDropped) {
  EXPECT_EQ(LinesOf("a\rb\r\n"), (std::vector<Line>{{1, "a\rb"}}));
}

TEST(LineReaderTest, DropsAByteOrderMarkAtTheStartOnly) {
  EXPECT_EQ(LinesOf("\xEF\xBB\xBFid\n\xEF\xBB\xBFx\n"),
            (std::vector<Line>{{1, "id"}, {2, "\xEF\xBB\xBFx"}}));
}

TEST(LineReaderTest, ALastLineWithoutNewlineIsStillALine) {
  EXPECT_EQ(LinesOf("a\nb"), (std::vector<Line>{{1, "a"}, {2, "b"}}));
  EXPECT_EQ(LinesOf("a\r\nb"), (std::vector<Line>{{1, "a"}, {2, "b"}}));
}

TEST(LineReaderTest, KeepsBlankLinesAndCountsThem) {
  EXPECT_EQ(LinesOf("a\n\n  \r\nb\n"), (std::vector<Line>{{1, "a"}, {2, ""}, {3, "  "}, {4, "b"}}));
}

TEST(LineReaderTest, AnEmptyFileHasNoLines) {
  EXPECT_TRUE(LinesOf("").empty());
  EXPECT_EQ(LinesOf("\xEF\xBB\xBF"), (std::vector<Line>{{1, ""}}));
}

TEST(LineReaderTest, LineNumberIsZeroBeforeTheFirstLineAndStaysAtTheEnd) {
  const MemoryFileSystem files = FileWith("a\nb\n");
  LineReader reader(files, "input.txt");
  EXPECT_EQ(reader.line_number(), 0);
  std::string text;
  while (reader.Next(text)) {
  }
  EXPECT_EQ(reader.line_number(), 2);
  EXPECT_FALSE(reader.Next(text));
  EXPECT_EQ(reader.line_number(), 2);
}

TEST(LineReaderTest, AMissingFileIsAnErrorNamingItAndWhy) {
  const MemoryFileSystem files;
  LineReader reader(files, "data/missing.csv");
  EXPECT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().message(), "data/missing.csv: cannot read: No such file or directory");
  std::string text;
  EXPECT_FALSE(reader.Next(text));
}

TEST(LineReaderTest, ADirectoryIsAnError) {
  MemoryFileSystem files;
  ASSERT_TRUE(files.CreateDirectories("data").ok());
  LineReader reader(files, "data");
  EXPECT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().message(), "data: cannot read: it is a directory");
}

}  // namespace
}  // namespace fleetsim
