// Scenario validation, word for word: every problem reported at once with its JSON pointer,
// bad numbers (zero, negative, NaN, huge, overflowing), unknown keys and --strict, unknown
// policies and parameters, unreadable files and invalid JSON.
#include "fleetsim/scenario/scenario.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "testutil/paths.h"

namespace fleetsim {
namespace {

LoadResult Parse(const std::string& text, bool strict = false) {
  return ParseScenario(text, "s.json", BuiltinPolicies(), {.strict = strict});
}

std::string Messages(const LoadResult& result) {
  return result.file_status.ok() ? result.diagnostics.Format("s.json")
                                 : result.file_status.message();
}

std::string WithJobs(const std::string& jobs, const std::string& extra = "") {
  return R"({"format_version": 1, "name": "t", "fleet": {"gpus": 8}, )" + extra + R"("jobs": [)" +
         jobs + "]}";
}

TEST(ScenarioTest, ValidMinimalScenarioLoadsWithDefaults) {
  const LoadResult r =
      Parse(WithJobs(R"({"id": "a", "submit_s": 1.5, "gpus": 2, "duration_s": 10})"));
  ASSERT_TRUE(r.scenario) << Messages(r);
  EXPECT_TRUE(r.diagnostics.empty());
  const Scenario& s = *r.scenario;
  EXPECT_EQ(s.seed, kDefaultSeed);
  EXPECT_EQ(s.policy.name, "fifo");
  EXPECT_EQ(s.until, kTimeNever);
  ASSERT_EQ(s.listed_jobs->size(), 1U);
  EXPECT_EQ((*s.listed_jobs)[0].request.submit, 1500);
  EXPECT_EQ((*s.listed_jobs)[0].request.priority, 1);
  EXPECT_EQ((*s.listed_jobs)[0].truth.duration, 10'000);
}

TEST(ScenarioTest, ReportsEveryProblemAtOnceWithItsPath) {
  const LoadResult r = Parse(R"({
    "format_version": 1,
    "name": "bad name!",
    "fleet": {"gpus": 0},
    "jobs": [
      {"id": "a", "submit_s": -1, "gpus": 2, "duration_s": 10},
      {"id": "b", "submit_s": 0, "gpus": -3, "duration_s": 0},
      {"id": "a", "submit_s": 0, "gpus": "4", "duration_s": 1e300, "priority": 2.5},
      {"submit_s": 0, "gpus": 1}
    ]
  })");
  EXPECT_FALSE(r.scenario);
  EXPECT_EQ(
      Messages(r),
      "s.json: /name: error: expected a name of 1 to 128 letters, digits, '.', '_' or '-', not "
      "starting with '.', found "
      "\"bad name!\"\n"
      "s.json: /fleet/gpus: error: expected an integer ≥ 1, found 0\n"
      "s.json: /jobs/0/submit_s: error: expected a number ≥ 0 and ≤ 3155760000, found -1\n"
      "s.json: /jobs/1/gpus: error: expected an integer ≥ 0, found -3\n"
      "s.json: /jobs/1/duration_s: error: expected a number > 0 and ≤ 3155760000, found "
      "0\n"
      "s.json: /jobs/2/priority: error: expected an integer in [1, 1000000], found 2.5\n"
      "s.json: /jobs/2/gpus: error: expected an integer in [0, 1000000], found \"4\"\n"
      "s.json: /jobs/2/duration_s: error: expected a number > 0 and ≤ 3155760000, found "
      "1e+300\n"
      "s.json: /jobs/3: error: missing required key 'id'\n"
      "s.json: /jobs/2/id: error: duplicate job id 'a' (first used at /jobs/0/id)\n");
}

TEST(ScenarioTest, MissingSectionsAndWrongTypes) {
  const LoadResult r = Parse(R"({"format_version": 2, "fleet": [8], "jobs": {}})");
  EXPECT_EQ(Messages(r),
            "s.json: /format_version: error: unsupported format version 2; this fleetsim reads "
            "version 1\n"
            "s.json: /: error: missing required key 'name'\n"
            "s.json: /fleet: error: expected an object, found [8]\n"
            "s.json: /jobs: error: expected an array, found {}\n");
}

TEST(ScenarioTest, HugeAndOverflowingIntegers) {
  const LoadResult r = Parse(
      WithJobs(R"({"id": "a", "submit_s": 0, "gpus": 100000000000000000000, "duration_s": 1},)"
               R"({"id": "b", "submit_s": 0, "gpus": 18446744073709551615, "duration_s": 1},)"
               R"({"id": "c", "submit_s": 0, "gpus": 5000000, "duration_s": 1})"));
  EXPECT_EQ(Messages(r),
            "s.json: /jobs/0/gpus: error: expected an integer in [0, 1000000], found 1e+20\n"
            "s.json: /jobs/1/gpus: error: expected an integer ≤ 1000000, found "
            "18446744073709551615\n"
            "s.json: /jobs/2/gpus: error: expected an integer ≤ 1000000, found 5000000\n");
}

TEST(ScenarioTest, SubMillisecondDurationIsRejected) {
  const LoadResult r =
      Parse(WithJobs(R"({"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 0.0001})"));
  EXPECT_EQ(Messages(r),
            "s.json: /jobs/0/duration_s: error: expected a duration of at least 1 ms after "
            "rounding to the millisecond, found 0.0001\n");
}

TEST(ScenarioTest, NumberOverflowIsInvalidJsonWithPosition) {
  const LoadResult r = Parse("{\n  \"seed\": 1,\n  \"fleet\": {\"gpus\": 1e400}\n}");
  EXPECT_EQ(r.file_status.message(),
            "s.json:3:21: invalid JSON: number 1e400 is out of range of a double");
}

TEST(ScenarioTest, NanIsInvalidJsonWithPosition) {
  const LoadResult r = Parse("{\n  \"fleet\": {\"gpus\": NaN}\n}");
  EXPECT_EQ(r.file_status.message(),
            "s.json:2:21: invalid JSON: syntax error while parsing value - invalid literal; last "
            "read: '\"gpus\": N'");
}

TEST(ScenarioTest, TruncatedJsonGivesLineAndColumn) {
  const LoadResult r = Parse("{\n  \"name\": \"x\",\n");
  EXPECT_EQ(r.file_status.message(),
            "s.json:3:1: invalid JSON: syntax error while parsing object key - unexpected end of "
            "input; expected string literal");
}

// Issue 19: names and documents that once crashed the reader (std::regex on a long name, the
// parse-error rewriter on a long token, deep nesting) get located errors.
TEST(ScenarioTest, HostileNamesAndDocumentsGetErrorsNotCrashes) {
  const LoadResult long_name = Parse(R"({"format_version": 1, "name": ")" +
                                     std::string(100'000, 'n') + R"(" , "fleet": {"gpus": 1}})");
  EXPECT_FALSE(long_name.scenario);
  EXPECT_NE(long_name.diagnostics.Format("s.json").find("s.json: /name: error:"),
            std::string::npos);
  const LoadResult bad_name = Parse(R"({"format_version": 1, "name": ")" +
                                    std::string(100'000, 'n') + R"( x", "fleet": {"gpus": 1}})");
  EXPECT_FALSE(bad_name.scenario);
  const LoadResult long_token = Parse(R"({"name": ")" + std::string(100'000, 't'));
  EXPECT_EQ(long_token.file_status.message().rfind("s.json:1:", 0), 0U);
  EXPECT_LT(long_token.file_status.message().size(), 400U);
  const LoadResult deep =
      Parse(R"({"fleet": )" + std::string(100'000, '[') + std::string(100'000, ']') + "}");
  EXPECT_EQ(deep.file_status.message(),
            "s.json:1:522: invalid JSON: arrays and objects nested deeper than 512 levels");
}

// An unknown key of any length is shown cut to 64 bytes, in its path and in the message.
TEST(ScenarioTest, ALongUnknownKeyGivesABoundedWarning) {
  const LoadResult r = Parse(R"({"format_version": 1, "name": "x", ")" + std::string(100'000, 'k') +
                             R"(": 1, "fleet": {"gpus": 1}, )"
                             R"("jobs": [{"id": "a", "gpus": 1, "duration_s": 1}]})");
  const std::string shown = std::string(61, 'k') + "...";
  EXPECT_EQ(r.diagnostics.Format("s.json"),
            "s.json: /" + shown + ": warning: unknown key '" + shown + "'\n");
}

// A scenario's name becomes an output folder: '..' would write outside --out, and a leading '.'
// could collide with the folder's manifest (issue 19).
TEST(ScenarioTest, NamesThatWouldLeaveOrHideInTheOutputFolderAreRejected) {
  for (const std::string name : {".", "..", ".fleetsim-manifest.json", ".hidden"}) {
    const LoadResult r =
        Parse(R"({"format_version": 1, "name": ")" + name + R"(", "fleet": {"gpus": 1}})");
    EXPECT_FALSE(r.scenario) << name;
    EXPECT_NE(Messages(r).find("s.json: /name: error: expected a name of 1 to 128 letters"),
              std::string::npos)
        << name;
  }
  const LoadResult inner_dot =
      Parse(R"({"format_version": 1, "name": "v1.2", "fleet": {"gpus": 1}, "jobs": [{"id": "a", )"
            R"("submit_s": 0, "gpus": 1, "duration_s": 1}]})");
  EXPECT_TRUE(inner_dot.scenario) << Messages(inner_dot);
}

TEST(ScenarioTest, UnknownKeysWarnAndFailUnderStrict) {
  const std::string text =
      WithJobs(R"({"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 1, "prioirty": 3})",
               R"("seeed": 4, )");
  const LoadResult lenient = Parse(text);
  EXPECT_TRUE(lenient.scenario);
  const std::string expected =
      "s.json: /seeed: {}: unknown key 'seeed', did you mean 'seed'?\n"
      "s.json: /jobs/0/prioirty: {}: unknown key 'prioirty', did you mean 'priority'?\n";
  EXPECT_EQ(Messages(lenient), fmt::format(fmt::runtime(expected), "warning", "warning"));
  const LoadResult strict = Parse(text, true);
  EXPECT_FALSE(strict.scenario);
  EXPECT_EQ(Messages(strict), fmt::format(fmt::runtime(expected), "error", "error"));
}

TEST(ScenarioTest, UnknownPolicyAndParameter) {
  const LoadResult r1 = Parse(WithJobs(R"({"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 1})",
                                       R"("policy": {"name": "fifi"}, )"));
  EXPECT_EQ(Messages(r1),
            "s.json: /policy/name: error: unknown policy 'fifi', did you mean 'fifo'? (valid "
            "policies: 'fifo', 'first-fit', 'backfill', 'fair-share', 'constraint-aware')\n");
  const LoadResult r2 = Parse(
      WithJobs(R"({"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 1})",
               R"("policy": {"name": "first-fit", "params": {"lookahed": 4, "lookahead": -1}}, )"));
  EXPECT_EQ(Messages(r2),
            "s.json: /policy/params/lookahed: error: policy 'first-fit' has no parameter "
            "'lookahed', did you mean 'lookahead'? (it has 'lookahead', 'placement')\n"
            "s.json: /policy/params/lookahead: error: expected an integer ≥ 0, found -1\n");
  const LoadResult r3 =
      Parse(WithJobs(R"({"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 1})",
                     R"("policy": {"name": "first-fit", "params": {"lookahead": 4}}, )"));
  ASSERT_TRUE(r3.scenario) << Messages(r3);
  EXPECT_EQ(std::get<std::int64_t>(r3.scenario->policy.params.at("lookahead")), 4);
}

