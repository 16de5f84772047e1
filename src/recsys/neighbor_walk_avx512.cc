// The AVX-512 walk (run-time dispatch; the build targets baseline x86-64). Eight 16-bit ids
// at a time are widened to 64-bit lanes; each lane picks its bitmap word from the 32 words in
// four registers (two two-register permutes and a blend), shifts its bit down and tests it;
// the hit positions are compressed and stored, the count advances by the popcount.
#include <bit>

#include "core/cpu_features.h"
#include "recsys/neighbor_walk.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ASSAY_NEIGHBOR_WALK_AVX512 1
#endif

namespace assay::recsys {

#ifndef ASSAY_NEIGHBOR_WALK_AVX512

bool walk_rated_avx512_available() {
  return false;
}

std::size_t walk_rated_avx512(const std::uint16_t*, std::size_t, const std::uint64_t*, std::size_t,
                              std::uint32_t*) {
  return 0;
}

#else

bool walk_rated_avx512_available() {
  return core::cpu_has_avx512f() && core::cpu_has_avx512vl();
}

__attribute__((target("avx512f,avx512vl"))) std::size_t walk_rated_avx512(
    const std::uint16_t* ids, std::size_t len, const std::uint64_t* rated_bits, std::size_t k,
    std::uint32_t* hits) {
  static_assert(kBitmapWords == 32, "four registers of eight words");
  // The all-lanes masked forms: GCC 12 warns (maybe-uninitialized) about the plain ones'
  // undefined passthrough.
  constexpr __mmask8 kAll = 0xFF;
  const __m512i t0 = _mm512_loadu_si512(rated_bits), t1 = _mm512_loadu_si512(rated_bits + 8),
                t2 = _mm512_loadu_si512(rated_bits + 16), t3 = _mm512_loadu_si512(rated_bits + 24);
  const __m512i low6 = _mm512_set1_epi64(63), one = _mm512_set1_epi64(1),
                upper = _mm512_set1_epi64(16);
  const __m256i step = _mm256_set1_epi32(8);
  __m256i position = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  std::size_t found = 0, p = 0;
  for (; p + 8 <= len; p += 8) {
    const __m512i id = _mm512_maskz_cvtepu16_epi64(
        kAll, _mm_loadu_si128(reinterpret_cast<const __m128i*>(ids + p)));
    const __m512i word_index = _mm512_maskz_srli_epi64(kAll, id, 6);
    // permutex2var uses the index's low four bits (word 0-15 of the pair); bit 4 picks the pair.
    const __m512i lo = _mm512_permutex2var_epi64(t0, word_index, t1);
    const __m512i hi = _mm512_permutex2var_epi64(t2, word_index, t3);
    const __m512i word = _mm512_mask_blend_epi64(_mm512_test_epi64_mask(word_index, upper), lo, hi);
    const __m512i bit = _mm512_maskz_srlv_epi64(kAll, word, _mm512_and_si512(id, low6));
    const __mmask8 hit = _mm512_test_epi64_mask(bit, one);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(hits + found),
                        _mm256_maskz_compress_epi32(hit, position));
    found += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(hit)));
    position = _mm256_add_epi32(position, step);
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

}  // namespace assay::recsys
