// A small rule-based sentence splitter for AEON's per-sentence scoring (src/text's splitter,
// written on another branch, can replace it once merged). A sentence ends after a run of
// '.', '!' or '?' (plus closing quotes/brackets) that is followed by whitespace or the end,
// unless the word before a single '.' is a known abbreviation ("mr.", "e.g.", ...) or a single
// letter (an initial). Line breaks also end a sentence. Sentences are returned trimmed; empty
// ones are dropped. This mirrors what NLTK's untrained Punkt does on ordinary prose, not its
// statistics.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace assay::aeon {

std::vector<std::string> split_sentences(std::string_view text);

// Removes the `[[`/`]]` markers that annotation files put around mutated words.
std::string strip_mutation_markers(std::string_view text);

}  // namespace assay::aeon
