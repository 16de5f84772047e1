// A fixed-size array of trivially copyable values for the large, short-lived buffers of model
// fitting (a similarity matrix rebuilt at every retraining). From 2 MiB up it is mapped
// directly and asked to use transparent huge pages (madvise), so filling it takes a few page
// faults instead of one per 4 KiB page: on this project's virtual machines a fault costs
// microseconds, and a fresh 11 MB matrix per fit took ~10% of item-item's time in faults.
// The memory starts zeroed (fresh anonymous pages; smaller arrays are value-initialised), so
// callers need not clear it. huge_page_resource() hands the same memory to std::pmr
// containers and arenas.
#pragma once

#include <cstddef>
#include <memory_resource>
#include <type_traits>
#include <utility>

namespace assay::core {

namespace detail {
// Zeroed bytes, page-mapped from kHugeThreshold up; nullptr only for 0 bytes. Throws
// std::bad_alloc.
void* huge_alloc(std::size_t bytes);
void huge_free(void* p, std::size_t bytes);
inline constexpr std::size_t kHugeThreshold = std::size_t{2} << 20;
}  // namespace detail

// A memory resource over the same allocation (zeroed; from 2 MiB up on huge pages where the
// kernel allows), for the caches that grow large while a long run fills them: a
// std::pmr::monotonic_buffer_resource with this upstream takes its chunks from it. Alignment up
// to alignof(std::max_align_t). Process-wide and thread-safe.
std::pmr::memory_resource* huge_page_resource();

template <class T>
class HugeArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  HugeArray() = default;
  explicit HugeArray(std::size_t n)
      : data_(static_cast<T*>(detail::huge_alloc(n * sizeof(T)))), size_(n) {}
  HugeArray(HugeArray&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  HugeArray& operator=(HugeArray&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  HugeArray(const HugeArray&) = delete;
  HugeArray& operator=(const HugeArray&) = delete;
  ~HugeArray() { release(); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  void release() {
    detail::huge_free(data_, size_ * sizeof(T));
    data_ = nullptr;
    size_ = 0;
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace assay::core
