// A small JSON Schema (draft 2020-12) validator for tests: enough to check scenario files against
// scenarios/schema/scenario.schema.json without a third-party validator. It supports a fixed
// subset of keywords and refuses (throws) any schema using another keyword that could affect
// validation, so a schema can never be silently under-checked. Not for production use: regexes
// are recompiled per call and errors are plain strings. Thread-compatible.
//
// Supported: type, properties, required, additionalProperties, items, contains, minItems,
// minLength, minimum, maximum, exclusiveMinimum, exclusiveMaximum, pattern, enum, const, anyOf,
// oneOf, allOf, and $ref to "#/$defs/NAME". Boolean schemas (true/false) are supported.
// Ignored annotations: $schema, $id, title, description, $comment, default, examples, $defs
// (whose schemas are still checked for supported keywords).
//
// Semantics that differ from the standard on purpose: "integer" means a JSON integer literal
// (8, not 8.0 or 8e0), as the scenario loader reads it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace fleetsim::testing {

// Throws std::runtime_error naming the keyword and its schema location if `schema` uses a
// keyword outside the supported subset, or uses a supported one malformed (a non-array
// "required", a "$ref" that does not resolve, a "pattern" that does not compile, ...).
void CheckSchemaIsSupported(const nlohmann::json& schema);

// Validates `instance` against `schema` (the document root; "$ref"s resolve against it). Returns
// one "<JSON pointer>: <keyword>: <message>" string per failure, "/" standing for the whole
// document; empty means valid. Throws as CheckSchemaIsSupported does.
std::vector<std::string> ValidateAgainstSchema(const nlohmann::json& schema,
                                               const nlohmann::json& instance);

}  // namespace fleetsim::testing
