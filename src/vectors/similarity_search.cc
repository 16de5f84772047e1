#include "vectors/similarity_search.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/check.h"
#include "core/error.h"

namespace assay::vectors {
namespace {

struct ResolvedQuery {
  std::vector<float> mean;             // unit length
  std::vector<std::size_t> excluded;   // rows of the query words (with repeats, like gensim)
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

std::vector<Neighbor> select_top(const float* scores, std::size_t n_rows,
                                 const ResolvedQuery& q, std::size_t top_k) {
  const std::size_t keep = std::min(n_rows, top_k + q.excluded.size());
  std::vector<Neighbor> heap;  // the `keep` best so far, worst on top
  heap.reserve(keep + 1);
  for (std::size_t j = 0; j < n_rows; ++j) {
    const Neighbor cand{j, scores[j]};
    if (heap.size() < keep) {
      heap.push_back(cand);
      std::push_heap(heap.begin(), heap.end(), better);
    } else if (keep > 0 && better(cand, heap.front())) {
      std::pop_heap(heap.begin(), heap.end(), better);
      heap.back() = cand;
      std::push_heap(heap.begin(), heap.end(), better);
    }
  }
  std::sort(heap.begin(), heap.end(), better);
  std::vector<Neighbor> out;
  for (const Neighbor& nb : heap) {
    if (std::find(q.excluded.begin(), q.excluded.end(), nb.index) != q.excluded.end()) continue;
    if (out.size() == top_k) break;
    out.push_back(nb);
  }
  return out;
}

int as_int(std::size_t v) {
  ASSAY_CHECK(v <= static_cast<std::size_t>(std::numeric_limits<int>::max()));
  return static_cast<int>(v);
}

}  // namespace

SimilarityQuery analogy_query(std::string a, std::string b, std::string c) {
  return SimilarityQuery{{std::move(b), std::move(c)}, {std::move(a)}};
}

SimilarityQuery neighbor_query(std::string word) { return SimilarityQuery{{std::move(word)}, {}}; }

std::vector<Neighbor> most_similar(const EmbeddingMatrix& matrix, const SimilarityQuery& query,
                                   const SearchOptions& options) {
  const ResolvedQuery q = resolve(matrix, query);
  const std::size_t n_rows = search_rows(matrix, options);
  std::vector<float> scores(n_rows);
  if (n_rows > 0) {
    cblas_sgemv(CblasRowMajor, CblasNoTrans, as_int(n_rows), as_int(matrix.dim()), 1.0f,
                matrix.data(), as_int(matrix.dim()), q.mean.data(), 1, 0.0f, scores.data(), 1);
  }
  return select_top(scores.data(), n_rows, q, options.top_k);
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
    for (std::size_t i = 0; i < nq; ++i) {
      std::copy(resolved[first + i].mean.begin(), resolved[first + i].mean.end(),
                means.begin() + static_cast<std::ptrdiff_t>(i * d));
    }
    scores.resize(nq * n_rows);
    if (n_rows > 0) {
      // scores (nq x n_rows) = means (nq x d) . rows^T (d x n_rows)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, as_int(nq), as_int(n_rows), as_int(d),
                  1.0f, means.data(), as_int(d), matrix.data(), as_int(d), 0.0f, scores.data(),
                  as_int(n_rows));
    }
    for (std::size_t i = 0; i < nq; ++i) {
      out[first + i] = select_top(scores.data() + i * n_rows, n_rows, resolved[first + i],
                                  options.top_k);
    }
  }
  return out;
}

}  // namespace assay::vectors
