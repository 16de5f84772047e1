// The word2vec binary format reader behind read_vectors (see vector_reader.h). Every size is
// checked against the file length before anything is allocated or read; a short file is a
// ParseError with the byte offset where data is missing.
#pragma once

#include <string>

#include "vectors/embedding_matrix.h"
#include "vectors/vector_reader.h"

namespace assay::vectors::detail {

EmbeddingMatrix read_word2vec_binary(const std::string& path, const ReadOptions& options,
                                     ReadStats* stats);

}  // namespace assay::vectors::detail
