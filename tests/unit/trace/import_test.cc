// The trace-reading driver: bad-row policies, duplicate ids, GPU-model names, unsorted and empty
// traces, on a scripted in-memory source so that only the driver is under test.
#include "fleetsim/trace/import.h"

#include <gtest/gtest.h>

#include <variant>

#include "fleetsim/fleet/catalog_loader.h"

namespace fleetsim {
namespace {

using Row = std::variant<Job, RowError>;

Job MakeJob(const std::string& id, double submit_s, std::vector<std::string> models = {}) {
  Job job;
  job.request.id = id;
  job.request.submit = SecondsToTime(submit_s);
  job.request.gpu_models = std::move(models);
  job.truth.duration = 1000;
  return job;
}

RowError Bad(std::int64_t line, const std::string& reason) {
  return RowError{"t.csv", line, reason, "column 'x': " + reason};
}

// Replays fixed rows; row i is on line i + 2 (after a header line).
class ScriptedSource final : public JobSource {
 public:
  explicit ScriptedSource(std::vector<Row> rows) : rows_(std::move(rows)) {}
  RowStatus Next(Job& job, RowError& error) override {
    if (next_ >= rows_.size()) {
      return RowStatus::kEnd;
    }
    line_ = static_cast<std::int64_t>(next_) + 2;
    const Row& row = rows_[next_++];
    if (const Job* j = std::get_if<Job>(&row)) {
      job = *j;
      return RowStatus::kJob;
    }
    error = std::get<RowError>(row);
    return RowStatus::kBadRow;
  }
  std::int64_t line() const override { return line_; }
  std::vector<std::string> Notes() const override { return {"scripted"}; }

