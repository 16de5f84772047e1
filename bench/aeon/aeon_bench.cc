// Offline AEON speed: pairs/s of TestCaseScorer (WordNet SemEval + CMU-trigram SynEval of
// both texts) with the reference normaliser ("before": every candidate looked up through
// sphinxbase) and the back-off normaliser ("after": lock-free SphinxTrie), on one and two
// threads, runs interleaved so that the machine's drift hits both alike. Caches are cleared
// before every run; model loading is not timed. Also times SemEval and SynEval apart (one
// thread) to show which half dominates.
//   aeon_bench PAIRS.jsonl [--repeats R] [--before-pairs N] [--threads-list 1,2]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "aeon/ngram_syneval.h"
#include "aeon/test_case.h"
#include "aeon/test_case_scorer.h"
#include "core/error.h"

namespace {
using Clock = std::chrono::steady_clock;
double s_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}
double cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: aeon_bench PAIRS.jsonl [--repeats R] [--before-pairs N]\n");
    return 2;
  }
  std::size_t repeats = 3, before_pairs = 20;
  std::vector<int> thread_counts = {1, 2};
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--repeats"))
      repeats = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--before-pairs"))
      before_pairs = std::strtoull(argv[i + 1], nullptr, 10);
  }
  try {
    namespace aeon = assay::aeon;
    const std::vector<aeon::TestCase> cases = aeon::read_jsonl_pairs(argv[1], true);
    const std::vector<aeon::TestCase> before_cases(
        cases.begin(), cases.begin() + static_cast<long>(std::min(before_pairs, cases.size())));
    double words = 0;
    for (const auto& c : cases) {
      for (const std::string* t : {&c.original, &c.generated})
        words += static_cast<double>(aeon::NgramSynEval::words(*t).size());
    }
    std::printf("%s: %zu pairs, %.1f words a side on average\n", argv[1], cases.size(),
                words / (2.0 * static_cast<double>(cases.size())));
    aeon::TestCaseScorerOptions o;
    auto t0 = Clock::now();
    o.ngram_normaliser = aeon::NgramNormaliser::kEnumerate;
    aeon::TestCaseScorer before(o);
    const double load_before = s_since(t0);
    t0 = Clock::now();
    o.ngram_normaliser = aeon::NgramNormaliser::kBackoff;
    aeon::TestCaseScorer after(o);
    const double load_after = s_since(t0);
    std::printf("load (model + WordNet): before %.2f s, after %.2f s\n", load_before, load_after);
    struct Cell {
      const char* name;
      aeon::TestCaseScorer* scorer;
      const std::vector<aeon::TestCase>* cases;
      int threads;
      std::vector<double> rate, cpu_rate;
      std::vector<aeon::TestCaseScore> scores;
    };
    std::vector<Cell> cells;
    for (int t : thread_counts) cells.push_back({"before", &before, &before_cases, t, {}, {}, {}});
    for (int t : thread_counts) cells.push_back({"after", &after, &cases, t, {}, {}, {}});
    for (std::size_t r = 0; r < repeats; ++r) {
      for (Cell& c : cells) {
        c.scorer->clear_caches();
        t0 = Clock::now();
        const double c0 = cpu_s();
        c.scores = c.scorer->score_all(*c.cases, c.threads);
        c.rate.push_back(static_cast<double>(c.cases->size()) / s_since(t0));
        c.cpu_rate.push_back(static_cast<double>(c.cases->size()) / (cpu_s() - c0));
      }
    }
    std::printf(
        "%-7s %7s %6s %12s %14s   (medians of %zu interleaved runs; caches cleared per run)\n",
        "method", "threads", "pairs", "pairs/s", "pairs/CPU-s", repeats);
    for (const Cell& c : cells)
      std::printf("%-7s %7d %6zu %12.1f %14.1f\n", c.name, c.threads, c.cases->size(),
                  median(c.rate), median(c.cpu_rate));
    const double speedup = median(cells[thread_counts.size()].rate) / median(cells[0].rate);
    std::printf("speed-up after/before, one thread: %.1fx\n", speedup);
    // Same scores: the before cells' cases are a prefix of the after cells'.
    double worst = 0;
    const auto& a = cells[thread_counts.size()].scores;
    const auto& b = cells[0].scores;
    for (std::size_t i = 0; i < b.size(); ++i) {
      worst = std::max({worst, std::abs(a[i].syneval - b[i].syneval),
                        std::abs(a[i].syneval_original - b[i].syneval_original),
                        std::abs(a[i].semeval - b[i].semeval)});
    }
    std::printf("largest |after - before| over the %zu common pairs: %.3g\n", b.size(), worst);
    // Halves apart (one thread, back-off normaliser).
    std::vector<double> sem_s, syn_s;
    for (std::size_t r = 0; r < repeats; ++r) {
      after.clear_caches();
      t0 = Clock::now();
      for (const auto& c : cases) after.semeval_only(c);
      sem_s.push_back(s_since(t0));
      t0 = Clock::now();
      for (const auto& c : cases) after.syneval_only(c);
      syn_s.push_back(s_since(t0));
    }
    const double n = static_cast<double>(cases.size());
    std::printf("halves (after, one thread): SemEval %.2f ms/pair, SynEval %.2f ms/pair\n",
                1e3 * median(sem_s) / n, 1e3 * median(syn_s) / n);
  } catch (const assay::core::Error& e) {
    std::fprintf(stderr, "aeon_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
