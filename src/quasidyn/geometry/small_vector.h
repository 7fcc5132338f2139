#pragma once
// A sequence with room for N elements inside the object, so the hot geometry helpers do not
// touch the heap for the usual sizes (a box face has 4 corners, a clipped polygon a few
// more); past N it moves its elements to a std::vector and keeps going, so any size works.
// clear() keeps the std::vector's capacity: an object kept between queries (a scratch
// buffer) stops allocating once it has held its largest size.
// Not copyable or movable (nothing here needs it).

#include <array>
#include <cstddef>
#include <vector>

namespace quasidyn {

template <typename T, std::size_t N>
class SmallVector {
 public:
  SmallVector() = default;
  SmallVector(const SmallVector&) = delete;
  SmallVector& operator=(const SmallVector&) = delete;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return spilled_ ? heap_.data() : inline_.data(); }
  const T* data() const { return spilled_ ? heap_.data() : inline_.data(); }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }

  void clear() {
    heap_.clear();
    spilled_ = false;
    size_ = 0;
  }
  // `value` must not be an element of this sequence.
  void push_back(const T& value) {
    if (!spilled_ && size_ < N) {
      inline_[size_++] = value;
      return;
    }
    Spill();
    heap_.push_back(value);
    ++size_;
  }
  // New elements (when growing) are value-initialised only on the heap path; callers
  // write every element they read.
  void resize(std::size_t count) {
    if (!spilled_ && count <= N) {
      size_ = count;
      return;
    }
    Spill();
    heap_.resize(count);
    size_ = count;
  }

 private:
  void Spill() {
    if (spilled_) return;
    heap_.assign(inline_.begin(), inline_.begin() + static_cast<std::ptrdiff_t>(size_));
    spilled_ = true;
  }

  std::array<T, N> inline_;
  std::vector<T> heap_;
  std::size_t size_ = 0;
  bool spilled_ = false;
};

}  // namespace quasidyn
