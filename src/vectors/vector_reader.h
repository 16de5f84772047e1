// Readers for word-vector files:
//   kWord2vecText  "count dim" header, then "word v1 .. vdim" per line (gensim's
//                  load_word2vec_format(binary=False)); fastText .vec files are this format
//   kFasttext      the same layout, named separately for the command line
//   kGlove         no header: "word v1 .. vdim" per line, dim taken from the first line
//   kWord2vecBinary "count dim\n" header, then per word: the word, a space, dim little-endian
//                  float32 and an optional '\n' (the original word2vec -binary 1 output)
// Text files are read through core::LineReader; bad content is a core::ParseError at
// file:line[:column] (wrong value count, non-numeric or non-finite values, a header that does
// not match the lines, invalid UTF-8). The binary reader checks every size against the file
// length before reading or allocating, and reports a truncated file with the byte offset.
// Duplicate words keep their first vector (gensim's rule); the later ones are counted in
// ReadStats with the location of the first.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "vectors/embedding_matrix.h"

namespace assay::vectors {

enum class VectorFormat { kWord2vecText, kWord2vecBinary, kGlove, kFasttext };

// "word2vec" (text), "word2vec-bin", "glove", "fasttext". Throws core::UsageError otherwise.
VectorFormat parse_vector_format(std::string_view name);
std::string_view to_string(VectorFormat format);

struct ReadOptions {
  // Read only the first `limit` vectors (0 = all), like gensim's `limit`.
  std::size_t limit = 0;
};

struct ReadStats {
  std::size_t n_duplicates = 0;
  std::string first_duplicate;  // "file:line: word" (or "file at byte N: word")
};

// Throws core::IoError (cannot read), core::ParseError (malformed).
EmbeddingMatrix read_vectors(const std::string& path, VectorFormat format,
                             const ReadOptions& options = {}, ReadStats* stats = nullptr);

}  // namespace assay::vectors
