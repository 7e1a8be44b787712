// Sweep specs: many runs described by one JSON file — base scenarios, axes of values (the policy,
// policy parameters, seeds, any scenario field by JSON Pointer, named variants given as JSON merge
// patches), zip groups of axes that move together, and exclude rules — and their expansion into
// points. Each point is a complete scenario document, checked by the scenario loader exactly as
// if it had been written in a file. docs/sweeps.md documents the format;
// scenarios/schema/sweep.schema.json is the matching JSON Schema. Value types; thread-compatible.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/diagnostics.h"
#include "fleetsim/core/file_system.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {

inline constexpr std::int64_t kSweepFormatVersion = 1;
// The most points a spec may expand to (before exclusions): a bound on memory and on typos.
inline constexpr std::size_t kMaxSweepPoints = 1'000'000;

// What an axis sets in each point's scenario document.
enum class AxisTarget {
  kPolicy,       // /policy/name (the base's parameters kept when it names the same policy)
  kPolicyParam,  // /policy/params/<path>, in points whose policy declares it
  kSeed,         // the run's seed (not part of the document)
  kPointer,      // the value at the JSON Pointer <path>
  kVariant,      // a JSON merge patch (RFC 7386) of the whole document
};

struct AxisValue {
  nlohmann::json value{};  // what is set (the patch, for a variant)
  std::string label{};     // as results show it: a string as is, other JSON as compact text,
                           // a variant's name
};

struct SweepAxis {
  std::string name{};  // its column in the results
  AxisTarget target = AxisTarget::kPointer;
  std::string path{};  // the parameter's name, or the JSON Pointer
  std::vector<AxisValue> values{};
};

// Drops every point whose label on each named axis is one of the listed labels.
struct ExcludeRule {
  std::vector<std::pair<std::size_t, std::vector<std::string>>> axes{};  // axis index, labels
};

struct SweepSpec {
  std::string name{};
  std::string description{};
  std::string source{};             // the spec file, as given
  std::vector<std::string> base{};  // scenario files, resolved beside the spec
  // The file system the bases are on (the spec's own; not owned): ExpandSweep reads them, and
  // the traces they replay, from it. nullptr: the disk.
  const FileSystem* files = nullptr;
  std::vector<std::string> base_given{};  // as written in the spec
  std::vector<SweepAxis> axes{};          // in the order of the file: the first varies slowest
  std::vector<std::vector<std::size_t>> zip{};  // axis indexes that move together, each in one
  std::vector<ExcludeRule> exclude{};
  std::string baseline_policy{};  // paired differences in summary.csv are against it; "" = none
  std::vector<std::string> report_metrics{};  // what report.html plots
};

struct SweepLoad {
  std::optional<SweepSpec> spec{};  // set when there are no errors
  Diagnostics diagnostics{};
  Status file_status{};  // unreadable file or invalid JSON: "path:line:col: ..."
};

// Reads and checks a sweep spec on `files` (every problem at once, each at its JSON pointer).
// Base scenarios must be files there; what the points make of them is checked by ExpandSweep.
SweepLoad LoadSweepSpec(const FileSystem& files, const std::string& path,
                        const PolicyRegistry& registry, bool strict);

// The keys of a spec that describe its runs — "name", "description", "base", "axes", "zip" and
// "exclude" — checked as in a sweep spec, for files that embed them (plan specs,
// docs/planning.md). `root` must be an object; the caller checks its other keys.
SweepSpec ParseSweepRuns(const FileSystem& files, const nlohmann::json& root,
                         const std::string& source, const PolicyRegistry& registry,
                         Diagnostics& diagnostics);

// One run of a sweep.
struct SweepPoint {
  std::size_t index = 0;              // in expansion order, after exclusions and duplicates
  std::size_t base = 0;               // index into SweepSpec::base
  std::string scenario{};             // the base scenario's name
  std::string policy{};               // the policy the point runs
  std::uint64_t seed = kDefaultSeed;  // the seed axis's value, else the scenario's own seed
  std::vector<std::string> labels{};  // per axis of the spec; "" where an axis does not apply
  std::string id{};  // 16 hex digits: a digest of base, document, seed, version
  std::shared_ptr<const Scenario> scenario_loaded{};  // null when the document is invalid
  std::string error{};  // why the document is invalid: the loader's messages
};

struct SweepExpansion {
  std::vector<SweepPoint> points{};
  std::size_t excluded = 0;           // combinations dropped by exclude rules
  std::size_t duplicates = 0;         // combinations that resolve to a run listed before them
  std::vector<std::string> errors{};  // problems of the spec found while expanding (fatal)
  std::vector<std::string> warnings{};
};

struct ExpandOptions {
  bool strict = false;
  const Catalog* catalog = nullptr;
};

// Every combination of the axes (Cartesian product, zip groups in step) for every base scenario,
// exclusions and duplicates removed. Each distinct document is loaded once; points whose document
// is invalid carry the loader's messages and no scenario.
SweepExpansion ExpandSweep(const SweepSpec& spec, const PolicyRegistry& registry,
                           const ExpandOptions& options);

// "name=label, ..." for messages: the point's scenario, policy, seed and other axes.
std::string DescribePoint(const SweepSpec& spec, const SweepPoint& point);

}  // namespace fleetsim
