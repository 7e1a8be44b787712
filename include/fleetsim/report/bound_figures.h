// The bounds `fleetsim bench` shows each policy's output against: read from the bounds file that
// `fleetsim bound --json` writes (docs/outputs.md#bounds-json), by scenario name. Only what the
// bench needs is kept: the bound, whether it is proven optimal, and the gap when it is not. The
// bounds are costly to compute, so the bench never solves them; it reads them, as it reads the
// published figures. Value types and pure functions (LoadBoundFigures only reads its file).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "fleetsim/core/status.h"

namespace fleetsim {

struct BoundFigure {
  double bound = 0;             // upper bound on the priority-weighted output
  bool proven_optimal = false;  // the bound is the model's optimum, not only a proved bound
  double gap = 0;               // (bound - best solution) / bound when not proven optimal
};

struct BoundFigures {
  std::map<std::string, BoundFigure> scenarios{};  // by scenario name
};

struct BoundFiguresLoad {
  std::optional<BoundFigures> figures;
  Status status;  // "file: /bounds/2/bound: expected ..., found ..." when the file is bad
};

// Reads a bounds file. Each entry needs "scenario" (a string), "bound" (a number >= 0),
// "proven_optimal" (a boolean) and "gap" (a number >= 0); other members are not read.
BoundFiguresLoad LoadBoundFigures(const std::string& path);
BoundFiguresLoad ParseBoundFigures(const std::string& text, const std::string& source);

}  // namespace fleetsim
