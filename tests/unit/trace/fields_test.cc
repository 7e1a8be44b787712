// Typed field reads shared by the trace readers: accepted forms, the reason category of every
// rejection and its exact message, the first problem of a row winning, row errors at file:line,
// and CheckJob's mapping of job-rule problems to reasons.
#include "trace/fields.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

namespace fleetsim {
namespace {

// The reason and message a read left behind.
struct Outcome {
  std::string reason;
  std::string message;
  bool operator==(const Outcome&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Outcome& o) {
  return out << "{" << o.reason << ": " << o.message << "}";
}

Outcome IntProblem(std::string_view text, std::int64_t min, std::int64_t max) {
  FieldError error;
  EXPECT_EQ(IntField(text, "gpus", min, max, error), std::nullopt) << text;
  return {error.reason, error.message};
}

Outcome RealProblem(std::string_view text, double min, double max) {
  FieldError error;
  EXPECT_EQ(RealField(text, "mem", min, max, error), std::nullopt) << text;
  return {error.reason, error.message};
}

Outcome SecondsProblem(std::string_view text) {
  FieldError error;
  EXPECT_EQ(SecondsField(text, "submit_s", error), std::nullopt) << text;
  return {error.reason, error.message};
}

TEST(IntFieldTest, ReadsWholeIntegersWithSpacesOrAPlusSign) {
  FieldError error;
  EXPECT_EQ(IntField("8", "gpus", 0, 10, error), 8);
  EXPECT_EQ(IntField(" 7\t", "gpus", 0, 10, error), 7);
  EXPECT_EQ(IntField("+3", "gpus", 0, 10, error), 3);
  EXPECT_EQ(IntField("-3", "delta", -5, 5, error), -3);
  EXPECT_TRUE(error.ok());
}

TEST(IntFieldTest, TextIsNotNumeric) {
  EXPECT_EQ(IntProblem("abc", 0, 10),
            (Outcome{kReasonNotNumeric, "column 'gpus': expected an integer, found 'abc'"}));
  EXPECT_EQ(IntProblem("", 0, 10),
            (Outcome{kReasonNotNumeric, "column 'gpus': expected an integer, found ''"}));
  EXPECT_EQ(IntProblem("8 GPUs", 0, 10),
            (Outcome{kReasonNotNumeric, "column 'gpus': expected an integer, found '8 GPUs'"}));
}

TEST(IntFieldTest, ANumberThatIsNotAnIntegerIsAnInvalidValue) {
  EXPECT_EQ(IntProblem("2.5", 0, 10),
            (Outcome{kReasonBadValue, "column 'gpus': expected an integer, found '2.5'"}));
  EXPECT_EQ(IntProblem("99999999999999999999", 0, 10),
            (Outcome{kReasonBadValue,
                     "column 'gpus': expected an integer, found '99999999999999999999'"}));
}

TEST(IntFieldTest, OutOfRangeValuesNameTheRange) {
  EXPECT_EQ(
      IntProblem("11", 0, 10),
      (Outcome{kReasonOutOfRange, "column 'gpus': expected an integer in [0, 10], found 11"}));
  EXPECT_EQ(IntProblem("0", 1, 10),
            (Outcome{kReasonOutOfRange, "column 'gpus': expected an integer in [1, 10], found 0"}));
}

TEST(IntFieldTest, ANegativeValueWhereNoneIsAllowedCountsAsANegativeTimeOrDuration) {
  EXPECT_EQ(IntProblem("-1", 0, 10), (Outcome{kReasonNegativeTime,
                                              "column 'gpus': expected an integer in [0, 10], "
                                              "found -1"}));
}

TEST(RealFieldTest, ReadsDecimalsAndExponents) {
  FieldError error;
  EXPECT_EQ(RealField("19.5", "mem", 0, 100, error), 19.5);
  EXPECT_EQ(RealField(" 1e1 ", "mem", 0, 100, error), 10.0);
  EXPECT_TRUE(error.ok());
}

TEST(RealFieldTest, RejectsTextInfinityAndOutOfRangeValues) {
  EXPECT_EQ(RealProblem("x", 0, 1),
            (Outcome{kReasonNotNumeric, "column 'mem': expected a number, found 'x'"}));
  EXPECT_EQ(RealProblem("inf", 0, 1),
            (Outcome{kReasonNotNumeric, "column 'mem': expected a number, found 'inf'"}));
  EXPECT_EQ(RealProblem(" 5 ", 0, 1),
            (Outcome{kReasonOutOfRange, "column 'mem': expected a number in [0, 1], found 5"}));
}

TEST(SecondsFieldTest, RoundsToTheNearestMillisecond) {
  FieldError error;
  EXPECT_EQ(SecondsField("12", "submit_s", error), 12'000);
  EXPECT_EQ(SecondsField("1.2346", "submit_s", error), 1'235);
  EXPECT_EQ(SecondsField("0.0004", "submit_s", error), 0);
  EXPECT_EQ(SecondsField("3155760000", "submit_s", error), 3'155'760'000'000);
  EXPECT_TRUE(error.ok());
}

TEST(SecondsFieldTest, NegativeTextAndTooLargeValuesHaveTheirOwnReasons) {
  EXPECT_EQ(SecondsProblem(" -5 "),
            (Outcome{kReasonNegativeTime, "column 'submit_s': expected seconds >= 0, found -5"}));
  EXPECT_EQ(SecondsProblem("soon"),
            (Outcome{kReasonNotNumeric,
                     "column 'submit_s': expected a number of seconds, found 'soon'"}));
  EXPECT_EQ(SecondsProblem("4e9"),
            (Outcome{kReasonOutOfRange,
                     "column 'submit_s': expected seconds <= 3155760000 (100 years), found 4e9"}));
}

TEST(BoolFieldTest, AcceptsTrueFalseOneAndZero) {
  FieldError error;
  EXPECT_EQ(BoolField("true", "preemptible", error), true);
  EXPECT_EQ(BoolField(" 1 ", "preemptible", error), true);
  EXPECT_EQ(BoolField("false", "preemptible", error), false);
  EXPECT_EQ(BoolField("0", "preemptible", error), false);
  EXPECT_TRUE(error.ok());
}

TEST(BoolFieldTest, AnythingElseIsAnInvalidValue) {
  for (const char* text : {"yes", "True", ""}) {
    FieldError error;
    EXPECT_EQ(BoolField(text, "preemptible", error), std::nullopt);
    EXPECT_EQ((Outcome{error.reason, error.message}),
              (Outcome{kReasonBadValue, fmt::format("column 'preemptible': expected true or "
                                                    "false, found '{}'",
                                                    text)}));
  }
}

TEST(FieldErrorTest, TheFirstProblemOfARowWins) {
  FieldError error;
  EXPECT_TRUE(error.ok());
  EXPECT_EQ(IntField("x", "gpus", 0, 10, error), std::nullopt);
  EXPECT_EQ(SecondsField("-1", "submit_s", error), std::nullopt);
  EXPECT_FALSE(error.ok());
  EXPECT_EQ(error.reason, kReasonNotNumeric);
  EXPECT_EQ(error.message, "column 'gpus': expected an integer, found 'x'");
}

TEST(MakeRowErrorTest, PlacesTheProblemAtFileAndLine) {
  FieldError error;
  IntField("x", "gpus", 0, 10, error);
  const RowError row = MakeRowError("trace.csv", 7, error);
  EXPECT_EQ(row.reason, kReasonNotNumeric);
  EXPECT_EQ(row.Format(), "trace.csv:7: column 'gpus': expected an integer, found 'x'");
}

Job ValidJob() {
  Job job;
  job.request.id = "j1";
  job.request.gpus = 4;
  job.truth.duration = 60'000;
  return job;
}

Outcome JobProblem(const Job& job) {
  FieldError error;
  EXPECT_FALSE(CheckJob(job, error));
  return {error.reason, error.message};
}

TEST(CheckJobTest, AValidJobPasses) {
  FieldError error;
  EXPECT_TRUE(CheckJob(ValidJob(), error));
  EXPECT_TRUE(error.ok());
}

TEST(CheckJobTest, ReportsTheFirstRuleProblemWithItsReason) {
  Job zero = ValidJob();
  zero.request.gpus = 0;
  EXPECT_EQ(JobProblem(zero), (Outcome{kReasonZeroGpus,
                                       "field 'gpus': expected at least 1 GPU (a CPU-only job, "
                                       "gpus 0, must ask for cpu_milli), found 0"}));

  Job bad_id = ValidJob();
  bad_id.request.id = "a b";
  EXPECT_EQ(JobProblem(bad_id), (Outcome{kReasonBadValue,
                                         "field 'id': expected an id of letters, digits, '.', '_' "
                                         "or '-', found 'a b'"}));

  Job shrinking = ValidJob();
  shrinking.request.max_gpus = 2;
  EXPECT_EQ(JobProblem(shrinking), (Outcome{kReasonOutOfRange,
                                            "field 'max_gpus': expected 0 (fixed size) or an "
                                            "integer in [gpus = 4, 1000000], found 2"}));
}

}  // namespace
}  // namespace fleetsim