TEST(ScenarioTest, GeneratorValidationAndIdCollision) {
  const LoadResult r = Parse(R"({"format_version": 1, "name": "g", "fleet": {"gpus": 8},
    "jobs": [{"id": "g000002", "submit_s": 0, "gpus": 1, "duration_s": 1}],
    "generator": {"jobs": 3, "mean_interarrival_s": 10, "duration_s": {"median": 60, "sigma": 1},
                  "gpus": {"values": [1, 2], "weights": [0, 0]}}})");
  EXPECT_EQ(Messages(r),
            "s.json: /generator/gpus/weights: error: expected at least one weight > 0, found all "
            "0\n");
  const LoadResult r2 = Parse(R"({"format_version": 1, "name": "g", "fleet": {"gpus": 8},
    "jobs": [{"id": "g000002", "submit_s": 0, "gpus": 1, "duration_s": 1}],
    "generator": {"jobs": 3, "mean_interarrival_s": 10, "duration_s": {"median": 60, "sigma": 1},
                  "gpus": {"values": [1, 2], "weights": [1]}}})");
  EXPECT_EQ(Messages(r2),
            "s.json: /generator/gpus: error: expected 'values' and 'weights' of the same non-zero "
            "length, found 2 and 1\n");
  const LoadResult r3 = Parse(R"({"format_version": 1, "name": "g", "fleet": {"gpus": 8},
    "jobs": [{"id": "g000002", "submit_s": 0, "gpus": 1, "duration_s": 1}],
    "generator": {"jobs": 3, "mean_interarrival_s": 10, "duration_s": {"median": 60, "sigma": 1},
                  "gpus": {"values": [1, 2], "weights": [1, 1]}}})");
  EXPECT_EQ(Messages(r3),
            "s.json: /generator/id_prefix: error: generated id 'g000002' collides with "
            "/jobs/0/id; choose another id_prefix\n");
}

