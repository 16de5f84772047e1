// hf_classifier_bench DIR TEXTS --threads N --reps R --batch B: the `bert:` classifier
// (models::BertClassifier: tokenisation, encoder, head, softmax) on every line of TEXTS in
// batches of B, N OpenBLAS threads. Prints one JSON line: load_ms and the median of R runs
// (after one warm-up) in predict_ms. Used by bench/bert/run_classifiers.sh.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "lm/bert_model.h"
#include "models/bert_classifier.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: hf_classifier_bench DIR TEXTS [--threads N] [--reps R] [--batch B]\n");
    return 2;
  }
  int threads = 2, reps = 5, batch = 32;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--batch")) batch = std::atoi(argv[i + 1]);
  }
  if (threads < 1 || reps < 1 || batch < 1) {
    std::fprintf(stderr, "--threads, --reps and --batch must be positive\n");
    return 2;
  }
  assay::lm::set_blas_threads(threads);
  std::ifstream in(argv[2]);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", argv[2]);
    return 2;
  }
  std::vector<std::string> texts;
  for (std::string line; std::getline(in, line);) texts.push_back(line);
  const auto t0 = Clock::now();
  assay::models::BertClassifier model(argv[1], static_cast<std::size_t>(batch));
  const double load_ms = ms_since(t0);
  double checksum = 0;
  for (const auto& p : model.predict(texts)) checksum += p[0];  // warm-up
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    const auto t = Clock::now();
    const auto probs = model.predict(texts);
    times.push_back(ms_since(t));
    checksum += probs[0][0];
  }
  std::sort(times.begin(), times.end());
  std::printf(
      "{\"dir\": \"%s\", \"texts\": %zu, \"threads\": %d, \"batch\": %d, \"load_ms\": %.1f, "
      "\"predict_ms\": %.1f, \"checksum\": %.6f}\n",
      argv[1], texts.size(), threads, batch, load_ms, times[times.size() / 2], checksum);
  return 0;
}
