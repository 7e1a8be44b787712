// Sample statistics (see sample_stats.h).
#include "fleetsim/core/sample_stats.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <map>
#include <mutex>

namespace fleetsim {

SampleStats StatsOf(const std::vector<double>& values) {
  SampleStats s{.n = values.size()};
  if (values.empty()) {
    return s;
  }
  // Summed as offsets from the first value, so equal values have exactly that mean and sd 0.
  double offsets = 0;
  double low = values[0];
  double high = values[0];
  for (const double v : values) {
    offsets += v - values[0];
    low = std::min(low, v);
    high = std::max(high, v);
  }
  const double mean = values[0] + offsets / static_cast<double>(values.size());
  s.mean = mean;
  s.min = low;
  s.max = high;
  if (values.size() >= 2) {
    double squares = 0;
    for (const double v : values) {
      squares += (v - mean) * (v - mean);
    }
    const double sd = std::sqrt(squares / static_cast<double>(values.size() - 1));
    const double half = StudentT95(values.size()) * sd / std::sqrt(double(values.size()));
    s.sd = sd;
    s.ci_low = mean - half;
    s.ci_high = mean + half;
  }
  return s;
}

double StudentT95(std::size_t n) {
  // Sweeps ask for the same few n again and again (one per seed count): each computed once.
  static std::mutex mutex;
  static std::map<std::size_t, double> cached;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto [it, inserted] = cached.try_emplace(n, 0.0);
  if (inserted) {
    const boost::math::students_t_distribution<double> t(static_cast<double>(n - 1));
    it->second = boost::math::quantile(boost::math::complement(t, 0.025));
  }
  return it->second;
}

}  // namespace fleetsim
