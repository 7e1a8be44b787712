// Scenario files: a declarative description of one experiment — fleet, jobs (listed and/or
// generated), policy and its parameters, seed, stop time. Loading parses, then validates
// everything, reporting every problem at once with its JSON pointer, and only then builds.
// docs/scenario-format.md documents every field; scenarios/schema/scenario.schema.json is the
// matching JSON Schema. Value types; thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/diagnostics.h"
#include "fleetsim/core/random.h"
#include "fleetsim/fleet/catalog.h"
#include "fleetsim/fleet/fleet.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/workload/generator.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

inline constexpr std::int64_t kScenarioFormatVersion = 1;
inline constexpr std::uint64_t kDefaultSeed = 1;

struct PolicyChoice {
  std::string name = "fifo";
  PolicyParams params;  // every declared parameter, defaults filled in
};

struct Scenario {
  std::string name;
  std::string description;
  std::uint64_t seed = kDefaultSeed;
  FleetSpec fleet;
  PolicyChoice policy;
  SimTime until = kTimeNever;    // stop time; kTimeNever runs until idle
  std::vector<Job> listed_jobs;  // from "jobs", in file order
  std::optional<GeneratorSpec> generator;
};

struct LoadOptions {
  bool strict = false;               // unknown keys are errors, not warnings
  const Catalog* catalog = nullptr;  // the catalog pools resolve against; nullptr: built-in
};

struct LoadResult {
  std::optional<Scenario> scenario;  // set when there are no errors
  Diagnostics diagnostics;           // warnings, and errors when loading failed
  std::string file_error;            // unreadable file or invalid JSON: "path:line:col: ..."
};

// Parses and validates scenario text. `source` names it in messages.
LoadResult ParseScenario(const std::string& text, const std::string& source,
                         const PolicyRegistry& registry, const LoadOptions& options);
// Reads and parses a scenario file.
LoadResult LoadScenarioFile(const std::string& path, const PolicyRegistry& registry,
                            const LoadOptions& options);

// The jobs of a scenario run with `seed`: listed jobs plus generated ones, sorted by submit time.
Workload BuildWorkload(const Scenario& scenario, std::uint64_t seed);

// A stable digest of a workload's jobs ("fnv1a64:<16 hex digits>"), recorded in summary.json so
// that two runs can be seen to have replayed the same jobs.
std::string WorkloadFingerprint(const Workload& workload);

}  // namespace fleetsim
