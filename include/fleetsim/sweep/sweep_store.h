// What a sweep keeps in its output folder between runs, shards and machines (DIR/.sweep/):
// the layout (points.json: the spec's name, columns and every point with its run id and axis
// labels) and the records of finished runs (runs-I-of-N.jsonl, one JSON line per run, appended
// and flushed as each run ends, one file per shard so that shards on a shared filesystem never
// write the same file). A rerun skips the ids recorded as done; `sweep merge` joins the records
// of several folders; results are rendered from the layout and the records alone, so they are
// the same whichever machine, shard or thread ran each run. docs/sweeps.md#the-output-folder.
#pragma once

#include <chrono>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/status.h"
#include "fleetsim/sweep/sweep_metrics.h"
#include "fleetsim/sweep/sweep_spec.h"

namespace fleetsim {

inline constexpr const char* kSweepStateDir = ".sweep";

// How a run ended, and the exit status `fleetsim run` gives the same failure (docs/cli.md).
enum class SweepRunStatus { kOk, kInvalid, kIllegalDecision, kError };
std::string SweepRunStatusName(
    SweepRunStatus status);                     // "ok", "invalid", "illegal-decision", "error"
int SweepRunStatusExit(SweepRunStatus status);  // 0, 1, 3, 1

struct SweepRecord {
  std::string id{};
  SweepRunStatus status = SweepRunStatus::kOk;
  std::string error{};                 // what went wrong, when not ok
  std::vector<SweepMetric> metrics{};  // when ok
  // Metrics over a group of jobs a plan's targets ask for, by GroupMetricName (a sweep has none).
  std::vector<std::pair<std::string, SweepMetric>> group_metrics{};
};

struct LayoutPoint {
  std::size_t index = 0;
  std::string id{};
  std::string scenario{};
  std::string policy{};
  std::uint64_t seed = 0;
  std::vector<std::string> labels{};  // one per SweepLayout::axes
  std::string error{};                // the point's document is invalid: why
};

struct SweepLayout {
  std::string name{};                   // the spec's
  std::vector<std::string> axes{};      // columns after scenario, policy, seed
  std::vector<bool> pairing_ignores{};  // per column: a policy parameter (summary pairing)
  std::string baseline_policy{};
  std::vector<std::string> report_metrics{};
  std::vector<LayoutPoint> points{};
};

SweepLayout MakeLayout(const SweepSpec& spec, const SweepExpansion& expansion);
std::string LayoutJson(const SweepLayout& layout);
// Reads DIR/.sweep/points.json; nullopt with `error` set when missing or malformed.
std::optional<SweepLayout> ReadLayout(const std::string& dir, Status& status);

// Formats the texts of the record's metrics that have a value and none yet (SweepMetric).
void FormatMetricTexts(SweepRecord& record);

// One journal line (with its newline).
std::string RecordLine(const SweepRecord& record);

// Every record in DIR/.sweep/runs-*.jsonl by id; where an id has several, an ok one wins, with
// the group metrics of every ok one (a plan run again with other targets records them anew).
// A line that does not parse (the last one of a killed run, say) is skipped with a warning.
std::map<std::string, SweepRecord> ReadRecords(const std::string& dir,
                                               std::vector<std::string>& warnings);

// "runs-I-of-N.jsonl".
std::string JournalName(std::size_t shard, std::size_t shards);

// Records reach the journal file in batches: at the first record this long after the last write,
// when this many records wait, and at Flush(). Short runs do not pay a write each, nor the
// formatting of their metrics between them; a killed sweep loses the records that wait (those
// runs run again on resume).
inline constexpr std::chrono::milliseconds kJournalFlushPeriod{250};
inline constexpr std::size_t kJournalBatchRecords = 256;

// Appends records to one journal file, in batches (kJournalFlushPeriod). A batch's records get
// their metric texts (FormatMetricTexts) when the batch is written.
class JournalWriter {
 public:
  // Creates DIR/.sweep if needed; ok() is false (and status() says why) when it cannot.
  // `flush_period`: kJournalFlushPeriod, or longer in a test that must control the batches.
  JournalWriter(const std::string& dir, const std::string& name,
                std::chrono::milliseconds flush_period = kJournalFlushPeriod);
  ~JournalWriter() { Flush(); }  // what waits is written on every way out, as a stream's buffer
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  // `record` waits by reference: it must stay where it is until the next Flush() (a record in
  // SweepRecords, a std::map, does), which formats its texts in place and writes it as it then
  // is (once, if it was appended again meanwhile).
  bool Append(SweepRecord& record);
  bool Flush();

 private:
  std::vector<SweepRecord*> waiting_{};  // records not yet written
  std::chrono::milliseconds flush_period_{};
  std::ofstream file_{};
  std::string path_{};
  Status status_{};
  std::chrono::steady_clock::time_point last_flush_{};
};

}  // namespace fleetsim
