// The workload sections of a scenario that are not listed jobs: the generator blocks ("generator",
// one object, and "generators", an array of them) and "transforms". Every problem is recorded
// with its JSON pointer; docs/scenario-format.md documents the syntax. Private to the scenario
// module.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/workload/generator.h"
#include "fleetsim/workload/job.h"
#include "fleetsim/workload/transforms.h"
#include "json/json_checker.h"

namespace fleetsim {

// A scenario's generator blocks: "generator" is block 0 when present, "generators" follow.
struct GeneratorBlocks {
  std::optional<GeneratorSpec> generator;
  std::vector<GeneratorSpec> generators;  // all of "generators", or none if one is invalid
};

// Whether the block `spec` generates `id` ("<prefix><n as at least 6 digits>", 1 <= n <= jobs).
bool IsGeneratedId(const std::string& id, const GeneratorSpec& spec);

// Reads the root's "generator" and "generators", and checks that no two blocks can generate
// the same id.
GeneratorBlocks ParseGeneratorSections(const nlohmann::json& root, JsonChecker& check);

// Checks that no generated id equals a listed job's id (listed_jobs[i] is at /jobs/i),
// reporting for each block the colliding listed id that comes first in byte order.
void CheckGeneratedIdsAgainstListed(const std::optional<GeneratorSpec>& generator,
                                    const std::vector<GeneratorSpec>& generators,
                                    const std::vector<Job>& listed_jobs, JsonChecker& check);

// Reads the root's "transforms" array (absent: none); all of them, or none if one is invalid.
std::vector<TransformSpec> ParseTransformsSection(const nlohmann::json& root, JsonChecker& check);

}  // namespace fleetsim
