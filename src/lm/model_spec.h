// Opens a language model from a short specification, as the command line and the engines'
// options name it:
//   "cmu"            the CMU English trigram of pocketsphinx-en-us (SphinxTrie)
//   "sphinx:FILE"    any file libsphinxbase reads (SphinxTrie: sphinxbase's scores, no lock)
//   "arpa:FILE"      an ARPA text file read by ArpaModel
// Throws core::UsageError for an unknown specification, and what the backend throws otherwise.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "lm/ngram_model.h"

namespace assay::lm {

std::unique_ptr<NgramModel> open_ngram_model(std::string_view spec);

// The file a specification names ("cmu" names kCmuTrigramPath), for readers that take a path
// (aeon's lock-free trie reader reads sphinx binaries and ARPA text alike). Throws
// core::UsageError for an unknown specification.
std::string ngram_model_path(std::string_view spec);

}  // namespace assay::lm
