// The AVX-512 walk (run-time dispatch; the build targets baseline x86-64). Sixteen 16-bit ids
// at a time are widened to 32-bit lanes; each lane picks its bitmap word from the 64 32-bit
// words in four registers (two two-register permutes and a blend), shifts its bit down and
// tests it; the hit positions are compressed and stored, the count advances by the popcount.
#include <bit>

#include "recsys/kernels/neighbor_walk.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ASSAY_NEIGHBOR_WALK_AVX512 1
#endif

namespace assay::recsys::kernels {

#ifndef ASSAY_NEIGHBOR_WALK_AVX512

std::size_t walk_rated_avx512(const std::uint16_t*, std::size_t, const std::uint64_t*, std::size_t,
                              std::uint32_t*) {
  return 0;
}

#else

__attribute__((target("avx512f"))) std::size_t walk_rated_avx512(const std::uint16_t* ids,
                                                                 std::size_t len,
                                                                 const std::uint64_t* rated_bits,
                                                                 std::size_t k,
                                                                 std::uint32_t* hits) {
  static_assert(kBitmapWords == 32, "four registers of sixteen 32-bit words");
  static_assert(kWalkSlack >= 16, "a step stores sixteen positions");
  // The bitmap as 64 little-endian 32-bit words: bit i is bit i % 32 of word i / 32.
  const __m512i t0 = _mm512_loadu_si512(rated_bits), t1 = _mm512_loadu_si512(rated_bits + 8),
                t2 = _mm512_loadu_si512(rated_bits + 16), t3 = _mm512_loadu_si512(rated_bits + 24);
  // The all-lanes masked forms: GCC 12 warns (maybe-uninitialized) about the plain ones'
  // undefined passthrough.
  constexpr __mmask16 kAll = 0xFFFF;
  const __m512i low5 = _mm512_set1_epi32(31), one = _mm512_set1_epi32(1),
                upper = _mm512_set1_epi32(32), step = _mm512_set1_epi32(16);
  __m512i position = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  std::size_t found = 0, p = 0;
  for (; p + 16 <= len; p += 16) {
    const __m512i id = _mm512_maskz_cvtepu16_epi32(
        kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ids + p)));
    const __m512i word_index = _mm512_maskz_srli_epi32(kAll, id, 5);
    // permutex2var uses the index's low five bits (word 0-31 of the pair); bit 5 picks the pair.
    const __m512i lo = _mm512_permutex2var_epi32(t0, word_index, t1);
    const __m512i hi = _mm512_permutex2var_epi32(t2, word_index, t3);
    const __m512i word = _mm512_mask_blend_epi32(_mm512_test_epi32_mask(word_index, upper), lo, hi);
    const __m512i bit = _mm512_maskz_srlv_epi32(kAll, word, _mm512_and_si512(id, low5));
    const __mmask16 hit = _mm512_test_epi32_mask(bit, one);
    _mm512_storeu_si512(hits + found, _mm512_maskz_compress_epi32(hit, position));
    found += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(hit)));
    position = _mm512_add_epi32(position, step);
    if (found >= k) return k;  // the first k stored positions are the answer
  }
  for (; p < len; ++p) {
    const std::uint32_t id = ids[p];
    hits[found] = static_cast<std::uint32_t>(p);
    found += (rated_bits[id >> 6] >> (id & 63)) & 1;
    if (found == k) break;
  }
  return found;
}

#endif

}  // namespace assay::recsys::kernels
