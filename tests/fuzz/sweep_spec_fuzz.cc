// Fuzz target: a sweep spec (`fleetsim sweep`), loaded and, when it loads and expands to few
// points, expanded over a small base scenario written beside it (base.json, the name the test
// fixture and seeds use), so that pointers, patches and exclusions meet real documents. Each
// process works in its own folder under $TMPDIR (or /tmp).
#include <string>

#include "fleetsim/sweep/sweep_spec.h"
#include "fuzz_input.h"

namespace {

constexpr std::size_t kMaxExpandedPoints = 64;

const char* kBase = R"({"format_version": 1, "name": "small", "seed": 5,
  "fleet": {"pools": [{"name": "h100", "template": "hgx-h100", "nodes": 2}]},
  "policy": {"name": "constraint-aware", "params": {"decay": 0.9}},
  "jobs": [{"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 60}]})";

std::size_t Points(const fleetsim::SweepSpec& spec) {
  std::size_t points = spec.base.size();
  for (const fleetsim::SweepAxis& axis : spec.axes) {
    points *= std::max<std::size_t>(axis.values.size(), 1);
    if (points > kMaxExpandedPoints) {
      return points;
    }
  }
  return points;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fleetsim;
  static const PolicyRegistry registry = BuiltinPolicies();
  static const std::string folder = fuzz::ProcessFolder("sweep", "base.json", kBase);
  const std::string path = folder + "/spec.json";
  fuzz::WriteBytes(data, size, path);
  const SweepLoad load = LoadSweepSpec(DiskFileSystem(), path, registry, false);
  if (load.spec.has_value() != (load.file_status.ok() && !load.diagnostics.HasErrors())) {
    fuzz::PropertyFailed("a sweep spec is returned exactly when there is no error");
  }
  if (!load.spec || Points(*load.spec) > kMaxExpandedPoints) {
    return 0;
  }
  const SweepExpansion expansion = ExpandSweep(*load.spec, registry, {});
  for (const SweepPoint& point : expansion.points) {
    if (point.id.size() != 16 || point.labels.size() != load.spec->axes.size() ||
        (point.scenario_loaded == nullptr) == point.error.empty()) {
      fuzz::PropertyFailed("every point has an id, a label per axis, and a scenario or an error");
    }
  }
  return 0;
}
