// LineReader: lines come out the same whatever wrote the file — a UTF-8 byte-order mark at the
// start is dropped, CRLF and LF endings both end a line, a last line without a newline still
// counts, blank lines are kept (readers decide what to do with them) — each with its 1-based
// line number; a file that cannot be opened says so and why.
#include "text/line_reader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "testutil/command.h"

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

std::string FileWith(const std::string& bytes) {
  const std::string path = testing::FreshTempDir() + "/input.txt";
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::vector<Line> LinesOf(const std::string& bytes) {
  LineReader reader(FileWith(bytes));
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
  LineReader reader(FileWith("a\nb\n"));
  EXPECT_EQ(reader.line_number(), 0);
  std::string text;
  while (reader.Next(text)) {
  }
  EXPECT_EQ(reader.line_number(), 2);
  EXPECT_FALSE(reader.Next(text));
  EXPECT_EQ(reader.line_number(), 2);
}

TEST(LineReaderTest, AMissingFileIsAnErrorNamingItAndWhy) {
  const std::string path = testing::FreshTempDir() + "/missing.csv";
  LineReader reader(path);
  EXPECT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().message(), path + ": cannot read: No such file or directory");
  std::string text;
  EXPECT_FALSE(reader.Next(text));
}

TEST(LineReaderTest, ADirectoryIsAnError) {
  const std::string path = testing::FreshTempDir();
  LineReader reader(path);
  EXPECT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().message(), path + ": cannot read: it is a directory");
}

}  // namespace
}  // namespace fleetsim
