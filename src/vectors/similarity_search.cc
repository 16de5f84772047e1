#include "vectors/similarity_search.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/check.h"
#include "core/error.h"

namespace assay::vectors {
namespace {

struct ResolvedQuery {
  std::vector<float> mean;            // unit length
  std::vector<std::size_t> excluded;  // rows of the query words (with repeats, like gensim)
};

ResolvedQuery resolve(const EmbeddingMatrix& m, const SimilarityQuery& q) {
  if (q.positive.empty() && q.negative.empty()) {
    throw core::UsageError("a similarity query needs at least one word");
  }
  ResolvedQuery r;
  r.mean.assign(m.dim(), 0.0f);
  double total = 0;
  auto add = [&](const std::string& w, float weight) {
    const auto i = m.find(w);
    if (!i) throw core::UsageError("word '" + w + "' is not in the vocabulary");
    const auto row = m.row(*i);
    for (std::size_t k = 0; k < m.dim(); ++k) r.mean[k] += weight * row[k];
    total += 1.0;
    r.excluded.push_back(*i);
  };
  for (const auto& w : q.positive) add(w, 1.0f);
  for (const auto& w : q.negative) add(w, -1.0f);
  double sum = 0;
  for (float& v : r.mean) {
    v = static_cast<float>(v / total);
    sum += static_cast<double>(v) * v;
  }
  const double len = std::sqrt(sum);
  if (len > 0) {
    for (float& v : r.mean) v = static_cast<float>(v / len);
  }
  return r;
}

std::size_t search_rows(const EmbeddingMatrix& m, const SearchOptions& o) {
  return o.restrict_to == 0 ? m.size() : std::min(o.restrict_to, m.size());
}

// Best first: higher score, then lower index.
bool better(const Neighbor& a, const Neighbor& b) {
  if (a.similarity != b.similarity) return a.similarity > b.similarity;
  return a.index < b.index;
}

// The best `keep` rows seen so far (a heap with the worst on top); rows arrive in chunks.
class TopK {
 public:
  TopK(std::size_t top_k, const ResolvedQuery& q, std::size_t n_rows)
      : top_k_(top_k), query_(&q), keep_(std::min(n_rows, top_k + q.excluded.size())) {
    heap_.reserve(keep_ + 1);
  }

  void push(const float* scores, std::size_t first_row, std::size_t n) {
    if (keep_ == 0) return;
    for (std::size_t j = 0; j < n; ++j) {
      const Neighbor cand{first_row + j, scores[j]};
      if (heap_.size() < keep_) {
        heap_.push_back(cand);
        std::push_heap(heap_.begin(), heap_.end(), better);
      } else if (better(cand, heap_.front())) {
        std::pop_heap(heap_.begin(), heap_.end(), better);
        heap_.back() = cand;
        std::push_heap(heap_.begin(), heap_.end(), better);
      }
    }
  }

  // Best first, without the query words, at most top_k.
  std::vector<Neighbor> take() {
    std::sort(heap_.begin(), heap_.end(), better);
    std::vector<Neighbor> out;
    const auto& ex = query_->excluded;
    for (const Neighbor& nb : heap_) {
      if (std::find(ex.begin(), ex.end(), nb.index) != ex.end()) continue;
      if (out.size() == top_k_) break;
      out.push_back(nb);
    }
    return out;
  }

