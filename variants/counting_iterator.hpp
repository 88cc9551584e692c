// An iterator over the integers first, first + 1, …: what the parallel algorithms need to loop over node
// indices without an index array.
//
// Why not std::views::iota? Its iterator is random-access in the C++20 sense only (iterator_concept);
// its legacy iterator_category is input_iterator_tag, and libstdc++'s parallel algorithms dispatch on the
// legacy category — handed iota, std::transform_reduce(std::execution::par_unseq, …) compiles and
// silently runs on one thread. This iterator declares random_access_iterator_tag.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace ladder {

class CountingIterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::int64_t;
  using difference_type = std::int64_t;
  using pointer = const std::int64_t*;
  using reference = std::int64_t;

  CountingIterator() = default;
  explicit CountingIterator(std::int64_t value) : value_(value) {}

  reference operator*() const { return value_; }
  reference operator[](difference_type offset) const { return value_ + offset; }

  CountingIterator& operator++() { return ++value_, *this; }
  CountingIterator operator++(int) { return CountingIterator(value_++); }
  CountingIterator& operator--() { return --value_, *this; }
  CountingIterator operator--(int) { return CountingIterator(value_--); }
  CountingIterator& operator+=(difference_type offset) { return value_ += offset, *this; }
  CountingIterator& operator-=(difference_type offset) { return value_ -= offset, *this; }

  friend CountingIterator operator+(CountingIterator it, difference_type offset) { return it += offset; }
  friend CountingIterator operator+(difference_type offset, CountingIterator it) { return it += offset; }
  friend CountingIterator operator-(CountingIterator it, difference_type offset) { return it -= offset; }
  friend difference_type operator-(CountingIterator lhs, CountingIterator rhs) {
    return lhs.value_ - rhs.value_;
  }
  friend auto operator<=>(CountingIterator, CountingIterator) = default;

 private:
  std::int64_t value_ = 0;
};

}  // namespace ladder
