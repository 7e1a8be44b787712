// The job-specific field reads of the trace readers.
#include "trace/fields.h"

#include <fmt/format.h>

#include <limits>

namespace fleetsim {

RowError MakeRowError(const std::string& file, std::int64_t line, const FieldError& error) {
  return RowError{file, line, error.reason, error.message};
}

bool CheckJob(const Job& job, FieldError& error) {
  const std::vector<JobProblem> problems = ProblemsWith(job);
  if (problems.empty()) {
    return true;
  }
  const JobProblem& first = problems.front();
  const char* reason = first.field == "gpus" && job.request.gpus == 0 ? kReasonZeroGpus
                       : first.text                                   ? kReasonBadValue
                                                                      : kReasonOutOfRange;
  error.Set(reason, fmt::format("field '{}': {}", first.field, first.message));
  return false;
}

std::optional<std::int64_t> GpuCountField(std::string_view text, std::string_view column,
                                          FieldError& error) {
  const std::optional<std::int64_t> gpus =
      IntField(text, column, std::numeric_limits<std::int64_t>::min(),
               std::numeric_limits<std::int64_t>::max(), error);
  if (gpus && (*gpus < 1 || *gpus > kMaxJobGpus)) {
    error.Set(*gpus == 0 ? kReasonZeroGpus : kReasonOutOfRange,
              fmt::format("column '{}': expected an integer in [1, {}], found {}", column,
                          kMaxJobGpus, *gpus));
    return std::nullopt;
  }
  return gpus;
}

Status CheckId(const std::string& id) {
  Job probe;
  probe.request.id = id;
  for (const JobProblem& problem : ProblemsWith(probe)) {
    if (problem.field == "id") {
      return Status::InvalidInput(problem.message);
    }
  }
  return Status::Ok();
}

std::optional<std::string> IdField(std::string_view text, std::string_view column,
                                   FieldError& error) {
  std::string id(text);
  if (const Status status = CheckId(id); !status.ok()) {
    error.Set(kReasonBadValue, fmt::format("column '{}': {}", column, status.message()));
    return std::nullopt;
  }
  return id;
}

JobSource::RowStatus FinishRow(const Job& job, FieldError& problem, const std::string& file,
                               std::int64_t line, RowError& error) {
  if (!problem.ok() || !CheckJob(job, problem)) {
    error = MakeRowError(file, line, problem);
    return JobSource::RowStatus::kBadRow;
  }
  return JobSource::RowStatus::kJob;
}

}  // namespace fleetsim
