// Analogy search speed over a generated matrix (seeded normal values, normalised rows):
// one query at a time (sgemv) against batches (sgemm), and a load check of the shared
// GoogleNews and GloVe subsets.
//   vectors_bench [--rows N] [--dim D] [--queries Q] [--repeats R] [--seed S] [--shared DIR]
// Prints one line per measurement: name, median ms per query over R repeats, and the ratio.
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "vectors/similarity_search.h"
#include "vectors/vector_reader.h"

namespace {

using Clock = std::chrono::steady_clock;
using assay::vectors::EmbeddingMatrix;
using assay::vectors::SimilarityQuery;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string word(std::size_t i) {
  std::string s = "w";
  s += std::to_string(i);
  return s;
}

EmbeddingMatrix generate(std::size_t rows, std::size_t dim, std::uint64_t seed) {
  std::vector<std::string> words(rows);
  for (std::size_t i = 0; i < rows; ++i) words[i] = word(i);
  std::vector<float> values(rows * dim);
  assay::core::Rng rng(seed);
  for (float& v : values) v = static_cast<float>(rng.normal());
  return EmbeddingMatrix(std::move(words), std::move(values), dim);
}

void load_check(const std::string& shared) {
  struct File {
    const char* rel;
    const char* probe;
  };
  for (const File f : {File{"/word-vectors/word2vec-googlenews-300d.garg-subset.txt", "nurse"},
                       File{"/word-vectors/glove.twitter.27B.25d.subset.txt", "king"}}) {
    const auto t0 = Clock::now();
    const auto m = assay::vectors::read_vectors(shared + f.rel,
                                                assay::vectors::VectorFormat::kWord2vecText);
    const double ms = ms_since(t0);
    const auto nn = assay::vectors::most_similar(m, assay::vectors::neighbor_query(f.probe));
    std::printf("load %-55s %7zu x %3zu in %7.1f ms; nearest to %s: %s, %s\n", f.rel, m.size(),
                m.dim(), ms, f.probe, m.word(nn[0].index).c_str(), m.word(nn[1].index).c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t rows = 300000, dim = 300, n_queries = 64, repeats = 5;
  std::uint64_t seed = 20261201;
  std::string shared;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const char* v = argv[i + 1];
    if (k == "--rows") rows = std::strtoull(v, nullptr, 10);
    else if (k == "--dim") dim = std::strtoull(v, nullptr, 10);
    else if (k == "--queries") n_queries = std::strtoull(v, nullptr, 10);
    else if (k == "--repeats") repeats = std::strtoull(v, nullptr, 10);
    else if (k == "--seed") seed = std::strtoull(v, nullptr, 10);
    else if (k == "--shared") shared = v;
  }
  try {
    if (!shared.empty()) load_check(shared);
    auto t0 = Clock::now();
    const auto m = generate(rows, dim, seed);
    std::printf("generated %zu x %zu matrix (seed %llu) in %.0f ms\n", rows, dim,
                static_cast<unsigned long long>(seed), ms_since(t0));
    std::vector<SimilarityQuery> queries;
    assay::core::Rng pick(seed, 1);
    for (std::size_t q = 0; q < n_queries; ++q) {
      queries.push_back(assay::vectors::analogy_query(word(pick.below(rows)), word(pick.below(rows)),
                                                      word(pick.below(rows))));
    }
    assay::vectors::SearchOptions o;
    o.top_k = 10;
    std::vector<double> single_ms, batch_ms, bare_ms;
    std::vector<float> bare_scores(rows), x(dim, 1.0f / static_cast<float>(dim));
    std::size_t mismatches = 0;
    for (std::size_t r = 0; r < repeats; ++r) {
      std::vector<std::vector<assay::vectors::Neighbor>> one(n_queries);
      t0 = Clock::now();
      for (std::size_t q = 0; q < n_queries; ++q) one[q] = assay::vectors::most_similar(m, queries[q], o);
      single_ms.push_back(ms_since(t0) / static_cast<double>(n_queries));
      // Peer: one bare sgemv over the whole matrix (the memory-bandwidth floor of a query).
      t0 = Clock::now();
      cblas_sgemv(CblasRowMajor, CblasNoTrans, static_cast<int>(rows), static_cast<int>(dim), 1.0f,
                  m.data(), static_cast<int>(dim), x.data(), 1, 0.0f, bare_scores.data(), 1);
      bare_ms.push_back(ms_since(t0));
      t0 = Clock::now();
      const auto batch = assay::vectors::most_similar_batch(m, queries, o);
      batch_ms.push_back(ms_since(t0) / static_cast<double>(n_queries));
      for (std::size_t q = 0; q < n_queries; ++q) {
        for (std::size_t k = 0; k < one[q].size(); ++k) {
          mismatches += one[q][k].index != batch[q][k].index &&
                        one[q][k].similarity != batch[q][k].similarity;
        }
      }
    }
    const double s = median(single_ms), b = median(batch_ms), bare = median(bare_ms);
    std::printf("peer: bare sgemv over %zu x %zu: %8.3f ms (single query = %.2fx of it)\n", rows,
                dim, bare, s / bare);
    std::printf("analogy single  (sgemv): %8.3f ms/query  (median of %zu x %zu queries)\n", s,
                repeats, n_queries);
    std::printf("analogy batched (sgemm): %8.3f ms/query  (blocks of %zu)\n", b, o.batch_block);
    std::printf("batched speed-up: %.2fx; single vs batched rank mismatches (not ties): %zu\n",
                s / b, mismatches);
    std::printf("target <= 15 ms/query: single %s, batched %s\n", s <= 15 ? "met" : "MISSED",
                b <= 15 ? "met" : "MISSED");
  } catch (const assay::core::Error& e) {
    std::fprintf(stderr, "vectors_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
