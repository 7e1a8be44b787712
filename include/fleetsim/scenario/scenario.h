// Scenario files: a declarative description of one experiment — fleet, jobs (listed and/or
// generated), policy and its parameters, seed, stop time. Loading parses, then validates
// everything, reporting every problem at once with its JSON pointer, and only then builds.
// docs/scenario-format.md documents every field; scenarios/schema/scenario.schema.json is the
// matching JSON Schema. Value types; thread-compatible.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/diagnostics.h"
#include "fleetsim/core/random.h"
#include "fleetsim/core/status.h"
#include "fleetsim/fleet/catalog.h"
#include "fleetsim/fleet/fleet.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/import.h"
#include "fleetsim/workload/generator.h"
#include "fleetsim/workload/job.h"
#include "fleetsim/workload/tenants.h"
#include "fleetsim/workload/transforms.h"

namespace fleetsim {

inline constexpr std::int64_t kScenarioFormatVersion = 1;
inline constexpr std::uint64_t kDefaultSeed = 1;

// A trace the scenario replays, read (and checked) when the scenario loads.
struct TraceSource {
  std::string format{};         // a TraceFormats() name
  std::string path{};           // as written in the scenario
  std::string resolved_path{};  // relative paths are relative to the scenario file
  TraceOptionValues options{};  // every option of the format, defaults filled in
  BadRowPolicy on_bad_row = BadRowPolicy::kFail;
  // What the trace yielded, in submit order; shared by the scenarios loaded through one
  // LoadCache (a sweep's points), never changed after loading.
  std::shared_ptr<const Workload> jobs = std::make_shared<const Workload>();
  TraceReport report{};  // counts, skipped rows by reason, notes
};

struct Scenario {
  std::string name;
  std::string description;
  std::uint64_t seed = kDefaultSeed;
  FleetSpec fleet;
  PolicyChoice policy;
  SimTime until = kTimeNever;    // stop time; kTimeNever runs until idle
  // From "jobs", in file order; never null. Shared, read-only: the copies a sweep makes of a
  // scenario (one per policy of a point) share its jobs rather than copy them.
  std::shared_ptr<const std::vector<Job>> listed_jobs = std::make_shared<const std::vector<Job>>();
  std::optional<TraceSource> trace;
  std::optional<GeneratorSpec> generator;  // "generator": generator block 0
  std::vector<GeneratorSpec> generators;   // "generators": the blocks after it, in order
  std::vector<TransformSpec> transforms;   // "transforms", applied in this order
  // The speed model's reference GPU (kDefaultReferenceGpu in the scenario's catalog), if the
  // catalog has it; work_gpu_hours are hours on one of these.
  std::optional<GpuModel> reference_gpu;
  Organization tenants;  // "tenants", in file order
};

class LoadCache;

struct LoadOptions {
  bool strict = false;                // unknown keys are errors, not warnings
  const Catalog* catalog = nullptr;   // the catalog pools resolve against; nullptr: built-in
  // Set: a trace read before is not read again, and a "jobs" array parsed before is not parsed
  // again (load_cache.h).
  LoadCache* cache = nullptr;
  // Where the scenario, its catalog file and its trace are read from; nullptr: the disk.
  const FileSystem* files = nullptr;
};

struct LoadResult {
  std::optional<Scenario> scenario;  // set when there are no errors
  Diagnostics diagnostics;           // warnings, and errors when loading failed
  Status file_status;                // unreadable file or invalid JSON: "path:line:col: ..."
  std::vector<std::string> notes;    // what loading a trace reported (rows read and skipped)
};

// Parses and validates scenario text. `source` names it in messages.
LoadResult ParseScenario(const std::string& text, const std::string& source,
                         const PolicyRegistry& registry, const LoadOptions& options);
// Reads and parses a scenario file.
LoadResult LoadScenarioFile(const std::string& path, const PolicyRegistry& registry,
                            const LoadOptions& options);

struct PolicyLoad {
  std::optional<PolicyChoice> policy;  // set when there are no errors
  Diagnostics diagnostics;             // at "/policy/..." as in a scenario file
  Status file_status;                  // invalid JSON
};

// A scenario's "policy" block on its own ({"name": ..., "params": {...}}, as JSON text), checked
// as in a scenario file named `source` (a "params" file is read relative to it, from
// options.files), for callers that choose a policy outside one (the Python module) or apart from
// the rest of the scenario (a sweep's policy axes). options.catalog and cache are not used.
PolicyLoad ParsePolicyChoice(const std::string& text, const std::string& source,
                             const PolicyRegistry& registry, const LoadOptions& options = {});

// The jobs of a scenario run with `seed`: listed, trace and generated jobs, sorted by submit time.
Workload BuildWorkload(const Scenario& scenario, std::uint64_t seed);

// BuildWorkload's jobs, with what the transforms did, one note each:
// "/transforms/<i> (<name>): <what it did>".
struct BuiltWorkload {
  Workload workload;
  std::vector<std::string> notes;
};
BuiltWorkload BuildWorkloadWithNotes(const Scenario& scenario, std::uint64_t seed);

// A stable digest of a workload's jobs ("fnv1a64:<16 hex digits>"), recorded in summary.json so
// that two runs can be seen to have replayed the same jobs.
std::string WorkloadFingerprint(const Workload& workload);

}  // namespace fleetsim
