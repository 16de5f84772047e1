// Exact cosine nearest neighbours and 3CosAdd analogies over an EmbeddingMatrix, through BLAS
// (cblas_sgemv for one query, cblas_sgemm for a batch), with gensim's
// KeyedVectors.most_similar semantics:
//   mean = unit( sum_i w_i * unit(v_i) / sum_i |w_i| ),  w = +1 positive, -1 negative words
//   score(j) = row_j . mean over the first `restrict_to` rows (0 = all)
//   the best top_k + n_query_words rows, minus the query words, cut to top_k
// Ties are ordered by row index (gensim's argsort leaves their order unspecified).
// Analogy a : b :: c : ? (3CosAdd) is positive {b, c}, negative {a}; neighbours of w are
// positive {w}. Query words are looked up in the whole vocabulary, even beyond restrict_to.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vectors/embedding_matrix.h"

namespace assay::vectors {

struct SimilarityQuery {
  std::vector<std::string> positive;
  std::vector<std::string> negative;
};

SimilarityQuery analogy_query(std::string a, std::string b, std::string c);
SimilarityQuery neighbor_query(std::string word);

struct SearchOptions {
  std::size_t top_k = 10;
  std::size_t restrict_to = 0;   // search only the first N rows (the N most frequent words)
  std::size_t batch_block = 64;  // queries per sgemm in most_similar_batch
};

struct Neighbor {
  std::size_t index = 0;
  float similarity = 0;
};

// Throws core::UsageError when a query word is not in the vocabulary or a query is empty.
std::vector<Neighbor> most_similar(const EmbeddingMatrix& matrix, const SimilarityQuery& query,
                                   const SearchOptions& options = {});
// Same results as most_similar for each query, computed blockwise with sgemm.
std::vector<std::vector<Neighbor>> most_similar_batch(const EmbeddingMatrix& matrix,
                                                      std::span<const SimilarityQuery> queries,
                                                      const SearchOptions& options = {});
// Same semantics as most_similar, for many queries in one pass over the rows: a block of rows
// stays in cache while every query is dotted with it, so the matrix is read from memory once
// per call instead of once per query. Every score is the same fixed-order float dot product
// (8 interleaved partial sums, then a fixed reduction; plain multiplies and adds, no BLAS), so a
// query's neighbours and cosines are bit-identical whichever other queries share the call, in
// whatever order, and on any x86-64 CPU. Scores agree with most_similar's within 1e-5 (another
// summation order). options.batch_block is not used.
std::vector<std::vector<Neighbor>> most_similar_many(const EmbeddingMatrix& matrix,
                                                     std::span<const SimilarityQuery> queries,
                                                     const SearchOptions& options = {});

}  // namespace assay::vectors
