#include "lm/model_spec.h"

#include <string>

#include "core/error.h"
#include "lm/arpa_model.h"
#include "lm/sphinx_model.h"
#include "lm/sphinx_trie.h"

namespace assay::lm {

namespace {

[[noreturn]] void unknown(std::string_view spec) {
  throw core::UsageError("unknown language model '" + std::string(spec.substr(0, 200)) +
                         "': expected cmu, arpa:FILE or sphinx:FILE");
}

}  // namespace

std::unique_ptr<NgramModel> open_ngram_model(std::string_view spec) {
  if (spec.starts_with("arpa:") && spec.size() > 5) return ArpaModel::load(ngram_model_path(spec));
  return SphinxTrie::load(ngram_model_path(spec));
}

std::string ngram_model_path(std::string_view spec) {
  if (spec == "cmu") return kCmuTrigramPath;
  if (spec.starts_with("arpa:") && spec.size() > 5) return std::string(spec.substr(5));
  if (spec.starts_with("sphinx:") && spec.size() > 7) return std::string(spec.substr(7));
  unknown(spec);
}

}  // namespace assay::lm
