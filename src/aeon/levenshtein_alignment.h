// Levenshtein alignment of two token-id sequences and AEON's edit patches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace assay::aeon {

enum class EditKind { kSubstitute, kDelete, kInsert };

// One edit of the minimal script turning `a` into `b`: a_pos indexes `a` (for an insertion,
// the position in `a` before which b[b_pos] is inserted), b_pos likewise in `b`.
struct Edit {
  EditKind kind;
  std::size_t a_pos;
  std::size_t b_pos;
};

// A minimal edit script (unit costs) in left-to-right order. Ties in the backtrace prefer a
// substitution/match, then a deletion, then an insertion. O(|a|·|b|) time and memory.
std::vector<Edit> levenshtein_edits(std::span<const std::int32_t> a, std::span<const std::int32_t> b);

// Half-open token ranges of a patch in both sequences.
struct Patch {
  std::size_t a_begin, a_end, b_begin, b_end;
};

// AEON's patches: every edit at (i, j) opens [max(i−radius, 0), i+radius) in `a` and the same
// around j in `b` (clipped to the sequence lengths, as the reference code's slicing does);
// consecutive patches merge when their ranges overlap in either sequence.
std::vector<Patch> edit_patches(const std::vector<Edit>& edits, std::size_t a_len, std::size_t b_len,
                                std::size_t radius = 2);

}  // namespace assay::aeon
