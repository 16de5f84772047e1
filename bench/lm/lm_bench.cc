// CMU trigram speed, the model opened as `assay lm score` opens it (lm::open_ngram_model("cmu"),
// the lock-free SphinxTrie): model load, sentence scoring throughput on a text file (one
// sentence per line), and a full-vocabulary sweep of log P(w | two-word context) — the inner
// loop of the n-gram masked-probability fallback of AEON's SynEval.
//   lm_bench FILE [--repeats R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/line_reader.h"
#include "lm/model_spec.h"
#include "lm/sentence_scorer.h"
#include "lm/sphinx_model.h"

namespace {
using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: lm_bench FILE [--repeats R]\n");
    return 2;
  }
  const std::size_t repeats = argc >= 4 ? std::strtoull(argv[3], nullptr, 10) : 5;
  try {
    auto t0 = Clock::now();
    const auto model = assay::lm::open_ngram_model("cmu");
    std::printf("load %s: %.0f ms\n", assay::lm::kCmuTrigramPath, ms_since(t0));
    std::vector<std::vector<std::string>> sentences;
    assay::core::LineReader lines(argv[1]);
    std::string_view line;
    std::size_t n_words = 0;
    while (lines.next(line)) {
      sentences.push_back(assay::lm::split_words(line));
      n_words += sentences.back().size();
    }
    std::vector<double> score_ms, sweep_ms;
    double checksum = 0;
    const std::vector<assay::lm::WordId> context = {model->find("of"), model->find("the")};
    for (std::size_t r = 0; r < repeats; ++r) {
      t0 = Clock::now();
      for (const auto& s : sentences) checksum += assay::lm::score_sentence(*model, s).log_prob;
      score_ms.push_back(ms_since(t0));
      t0 = Clock::now();
      double sum = 0;
      for (assay::lm::WordId w = 0; w < model->vocabulary_size(); ++w) {
        sum += model->log_prob(w, context);
      }
      checksum += sum;
      sweep_ms.push_back(ms_since(t0));
    }
    const double s = median(score_ms);
    std::printf(
        "score %zu sentences (%zu words): %.1f ms median of %zu = %.0f sentences/s, "
        "%.0f words/s\n",
        sentences.size(), n_words, s, repeats, 1000.0 * static_cast<double>(sentences.size()) / s,
        1000.0 * static_cast<double>(n_words) / s);
    std::printf("vocabulary sweep (%d words, trigram context): %.2f ms median\n",
                model->vocabulary_size(), median(sweep_ms));
    std::printf("(checksum %.3f)\n", checksum);
  } catch (const assay::core::Error& e) {
    std::fprintf(stderr, "lm_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
