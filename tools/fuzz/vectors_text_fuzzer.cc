// libFuzzer target: the text word-vector readers (word2vec text, GloVe, fastText .vec). The
// first input byte picks the format and a read limit; the rest is the file. A matrix that is
// read must be consistent: unique words found at their own row, `dim` floats per row, finite
// values. Run: tools/fuzz/run.sh vectors_text
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "fuzz_input.h"
#include "vectors/vector_reader.h"

namespace av = assay::vectors;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static constexpr av::VectorFormat kFormats[] = {
      av::VectorFormat::kWord2vecText, av::VectorFormat::kGlove, av::VectorFormat::kFasttext,
      av::VectorFormat::kWord2vecText};
  const av::VectorFormat format = kFormats[data[0] & 3];
  av::ReadOptions options;
  options.limit = (data[0] >> 2) & 7;  // 0 = all
  const std::string& path = assay::fuzz::write_input(data + 1, size - 1, "input.vec");
  try {
    av::ReadStats stats;
    const av::EmbeddingMatrix m = av::read_vectors(path, format, options, &stats);
    if (options.limit != 0 && m.size() > options.limit) std::abort();
    double sum = 0;
    for (std::size_t i = 0; i < m.size(); ++i) {
      const auto found = m.find(m.word(i));
      if (!found || *found != i) std::abort();
      const auto row = m.row(i);
      if (row.size() != m.dim()) std::abort();
      for (float v : row) {
        if (!std::isfinite(v)) std::abort();
        sum += v;
      }
    }
    assay::fuzz::consume(sum);
  } catch (const assay::core::Error& e) {
    assay::fuzz::rejected(e);
  }
  return 0;
}
