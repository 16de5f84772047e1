// Opens a language model from a short specification, as the command line and the engines'
// options name it:
//   "cmu"            the CMU English trigram of pocketsphinx-en-us (SphinxModel)
//   "sphinx:FILE"    any file libsphinxbase reads
//   "arpa:FILE"      an ARPA text file read by ArpaModel
// Throws core::UsageError for an unknown specification, and what the backend throws otherwise.
#pragma once

#include <memory>
#include <string_view>

#include "lm/ngram_model.h"

namespace assay::lm {

std::unique_ptr<NgramModel> open_ngram_model(std::string_view spec);

}  // namespace assay::lm
