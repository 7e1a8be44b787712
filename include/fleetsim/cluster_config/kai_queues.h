// Tenants from KAI Scheduler queues: `scheduling.run.ai` Queue objects (one YAML document each, or
// a List), their parent queue, GPU quota, over-quota weight, limit and priority, written as the
// scenario's tenants array (docs/scenario-format.md#tenants, docs/cluster-configs.md).
// Thread-compatible.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"

namespace fleetsim {

struct KaiImport {
  nlohmann::ordered_json tenants = nlohmann::ordered_json::array();  // when status is OK
  std::vector<std::string> notes;
  Status status;  // "file: queue 'x': message" when the queues cannot be imported
};

// `files` nullptr: the disk.
KaiImport ImportKaiQueues(const std::string& path, const FileSystem* files = nullptr);

}  // namespace fleetsim
