// The progress line of `fleetsim bench`, through cli::Main with in-memory streams: shown, rewritten
// in place and cleared at the end when stderr is a terminal; absent when it is not.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

struct Streams {
  int status = -1;
  std::string out;
  std::string err;
};

Streams Bench(bool err_is_terminal) {
  const std::string scenario = testing::SourcePath("scenarios/benchmark/01-training-heavy.json");
  const std::vector<const char*> argv = {"fleetsim", "bench", scenario.c_str(), "--policy",
                                         "fifo,backfill"};
  std::ostringstream out;
  std::ostringstream err;
  const int status =
      cli::Main(static_cast<int>(argv.size()), argv.data(), out, err, err_is_terminal);
  return {status, out.str(), err.str()};
}

TEST(BenchProgressTest, OnATerminalEachRunIsAnnouncedInPlaceAndTheLineClearedAtTheEnd) {
  const Streams r = Bench(true);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "\r\033[K[1/2] 01-training-heavy x fifo"
            "\r\033[K[2/2] 01-training-heavy x backfill"
            "\r\033[K");
  EXPECT_EQ(r.out.find('\r'), std::string::npos) << "nothing of it reaches stdout";
}

TEST(BenchProgressTest, SilentWhenStderrIsNotATerminal) {
  const Streams r = Bench(false);
  ASSERT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, Bench(true).out);
}

}  // namespace
}  // namespace fleetsim