 private:
  std::size_t top_k_;
  const ResolvedQuery* query_;
  std::size_t keep_;
  std::vector<Neighbor> heap_;
};

// Rows are scored in chunks small enough for the cache, so no score buffer proportional to
// the vocabulary is allocated (and page-faulted) per query.
constexpr std::size_t kRowChunkSingle = 16384;
constexpr std::size_t kRowChunkBatch = 4096;

int as_int(std::size_t v) {
  ASSAY_CHECK(v <= static_cast<std::size_t>(std::numeric_limits<int>::max()));
  return static_cast<int>(v);
}

// most_similar_many's kernel. Queries come in groups of kGroup (the last padded with zero
// queries), each padded with zeros to a multiple of 8 floats.
constexpr std::size_t kGroup = 4;
constexpr std::size_t kLanes = 8;
constexpr std::size_t kRowBlock = 128;  // rows kept in cache while every query group passes

using Lanes = float __attribute__((vector_size(kLanes * sizeof(float))));

// out[j * kGroup + q] = row (rows + j * d) . query q, for j < n. Each dot product: lane l sums
// row[k] * query[k] for k = l mod 8 in increasing k (a row's last partial chunk is read into
// zeroed lanes), then ((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7)). The AVX2 clone does
// the same operations as the default one, lane for lane (no contraction: -ffp-contract=off).
__attribute__((target_clones("avx2", "default"))) void dot_group(const float* rows, std::size_t n,
                                                                 std::size_t d, const float* q,
                                                                 std::size_t padded, float* out) {
  const std::size_t full = d / kLanes, rest = d % kLanes;
  for (std::size_t j = 0; j < n; ++j) {
    const float* r = rows + j * d;
    Lanes a0 = {}, a1 = {}, a2 = {}, a3 = {};
    for (std::size_t c = 0; c < full; ++c) {
      Lanes x, y0, y1, y2, y3;
      std::memcpy(&x, r + c * kLanes, sizeof x);
      std::memcpy(&y0, q + c * kLanes, sizeof y0);
      std::memcpy(&y1, q + padded + c * kLanes, sizeof y1);
      std::memcpy(&y2, q + 2 * padded + c * kLanes, sizeof y2);
      std::memcpy(&y3, q + 3 * padded + c * kLanes, sizeof y3);
      a0 += x * y0;
      a1 += x * y1;
      a2 += x * y2;
      a3 += x * y3;
    }
    if (rest) {
      Lanes x = {}, y0, y1, y2, y3;
      std::memcpy(&x, r + full * kLanes, rest * sizeof(float));
      std::memcpy(&y0, q + full * kLanes, sizeof y0);
      std::memcpy(&y1, q + padded + full * kLanes, sizeof y1);
      std::memcpy(&y2, q + 2 * padded + full * kLanes, sizeof y2);
      std::memcpy(&y3, q + 3 * padded + full * kLanes, sizeof y3);
      a0 += x * y0;
      a1 += x * y1;
      a2 += x * y2;
      a3 += x * y3;
    }
    float* o = out + j * kGroup;
    o[0] = ((a0[0] + a0[4]) + (a0[2] + a0[6])) + ((a0[1] + a0[5]) + (a0[3] + a0[7]));
    o[1] = ((a1[0] + a1[4]) + (a1[2] + a1[6])) + ((a1[1] + a1[5]) + (a1[3] + a1[7]));
    o[2] = ((a2[0] + a2[4]) + (a2[2] + a2[6])) + ((a2[1] + a2[5]) + (a2[3] + a2[7]));
    o[3] = ((a3[0] + a3[4]) + (a3[2] + a3[6])) + ((a3[1] + a3[5]) + (a3[3] + a3[7]));
  }
}

}  // namespace

SimilarityQuery analogy_query(std::string a, std::string b, std::string c) {
  return SimilarityQuery{{std::move(b), std::move(c)}, {std::move(a)}};
}

SimilarityQuery neighbor_query(std::string word) {
  return SimilarityQuery{{std::move(word)}, {}};
}

std::vector<Neighbor> most_similar(const EmbeddingMatrix& matrix, const SimilarityQuery& query,
                                   const SearchOptions& options) {
  const ResolvedQuery q = resolve(matrix, query);
  const std::size_t n_rows = search_rows(matrix, options);
  const std::size_t d = matrix.dim();
  TopK top(options.top_k, q, n_rows);
  std::vector<float> scores(std::min(n_rows, kRowChunkSingle));
  for (std::size_t r0 = 0; r0 < n_rows; r0 += kRowChunkSingle) {
    const std::size_t n = std::min(kRowChunkSingle, n_rows - r0);
    cblas_sgemv(CblasRowMajor, CblasNoTrans, as_int(n), as_int(d), 1.0f, matrix.data() + r0 * d,
                as_int(d), q.mean.data(), 1, 0.0f, scores.data(), 1);
    top.push(scores.data(), r0, n);
  }
  return top.take();
}

std::vector<std::vector<Neighbor>> most_similar_batch(const EmbeddingMatrix& matrix,
                                                      std::span<const SimilarityQuery> queries,
                                                      const SearchOptions& options) {
  std::vector<ResolvedQuery> resolved;
  resolved.reserve(queries.size());
  for (const auto& q : queries) resolved.push_back(resolve(matrix, q));  // all errors first
  const std::size_t n_rows = search_rows(matrix, options);
  const std::size_t d = matrix.dim();
  const std::size_t block = std::max<std::size_t>(1, options.batch_block);
  std::vector<std::vector<Neighbor>> out(queries.size());
  std::vector<float> means, scores;
  for (std::size_t first = 0; first < queries.size(); first += block) {
    const std::size_t nq = std::min(block, queries.size() - first);
    means.resize(nq * d);
    std::vector<TopK> tops;
    tops.reserve(nq);
    for (std::size_t i = 0; i < nq; ++i) {
      std::copy(resolved[first + i].mean.begin(), resolved[first + i].mean.end(),
                means.begin() + static_cast<std::ptrdiff_t>(i * d));
      tops.emplace_back(options.top_k, resolved[first + i], n_rows);
    }
    scores.resize(nq * std::min(n_rows, kRowChunkBatch));
    for (std::size_t r0 = 0; r0 < n_rows; r0 += kRowChunkBatch) {
      const std::size_t n = std::min(kRowChunkBatch, n_rows - r0);
      // scores (nq x n) = means (nq x d) . rows[r0, r0 + n)^T (d x n)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, as_int(nq), as_int(n), as_int(d), 1.0f,
                  means.data(), as_int(d), matrix.data() + r0 * d, as_int(d), 0.0f, scores.data(),
                  as_int(n));
      for (std::size_t i = 0; i < nq; ++i) tops[i].push(scores.data() + i * n, r0, n);
    }
    for (std::size_t i = 0; i < nq; ++i) out[first + i] = tops[i].take();
  }
  return out;
}

