// Loading the catalog (docs/fleet-model.md): the built-in one compiled from
// scenarios/catalog/catalog.json, and user files that extend it. Validation reports every
// problem at once with its JSON pointer, like scenario loading. Stateless; thread-compatible.
#pragma once

#include <optional>
#include <string>

#include "fleetsim/core/diagnostics.h"
#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"
#include "fleetsim/fleet/catalog.h"

namespace fleetsim {

struct CatalogLoadResult {
  std::optional<Catalog> catalog;  // set when there are no errors
  Diagnostics diagnostics;
  Status file_status;  // unreadable file or invalid JSON
};

// Parses catalog JSON. Entries are checked on their own and against `base` (a node template may
// name a GPU model from either); the result holds `base` extended by the text's entries, an
// entry replacing a same-named one.
CatalogLoadResult ParseCatalog(const std::string& text, const std::string& source,
                               const Catalog& base);

// The catalog shipped with fleetsim, parsed once per process (thread-safe). It is validated by the
// test suite, so failing to parse it here is a build defect (checked).
const Catalog& BuiltinCatalog();

// The built-in catalog extended by the file at `path`.
CatalogLoadResult LoadCatalogFile(const FileSystem& files, const std::string& path);

}  // namespace fleetsim
