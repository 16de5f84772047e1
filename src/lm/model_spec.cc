#include "lm/model_spec.h"

#include <string>

#include "core/error.h"
#include "lm/arpa_model.h"
#include "lm/sphinx_model.h"

namespace assay::lm {

std::unique_ptr<NgramModel> open_ngram_model(std::string_view spec) {
  if (spec == "cmu") return SphinxModel::load(kCmuTrigramPath);
  if (spec.starts_with("arpa:") && spec.size() > 5) {
    return ArpaModel::load(std::string(spec.substr(5)));
  }
  if (spec.starts_with("sphinx:") && spec.size() > 7) {
    return SphinxModel::load(std::string(spec.substr(7)));
  }
  throw core::UsageError("unknown language model '" + std::string(spec) +
                         "': expected cmu, arpa:FILE or sphinx:FILE");
}

}  // namespace assay::lm
