// The native JSON Lines format: one job object per line (job_json/job_json.h). The reader is
// strict, since native files are written by tools: an unknown field is a bad row, not a warning.
// Also the JSON Lines writer, and MakeJobWriter, which picks a native writer by format name.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>

#include "fleetsim/core/diagnostics.h"
#include "fleetsim/trace/native.h"
#include "job_json/job_json.h"
#include "json/json_text.h"
#include "text/csv.h"
#include "text/line_reader.h"
#include "trace/fields.h"
#include "trace/readers.h"

namespace fleetsim {

namespace {

using nlohmann::json;

// "invalid JSON at column 8: syntax error ..." from one of nlohmann's exceptions.
std::string DescribeJsonError(const json::exception& e) {
  const JsonErrorText error = SplitJsonError(e.what());
  return error.at ? fmt::format("invalid JSON at column {}: {}", error.at->column, error.what)
                  : "invalid JSON: " + error.what;
}

// "unknown field 'gpu', did you mean 'gpus'?" for the first key of `object` not in `known`
// (keys are looked at in sorted order); OK when there is none.
Status CheckKnownFields(const json& object, const std::string& prefix,
                        const std::vector<std::string>& known) {
  for (const auto& item : object.items()) {
    const std::string& key = item.key();
    if (std::find(known.begin(), known.end(), key) != known.end()) {
      continue;
    }
    const std::string match = ClosestMatch(key, known);
    return Status::InvalidInput(
        fmt::format("unknown field '{}{}'{}", prefix, ShownName(key),
                    match.empty() ? "" : fmt::format(", did you mean '{}{}'?", prefix, match)));
  }
  return Status::Ok();
}

// The job object's keys, then its demand object's.
Status CheckKnownFields(const json& object) {
  if (Status status = CheckKnownFields(object, "", JobObjectKeys()); !status.ok()) {
    return status;
  }
  const auto demand = object.find("demand");
  if (demand != object.end() && demand->is_object()) {
    return CheckKnownFields(*demand, "demand.", DemandObjectKeys());
  }
  return Status::Ok();
}

// "/demand/gpus/2" -> "demand.gpus[2]" (the pointer's tokens unescaped, indexes in brackets).
std::string FieldName(const std::string& pointer) {
  std::string name;
  std::size_t begin = 1;
  while (begin <= pointer.size()) {
    const std::size_t end = std::min(pointer.find('/', begin), pointer.size());
    std::string token = pointer.substr(begin, end - begin);
    begin = end + 1;
    const bool index = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
    if (index) {
      name += "[" + token + "]";
      continue;
    }
    name += name.empty() ? "" : ".";
    for (std::size_t i = 0; i < token.size(); ++i) {
      const bool escaped = token[i] == '~' && i + 1 < token.size();
      name += escaped ? (token[++i] == '1' ? '/' : '~') : token[i];
    }
  }
  return name;
}

// The reason category of a field problem, judged from the value found and from what the message
// (JsonChecker's or job_json's) says was expected.
const char* ReasonFor(const json& object, const Diagnostic& problem) {
  const json::json_pointer pointer(problem.where);
  if (problem.where.empty() || !object.contains(pointer)) {
    return kReasonBadValue;
  }
  const json& value = object.at(pointer);
  const bool wants_integer = problem.message.starts_with("expected an integer");
  const bool wants_number = wants_integer || problem.message.starts_with("expected a number") ||
                            problem.message.starts_with("expected a duration");
  if (!wants_number) {
    return kReasonBadValue;
  }
  if (!value.is_number()) {
    return kReasonNotNumeric;
  }
  if (wants_integer && !value.is_number_integer()) {
    return kReasonBadValue;
  }
  const bool is_time = problem.where.ends_with("_s");
  return is_time && value.get<double>() < 0 ? kReasonNegativeTime : kReasonOutOfRange;
}

FieldError FirstProblem(const json& object, const Diagnostics& problems) {
  FieldError error;
  for (const Diagnostic& problem : problems.items()) {
    if (problem.severity == Severity::kError) {
      error.Set(ReasonFor(object, problem),
                problem.where.empty()
                    ? problem.message
                    : fmt::format("field '{}': {}", FieldName(problem.where), problem.message));
    }
  }
  return error;
}

class JsonlSource final : public JobSource {
 public:
  JsonlSource(const FileSystem& files, const std::string& path) : lines_(files, path) {}

  const LineReader& lines() const { return lines_; }

  RowStatus Next(Job& job, RowError& error) override {
    while (lines_.Next(line_)) {
      if (IsBlank(line_)) {
        continue;
      }
      FieldError problem;
      job = ReadRow(problem);
      return FinishRow(job, problem, lines_.path(), lines_.line_number(), error);
    }
    return RowStatus::kEnd;
  }

  std::int64_t line() const override { return lines_.line_number(); }

 private:
  Job ReadRow(FieldError& problem) const {
    json object;
    if (const std::optional<TextPosition> deep = FirstTooDeep(line_)) {
      problem.Set(kReasonBadSyntax,
                  fmt::format("invalid JSON at column {}: arrays and objects nested deeper than "
                              "{} levels",
                              deep->column, kMaxJsonDepth));
      return {};
    }
    try {
      object = json::parse(line_);
    } catch (const json::exception& e) {
      problem.Set(kReasonBadSyntax, DescribeJsonError(e));
      return {};
    }
    if (!object.is_object()) {
      problem.Set(kReasonBadSyntax,
                  fmt::format("expected a JSON object on each line, found {}", Shown(object)));
      return {};
    }
    if (const Status known = CheckKnownFields(object); !known.ok()) {
      problem.Set(kReasonBadValue, known.message());
      return {};
    }
    Diagnostics diagnostics;
    JsonChecker check(diagnostics);
    Job job;
    if (!ReadJobFields(object, "", check, job)) {
      problem = FirstProblem(object, diagnostics);
    }
    return job;
  }

  LineReader lines_;
  std::string line_;
};

OpenResult OpenJsonl(const FileSystem& files, const std::string& path,
                     const TraceOptionValues& /*options*/) {
  auto source = std::make_unique<JsonlSource>(files, path);
  if (!source->lines().ok()) {
    return {nullptr, source->lines().status()};
  }
  return {std::move(source), Status::Ok()};
}

}  // namespace

TraceFormat JsonlFormat() {
  return {"jsonl",
          "native JSON Lines: one job object per line, every field of the job model",
          {},
          &OpenJsonl};
}

void JsonlJobWriter::Write(const Job& job) {
  out_ << JobToJson(job).dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
}

std::unique_ptr<JobWriter> MakeJobWriter(const std::string& format, std::ostream& out) {
  if (format == "jsonl") {
    return std::make_unique<JsonlJobWriter>(out);
  }
  if (format == "csv") {
    return std::make_unique<CsvJobWriter>(out);
  }
  return nullptr;
}

}  // namespace fleetsim
