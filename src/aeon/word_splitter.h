// The words of a sentence as the offline scorers see them: split on whitespace, lower-cased
// (ASCII), with punctuation stuck to either end of a word split off, as the perturbator's
// tokeniser reads untokenised text ("clean." is "clean" and "."; "(busy," is "(", "busy", ",").
// A clitic keeps its apostrophe ("'s", "'re": what the tokeniser splits off "it's" stays one
// word here, as the CMU trigram spells it).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace assay::aeon {

// `keep_punctuation`: the punctuation split off stays as tokens, one per character (SemEval
// aligns them); else it is dropped, and so is a token without a letter or digit (SynEval: the
// CMU trigram has no punctuation entries).
std::vector<std::string> split_words(std::string_view sentence, bool keep_punctuation);

}  // namespace assay::aeon
