// `fleetsim fill`: runs fill scenarios (the FGD experiment of Weng et al.) under their policies
// and seeds on several threads, and prints ours against the paper's results
// (docs/validation.md). Internal to the command-line tool.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace fleetsim::cli {

struct FillArgs {
  std::vector<std::string> scenarios;
  std::optional<std::int64_t> seeds;  // overrides the scenarios' seed count
  unsigned threads = 0;               // 0: one per hardware thread
  std::string markdown_file;          // the comparison table, as Markdown
  std::string curves_file;            // every run's curve, as CSV
  std::string steps_file;             // every run's steps, as CSV
  std::string orders_dir;             // "": arrivals and tie ranks from the seed; else order files
  bool artifact_streams = false;      // draw them as the paper's artifact does (Go's math/rand)
  bool timing = false;                // wall-clock time on stderr
  bool strict = false;                // unknown keys are errors
  bool check = false;                 // exit 5 unless every target holds
};

int RunFillCommand(const FillArgs& args, std::ostream& out, std::ostream& err);

// Whether the file is a scenario of kind "fill" (false if unreadable or not JSON).
bool IsFillScenarioFile(const std::string& path);
// Loads a fill scenario and the files it names (node and pod lists, the paper's results) as
// `fleetsim fill` does, printing every problem; false if there is one (with `strict`, warnings
// count as errors).
bool ValidateFillScenario(const std::string& path, bool strict, std::ostream& err);

}  // namespace fleetsim::cli
