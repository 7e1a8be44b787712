// Writes a synthetic native CSV trace of N jobs, streaming (constant memory), for measuring how
// `fleetsim import` scales with trace length: tools/bench-import-memory writes traces of growing
// N with it and records the importer's peak resident memory on each.
// Usage: fleetsim_write_synthetic_trace N FILE
#include <charconv>
#include <cstdio>
#include <fstream>
#include <string>

#include "fleetsim/core/random.h"
#include "fleetsim/trace/native.h"

namespace {

int Usage() {
  std::fputs("usage: fleetsim_write_synthetic_trace N FILE\n", stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    return Usage();
  }
  const std::string count_text = argv[1];
  std::int64_t count = 0;
  const auto [ptr, ec] =
      std::from_chars(count_text.data(), count_text.data() + count_text.size(), count);
  if (ec != std::errc() || ptr != count_text.data() + count_text.size() || count < 1) {
    return Usage();
  }
  std::ofstream file(argv[2], std::ios::binary | std::ios::trunc);
  if (!file) {
    std::fprintf(stderr, "%s: cannot create\n", argv[2]);
    return 1;
  }
  fleetsim::Rng rng = fleetsim::RandomStreams(1, 0).Stream("bench.synthetic-trace");
  fleetsim::CsvJobWriter writer(file);
  fleetsim::SimTime clock = 0;
  constexpr std::int64_t kSizes[] = {1, 1, 1, 2, 4, 8, 16, 64};
  for (std::int64_t i = 1; i <= count; ++i) {
    fleetsim::Job job;
    char id[24];
    std::snprintf(id, sizeof id, "s%010lld", static_cast<long long>(i));
    job.request.id = id;
    clock += fleetsim::UniformInt(rng, 0, 60'000);
    job.request.submit = clock;
    job.request.gpus = kSizes[fleetsim::UniformInt(rng, 0, 7)];
    job.request.priority = fleetsim::UniformInt(rng, 1, 3);
    job.truth.duration = fleetsim::UniformInt(rng, 60'000, 86'400'000);
    writer.Write(job);
  }
  file.close();
  if (!file) {
    std::fprintf(stderr, "%s: cannot write\n", argv[2]);
    return 1;
  }
  return 0;
}
