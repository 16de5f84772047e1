#include "core/huge_array.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#define ASSAY_HUGE_ARRAY_MMAP 1
#endif

namespace assay::core::detail {
namespace {
// Whole huge pages.
std::size_t mapped_size(std::size_t bytes) {
  return (bytes + kHugeThreshold - 1) & ~(kHugeThreshold - 1);
}
}  // namespace

void* huge_alloc(std::size_t bytes) {
  if (bytes == 0) return nullptr;
#ifdef ASSAY_HUGE_ARRAY_MMAP
  if (bytes >= kHugeThreshold) {
    // Huge pages back only the 2 MiB-aligned parts of a mapping: map one huge page more,
    // then unmap the unaligned head and tail.
    const std::size_t size = mapped_size(bytes);
    void* raw = mmap(nullptr, size + kHugeThreshold, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const auto base = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (base + kHugeThreshold - 1) & ~(kHugeThreshold - 1);
    if (aligned > base) munmap(raw, aligned - base);
    const std::size_t tail = base + size + kHugeThreshold - (aligned + size);
    if (tail > 0) munmap(reinterpret_cast<void*>(aligned + size), tail);
    void* p = reinterpret_cast<void*>(aligned);
    // Advice only: where transparent huge pages are off this changes nothing.
    (void)madvise(p, size, MADV_HUGEPAGE);
    return p;
  }
#endif
  void* p = std::calloc(bytes, 1);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void huge_free(void* p, std::size_t bytes) {
  if (p == nullptr) return;
#ifdef ASSAY_HUGE_ARRAY_MMAP
  if (bytes >= kHugeThreshold) {
    munmap(p, mapped_size(bytes));
    return;
  }
#endif
  std::free(p);
}

}  // namespace assay::core::detail

namespace assay::core {
namespace {

class HugePageResource final : public std::pmr::memory_resource {
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    if (alignment > alignof(std::max_align_t)) throw std::bad_alloc();
    return detail::huge_alloc(bytes == 0 ? 1 : bytes);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t) override {
    detail::huge_free(p, bytes == 0 ? 1 : bytes);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }
};

}  // namespace

std::pmr::memory_resource* huge_page_resource() {
  // Never destroyed: containers that outlive main's statics may still give memory back.
  static HugePageResource* const resource = new HugePageResource();
  return resource;
}

}  // namespace assay::core
