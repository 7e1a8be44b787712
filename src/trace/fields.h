// The job-specific field reads of the trace readers (GPU counts, job ids, the job model's rules
// on a finished row), on the generic ones of text/text_fields.h. Internal to the trace readers.
// Thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/trace/job_source.h"
#include "fleetsim/workload/job.h"
#include "text/text_fields.h"

namespace fleetsim {

// The row error for `error` at file:line.
RowError MakeRowError(const std::string& file, std::int64_t line, const FieldError& error);

// Checks a finished job with ProblemsWith; on a problem fills `error` with the first one
// ("field 'max_gpus': ...") and returns false.
bool CheckJob(const Job& job, FieldError& error);

// A GPU count in [1, kMaxJobGpus]: "column 'num_gpus': expected an integer in [1, 1000000],
// found 0" (0 gets kReasonZeroGpus).
std::optional<std::int64_t> GpuCountField(std::string_view text, std::string_view column,
                                          FieldError& error);
// OK when `id` is a valid job id, else what the job model's rule says ("expected an id of
// letters, digits, '.', '_' or '-', found 'a b'"); the rule itself lives in ProblemsWith.
Status CheckId(const std::string& id);
// The field as a job id, or nullopt with "column 'job_id': expected an id of ..., found '...'".
std::optional<std::string> IdField(std::string_view text, std::string_view column,
                                   FieldError& error);

// The end of reading one row: kBadRow with `error` at file:line when the row had a problem or
// the job breaks a rule of the job model (CheckJob), else kJob.
JobSource::RowStatus FinishRow(const Job& job, FieldError& problem, const std::string& file,
                               std::int64_t line, RowError& error);

}  // namespace fleetsim