 private:
  std::vector<Row> rows_;
  std::size_t next_ = 0;
  std::int64_t line_ = 0;
};

TraceFormat Scripted(std::vector<Row> rows, std::string open_error = "") {
  return TraceFormat{
      "scripted",
      "rows from a test",
      {},
      [rows, open_error](const FileSystem&, const std::string&, const TraceOptionValues&) {
        if (!open_error.empty()) {
          return OpenResult{nullptr, Status::InvalidInput(open_error)};
        }
        return OpenResult{std::make_unique<ScriptedSource>(rows), Status::Ok()};
      }};
}

class CollectingWriter final : public JobWriter {
 public:
  void Write(const Job& job) override { ids.push_back(job.request.id); }
  std::vector<std::string> ids;
};

TraceReport Convert(const TraceFormat& format, BadRowPolicy policy, CollectingWriter& out,
                    const Catalog* catalog = nullptr) {
  return ConvertTrace(format, "t.csv", {}, {.on_bad_row = policy, .catalog = catalog}, out);
}

TEST(ImportTest, DeliversEveryJobInOrderWithTheSourceNotes) {
  CollectingWriter out;
  const TraceReport report = Convert(Scripted({MakeJob("a", 0), MakeJob("b", 5), MakeJob("c", 5)}),
                                     BadRowPolicy::kFail, out);
  ASSERT_TRUE(report.ok()) << report.status.message();
  EXPECT_EQ(report.jobs, 3);
  EXPECT_EQ(out.ids, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(report.notes, std::vector<std::string>{"scripted"});
  EXPECT_EQ(report.SummaryLines().front(), "t.csv: read 3 jobs (scripted)");
}

TEST(ImportTest, FailStopsAtTheFirstBadRowAndDeliversNothing) {
  CollectingWriter out;
  const TraceReport report =
      Convert(Scripted({MakeJob("a", 0), Bad(3, "non-numeric field"), Bad(4, "zero GPUs")}),
              BadRowPolicy::kFail, out);
  EXPECT_EQ(report.status.message(), "t.csv:3: column 'x': non-numeric field");
  EXPECT_EQ(report.jobs, 0);
  EXPECT_TRUE(out.ids.empty());
}

TEST(ImportTest, SkipCountsBadRowsByReasonWithExamples) {
  CollectingWriter out;
  const TraceReport report =
      Convert(Scripted({Bad(2, "zero GPUs"), MakeJob("a", 0), Bad(4, "non-numeric field"),
                        Bad(5, "zero GPUs"), MakeJob("b", 1)}),
              BadRowPolicy::kSkip, out);
  ASSERT_TRUE(report.ok()) << report.status.message();
  EXPECT_EQ(out.ids, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(report.skipped_rows(), 3);
  ASSERT_EQ(report.skipped.size(), 2u);
  EXPECT_EQ(report.skipped[0].reason, "zero GPUs");
  EXPECT_EQ(report.skipped[0].rows, 2);
  EXPECT_EQ(report.skipped[0].examples,
            (std::vector<std::string>{"t.csv:2: column 'x': zero GPUs",
                                      "t.csv:5: column 'x': zero GPUs"}));
  EXPECT_EQ(report.skipped[1].reason, "non-numeric field");
  const std::vector<std::string> lines = report.SummaryLines();
  EXPECT_EQ(lines[1], "t.csv: skipped 3 bad rows:");
  EXPECT_EQ(lines[2], "  2 rows: zero GPUs");
}

TEST(ImportTest, SkipKeepsAtMostThreeExamplesPerReason) {
  std::vector<Row> rows = {MakeJob("a", 0)};
  for (int i = 0; i < 5; ++i) {
    rows.emplace_back(Bad(3 + i, "zero GPUs"));
  }
  CollectingWriter out;
  const TraceReport report = Convert(Scripted(rows), BadRowPolicy::kSkip, out);
  EXPECT_EQ(report.skipped.at(0).rows, 5);
  EXPECT_EQ(report.skipped.at(0).examples.size(), kSkipExamples);
}

TEST(ImportTest, DuplicateIdIsABadRowAtItsSecondLine) {
  CollectingWriter out;
  const auto rows = Scripted({MakeJob("a", 0), MakeJob("b", 1), MakeJob("a", 2)});
  const TraceReport failed = Convert(rows, BadRowPolicy::kFail, out);
  EXPECT_EQ(failed.status.message(), "t.csv:4: field 'id': duplicate id 'a' (first at line 2)");
  EXPECT_TRUE(out.ids.empty());

  const TraceReport skipped = Convert(rows, BadRowPolicy::kSkip, out);
  ASSERT_TRUE(skipped.ok()) << skipped.status.message();
  EXPECT_EQ(out.ids, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(skipped.jobs, 2);
  ASSERT_EQ(skipped.skipped.size(), 1u);
  EXPECT_EQ(skipped.skipped[0].reason, "duplicate id");
}

TEST(ImportTest, UnderFailTheEarliestProblemWinsBetweenABadRowAndARepeat) {
  CollectingWriter out;
  const TraceReport repeat_first = Convert(
      Scripted({MakeJob("a", 0), MakeJob("a", 1), Bad(4, "zero GPUs")}), BadRowPolicy::kFail, out);
  EXPECT_EQ(repeat_first.status.message(),
            "t.csv:3: field 'id': duplicate id 'a' (first at line 2)");
  const TraceReport bad_first = Convert(
      Scripted({MakeJob("a", 0), Bad(3, "zero GPUs"), MakeJob("a", 1)}), BadRowPolicy::kFail, out);
  EXPECT_EQ(bad_first.status.message(), "t.csv:3: column 'x': zero GPUs");
}

TEST(ImportTest, ManyDistinctIdsAreNotMistakenForRepeats) {
  std::vector<Row> rows;
  for (int i = 0; i < 200'000; ++i) {
    rows.emplace_back(MakeJob("job-" + std::to_string(i), i));
  }
  CollectingWriter out;
  const TraceReport report = Convert(Scripted(rows), BadRowPolicy::kFail, out);
  ASSERT_TRUE(report.ok()) << report.status.message();
  EXPECT_EQ(report.jobs, 200'000);
}

// The driver keeps the first IdFilter::kExactIds ids exactly and then moves them into its Bloom
// filter: a repeat is found whether its first sighting came before the move or after it.
TEST(ImportTest, RepeatsAreFoundOnBothSidesOfTheMoveToTheBloomFilter) {
  std::vector<Row> rows;
  for (int i = 0; i < 40'000; ++i) {
    rows.emplace_back(MakeJob("job-" + std::to_string(i), i));
    if (i == 10) {
      rows.emplace_back(MakeJob("job-3", i));  // while the ids are kept exactly
    }
    if (i == 30'000) {
      rows.emplace_back(MakeJob("job-5", i));  // first seen before the move
    }
  }
  rows.emplace_back(MakeJob("job-25000", 40'000));  // first seen after the move
  CollectingWriter out;
  const TraceReport report = Convert(Scripted(rows), BadRowPolicy::kSkip, out);
  ASSERT_TRUE(report.ok()) << report.status.message();
  EXPECT_EQ(report.jobs, 40'000);
  ASSERT_EQ(report.skipped.size(), 1u);
  EXPECT_EQ(report.skipped[0].reason, "duplicate id");
  EXPECT_EQ(report.skipped[0].rows, 3);
}

// 100 ids of 64 KiB pass the 4 MiB of id text the exact set holds, so the repeat at the end is
// found by the Bloom filter and confirmed.
TEST(ImportTest, ARepeatAmongLongIdsIsFoundPastTheExactSetsBytes) {
  std::vector<Row> rows;
  const std::string pad(64 * 1024, 'x');
  for (int i = 0; i < 100; ++i) {
    rows.emplace_back(MakeJob(std::to_string(i) + pad, i));
  }
  rows.emplace_back(MakeJob("0" + pad, 100));
  CollectingWriter out;
  const TraceReport report = Convert(Scripted(rows), BadRowPolicy::kSkip, out);
  ASSERT_TRUE(report.ok()) << report.status.message();
  EXPECT_EQ(report.jobs, 100);
  ASSERT_EQ(report.skipped.size(), 1u);
  EXPECT_EQ(report.skipped[0].reason, "duplicate id");
  EXPECT_EQ(report.skipped[0].rows, 1);
}

TEST(ImportTest, UnsortedInputIsSortedStablyAndSaidSo) {
  CollectingWriter out;
  const TraceReport report =
      Convert(Scripted({MakeJob("late", 9), MakeJob("x", 1), MakeJob("early", 0), MakeJob("y", 1)}),
              BadRowPolicy::kFail, out);
  ASSERT_TRUE(report.ok()) << report.status.message();
  EXPECT_EQ(out.ids, (std::vector<std::string>{"early", "x", "y", "late"}));
  EXPECT_EQ(report.out_of_order, 3);
  EXPECT_EQ(report.notes.back(),
            "the input was not sorted by submit time (3 rows before an earlier row's time); "
            "sorted stably");
}

TEST(ImportTest, EmptyTraceIsAnError) {
  CollectingWriter out;
  EXPECT_EQ(Convert(Scripted({}), BadRowPolicy::kFail, out).status.message(),
            "t.csv: empty trace: no jobs found");
  EXPECT_EQ(Convert(Scripted({Bad(2, "zero GPUs")}), BadRowPolicy::kSkip, out).status.message(),
            "t.csv: no jobs left: all 1 rows were bad and skipped");
}

TEST(ImportTest, OpenErrorIsReported) {
  CollectingWriter out;
  EXPECT_EQ(Convert(Scripted({}, "t.csv: cannot read: No such file or directory"),
                    BadRowPolicy::kFail, out)
                .status.message(),
            "t.csv: cannot read: No such file or directory");
}

TEST(ImportTest, GpuModelsAreCheckedAgainstTheCatalog) {
  const Catalog catalog = BuiltinCatalog();
  CollectingWriter out;
  const auto rows = Scripted({MakeJob("a", 0, {"H100"}), MakeJob("b", 1, {"H10O"})});
  EXPECT_EQ(Convert(rows, BadRowPolicy::kFail, out, &catalog).status.message(),
            "t.csv:3: field 'gpu_models': unknown GPU model 'H10O', did you mean 'H100'?");
  const TraceReport skipped = Convert(rows, BadRowPolicy::kSkip, out, &catalog);
  EXPECT_EQ(out.ids, std::vector<std::string>{"a"});
  EXPECT_EQ(skipped.skipped.at(0).reason, "unknown GPU model");
  EXPECT_TRUE(Convert(rows, BadRowPolicy::kFail, out, nullptr).ok());
}

TEST(ImportTest, ReadTraceAppendsToTheWorkloadOnlyOnSuccess) {
  Workload workload;
  workload.jobs.push_back(MakeJob("listed", 0));
  const TraceReport ok = ReadTrace(Scripted({MakeJob("a", 0)}), "t.csv", {}, {}, workload);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(workload.jobs.size(), 2u);
  const TraceReport bad =
      ReadTrace(Scripted({MakeJob("b", 0), Bad(3, "zero GPUs")}), "t.csv", {}, {}, workload);
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(workload.jobs.size(), 2u);
}

TEST(ImportTest, BadRowPolicyNames) {
  EXPECT_EQ(ParseBadRowPolicy("fail"), BadRowPolicy::kFail);
  EXPECT_EQ(ParseBadRowPolicy("skip"), BadRowPolicy::kSkip);
  EXPECT_FALSE(ParseBadRowPolicy("ignore"));
}

}  // namespace
}  // namespace fleetsim
