// Times modification-set generation: for each heuristic, a set of --size modifications
// generated --repeats times (each with its own seed) from the influence of one trained
// algorithm; prints the median and max in milliseconds, plus the one-off influence time.
// Usage: stability_set_bench DATA_SPEC [ALGORITHM] [SIZE] [REPEATS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "recsys/data_spec.h"
#include "stability/algorithm_baseline.h"
#include "stability/heuristic.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace assay;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DATA_SPEC [ALGORITHM] [SIZE] [REPEATS]\n", argv[0]);
    return 2;
  }
  try {
    const std::string algorithm = argc > 2 ? argv[2] : "funk-svd";
    const std::size_t size = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 100;
    const std::size_t repeats = argc > 4 ? std::strtoul(argv[4], nullptr, 10) : 21;
    const auto data = recsys::load_ratings(argv[1]);
    auto start = std::chrono::steady_clock::now();
    const auto top = stability::train_and_recommend(data, algorithm, 1, 10, 1);
    const double train = seconds_since(start);
    start = std::chrono::steady_clock::now();
    const auto influence = stability::compute_influence(data, top);
    const double influence_s = seconds_since(start);
    std::printf("data %s: %zu users, %zu items, %zu ratings; %s train+top-10 %.3f s\n", argv[1],
                data.n_users(), data.n_items(), data.n_ratings(), algorithm.c_str(), train);
    std::printf("influence models (once per algorithm): %.3f ms\n", influence_s * 1e3);
    std::printf("%-11s %8s %10s %10s\n", "heuristic", "n", "median_ms", "max_ms");
    for (const auto h : stability::all_heuristics()) {
      std::vector<double> times;
      std::size_t produced = 0;
      for (std::size_t r = 0; r < repeats; ++r) {
        start = std::chrono::steady_clock::now();
        const auto mods =
            stability::generate_modifications(h, data, influence, size, core::derive_seed(7, r));
        times.push_back(seconds_since(start));
        produced = mods.size();
      }
      std::sort(times.begin(), times.end());
      std::printf("%-11s %8zu %10.3f %10.3f%s\n", std::string(stability::to_string(h)).c_str(),
                  produced, times[times.size() / 2] * 1e3, times.back() * 1e3,
                  times[times.size() / 2] * 1e3 <= 10 ? "" : "  (over the 10 ms target)");
    }
  } catch (const core::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
