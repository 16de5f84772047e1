// The walk of a sorted neighbour list: the positions of the first k entries whose item the
// user has rated. Item-item's heavy users (many ratings, short walks) spend a quarter of a
// top-k here, so besides the scalar loop there is an AVX-512 one that tests sixteen ids per
// step against the user's rated items held as a bitmap in four registers (catalogues of at
// most kBitmapItems items); both give the same positions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace assay::recsys::kernels {

// Positions p < len, in increasing order, with rated_flag[ids[p]] == 1, stopping at the k-th;
// returns how many (<= k). hits has room for k + 1 entries.
std::size_t walk_rated_scalar(const std::uint16_t* ids, std::size_t len,
                              const std::uint32_t* rated_flag, std::size_t k, std::uint32_t* hits);

// The AVX-512 walk, to be called only where has_avx512() (isa.h): rated_bits holds kBitmapWords
// words (bit i of word i / 64 set when item i is rated; ids must be < kBitmapItems), hits has
// room for k + kWalkSlack entries.
constexpr std::size_t kBitmapItems = 2048;
constexpr std::size_t kBitmapWords = kBitmapItems / 64;
constexpr std::size_t kWalkSlack = 16;
std::size_t walk_rated_avx512(const std::uint16_t* ids, std::size_t len,
                              const std::uint64_t* rated_bits, std::size_t k, std::uint32_t* hits);

}  // namespace assay::recsys::kernels