std::vector<std::vector<Neighbor>> most_similar_many(const EmbeddingMatrix& matrix,
                                                     std::span<const SimilarityQuery> queries,
                                                     const SearchOptions& options) {
  std::vector<ResolvedQuery> resolved;
  resolved.reserve(queries.size());
  for (const auto& q : queries) resolved.push_back(resolve(matrix, q));  // all errors first
  const std::size_t n_rows = search_rows(matrix, options);
  const std::size_t d = matrix.dim();
  const std::size_t padded = (d + kLanes - 1) / kLanes * kLanes;
  const std::size_t n_groups = (queries.size() + kGroup - 1) / kGroup;
  std::vector<float> means(n_groups * kGroup * padded, 0.0f);
  std::vector<TopK> tops;
  tops.reserve(queries.size());
  for (std::size_t i = 0; i < queries.size(); ++i) {
    std::copy(resolved[i].mean.begin(), resolved[i].mean.end(),
              means.begin() + static_cast<std::ptrdiff_t>(i * padded));
    tops.emplace_back(options.top_k, resolved[i], n_rows);
  }
  std::vector<float> scores(kRowBlock * kGroup), column(kRowBlock);
  for (std::size_t r0 = 0; r0 < n_rows; r0 += kRowBlock) {
    const std::size_t n = std::min(kRowBlock, n_rows - r0);
    for (std::size_t g = 0; g < n_groups; ++g) {
      dot_group(matrix.data() + r0 * d, n, d, means.data() + g * kGroup * padded, padded,
                scores.data());
      for (std::size_t q = 0; q < kGroup && g * kGroup + q < queries.size(); ++q) {
        for (std::size_t j = 0; j < n; ++j) column[j] = scores[j * kGroup + q];
        tops[g * kGroup + q].push(column.data(), r0, n);
      }
    }
  }
  std::vector<std::vector<Neighbor>> out;
  out.reserve(queries.size());
  for (auto& t : tops) out.push_back(t.take());
  return out;
}

}  // namespace assay::vectors
