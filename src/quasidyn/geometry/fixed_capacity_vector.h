#pragma once
// A sequence of at most N elements stored inside the object: it never touches the heap, is
// copied and moved as a value, and a push_back past N is a bug of the caller (it throws
// std::length_error; every user sizes N for the largest list its algorithm can produce).

#include <array>
#include <cstddef>
#include <stdexcept>

namespace quasidyn {

template <typename T, std::size_t N>
class FixedCapacityVector {
 public:
  static constexpr std::size_t kCapacity = N;

  std::size_t size() const { return size_; }
  static constexpr std::size_t capacity() { return N; }
  bool empty() const { return size_ == 0; }
  T* data() { return items_.data(); }
  const T* data() const { return items_.data(); }
  T& operator[](std::size_t i) { return items_[i]; }
  const T& operator[](std::size_t i) const { return items_[i]; }
  T& back() { return items_[size_ - 1]; }
  const T& back() const { return items_[size_ - 1]; }
  T* begin() { return items_.data(); }
  T* end() { return items_.data() + size_; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }

  void clear() { size_ = 0; }
  void push_back(const T& value) {
    if (size_ == N) throw std::length_error("FixedCapacityVector: push_back past the capacity");
    items_[size_++] = value;
  }
  void pop_back() { --size_; }

 private:
  std::array<T, N> items_{};
  std::size_t size_ = 0;
};

}  // namespace quasidyn
