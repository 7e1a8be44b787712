// Status: OK carries nothing; a failure keeps its code and its message, prefixed by Within.
#include "fleetsim/core/status.h"

#include <gtest/gtest.h>

#include <sstream>

namespace fleetsim {
namespace {

TEST(StatusTest, OkCarriesNothing) {
  const Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), StatusCode::kOk);
  EXPECT_EQ(ok.message(), "");
  EXPECT_EQ(ok.ToString(), "OK");
  EXPECT_EQ(ok, Status::Ok());
}

TEST(StatusTest, EachFailureKeepsItsCodeAndMessage) {
  EXPECT_EQ(Status::InvalidInput("x.json:3: bad").code(), StatusCode::kInvalidInput);
  EXPECT_EQ(Status::IoError("x: cannot read").code(), StatusCode::kIoError);
  EXPECT_EQ(Status::Refused("GPU 7 is busy").code(), StatusCode::kRefused);
  EXPECT_EQ(Status::IllegalDecision("policy 'p' ...").code(), StatusCode::kIllegalDecision);
  EXPECT_EQ(Status::AlreadyExists("x: cannot create: File exists").code(),
            StatusCode::kAlreadyExists);
  const Status busy = Status::Refused("GPU 7 is busy");
  EXPECT_FALSE(busy.ok());
  EXPECT_EQ(busy.message(), "GPU 7 is busy");
  EXPECT_EQ(busy.ToString(), "refused: GPU 7 is busy");
  EXPECT_NE(busy, Status::IoError("GPU 7 is busy"));
  EXPECT_NE(busy, Status::Refused("GPU 8 is busy"));
}

TEST(StatusTest, WithinPrefixesAFailureAndLeavesOkAlone) {
  EXPECT_EQ(Status::InvalidInput("expected 1, found 2").Within("f.csv:4"),
            Status::InvalidInput("f.csv:4: expected 1, found 2"));
  EXPECT_TRUE(Status::Ok().Within("f.csv:4").ok());
}

TEST(StatusTest, PrintsItsCodeAndMessage) {
  std::ostringstream out;
  out << Status::IoError("r.csv: cannot read: No such file or directory") << " | " << Status();
  EXPECT_EQ(out.str(), "I/O error: r.csv: cannot read: No such file or directory | OK");
}

TEST(StatusDeathTest, AFailureWithoutAMessageIsABug) {
  EXPECT_DEATH((void)Status::InvalidInput(""), "a failed Status needs a message");
}

}  // namespace
}  // namespace fleetsim