TEST(ScenarioTest, NeedsJobsOrGenerator) {
  const LoadResult r = Parse(R"({"format_version": 1, "name": "e", "fleet": {"gpus": 8}})");
  EXPECT_EQ(Messages(r),
            "s.json: /: error: a scenario needs at least one of 'jobs', 'trace', 'generator' and "
            "'generators'\n");
}

TEST(ScenarioFileTest, MissingFileAndDirectory) {
  const LoadResult missing =
      LoadScenarioFile("/nonexistent/s.json", BuiltinPolicies(), LoadOptions{});
  EXPECT_EQ(missing.file_status.message(),
            "/nonexistent/s.json: cannot read: No such file or directory");
  const LoadResult dir = LoadScenarioFile("/tmp", BuiltinPolicies(), LoadOptions{});
  EXPECT_EQ(dir.file_status.message(), "/tmp: cannot read: it is a directory");
}

TEST(ScenarioFileTest, EmptyFileIsInvalidJson) {
  const LoadResult r = Parse("");
  EXPECT_EQ(r.file_status.message(),
            "s.json:1:1: invalid JSON: syntax error while parsing value - unexpected end of "
            "input; expected '[', '{', or a literal");
}

TEST(BuildWorkloadTest, ListedAndGeneratedJobsSortedBySubmit) {
  const LoadResult r = Parse(R"({"format_version": 1, "name": "g", "fleet": {"gpus": 8},
    "jobs": [{"id": "late", "submit_s": 100000, "gpus": 1, "duration_s": 1}],
    "generator": {"jobs": 5, "mean_interarrival_s": 10, "duration_s": {"median": 60, "sigma": 1},
                  "gpus": {"values": [1, 2], "weights": [1, 1]}}})");
  ASSERT_TRUE(r.scenario) << Messages(r);
  const Workload w = BuildWorkload(*r.scenario, 1);
  ASSERT_EQ(w.jobs.size(), 6U);
  EXPECT_EQ(w.jobs.back().request.id, "late");
  EXPECT_EQ(WorkloadFingerprint(w), WorkloadFingerprint(BuildWorkload(*r.scenario, 1)));
  EXPECT_NE(WorkloadFingerprint(w), WorkloadFingerprint(BuildWorkload(*r.scenario, 2)));
}

}  // namespace
}  // namespace fleetsim
