// libFuzzer target: lm::ArpaModel::load. A model that loads is queried: every word is found
// by its own spelling, and log_prob of every word after short contexts made of the vocabulary
// is finite or -inf, never NaN. Run: tools/fuzz/run.sh arpa
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.h"
#include "fuzz_input.h"
#include "lm/arpa_model.h"

namespace lm = assay::lm;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = assay::fuzz::write_input(data, size, "input.arpa");
  try {
    const auto model = lm::ArpaModel::load(path);
    const lm::WordId n = model->vocabulary_size();
    if (model->unknown() == lm::kNoWord) std::abort();  // ARPA models always have <unk>
    double sum = 0;
    for (lm::WordId w = 0; w < n && w < 64; ++w) {
      if (model->find(model->word(w)) != w) std::abort();
      std::vector<lm::WordId> context;
      for (int k = 0; k < model->order() + 1; ++k) {
        const double p = model->log_prob(w, context);
        if (std::isnan(p)) std::abort();
        sum += p;
        context.push_back((w + k) % n);
      }
    }
    assay::fuzz::consume(sum);
  } catch (const assay::core::Error& e) {
    assay::fuzz::rejected(e);
  }
  return 0;
}
