// Terminal tables describing the catalog: `fleetsim list gpus`, `list mig-profiles MODEL` and
// `list node-templates`. Values the sources could not verify carry a trailing '?'; missing
// values print as '-'. Pure functions.
#pragma once

#include <string>

#include "fleetsim/fleet/catalog.h"

namespace fleetsim {

std::string GpuTable(const Catalog& catalog);
std::string MigProfileTable(const GpuModel& model);
std::string NodeTemplateTable(const Catalog& catalog);

}  // namespace fleetsim
