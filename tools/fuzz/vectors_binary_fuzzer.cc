// libFuzzer target: the word2vec binary reader. The first input byte is a read limit; the rest
// is the file. Every size in the file is checked against its length before anything is read,
// so ASan catches any read past the mapping. Run: tools/fuzz/run.sh vectors_binary
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
  av::ReadOptions options;
  options.limit = data[0] & 7;  // 0 = all
  const std::string& path = assay::fuzz::write_input(data + 1, size - 1, "input.bin");
  try {
    av::ReadStats stats;
    const av::EmbeddingMatrix m =
        av::read_vectors(path, av::VectorFormat::kWord2vecBinary, options, &stats);
    if (options.limit != 0 && m.size() > options.limit) std::abort();
    double sum = 0;
    for (std::size_t i = 0; i < m.size(); ++i) {
      const auto found = m.find(m.word(i));
      if (!found || *found != i) std::abort();
      for (float v : m.row(i)) sum += v;
      sum += m.norm(i);
    }
    assay::fuzz::consume(sum);
  } catch (const assay::core::Error& e) {
    assay::fuzz::rejected(e);
  }
  return 0;
}
