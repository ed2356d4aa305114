// Running statistics over values of any arithmetic type.
#pragma once

#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace shapes {

template <typename T> class Stats {
public:
  void add(T value) {
    if (values_.empty() || value < min_)
      min_ = value;
    if (values_.empty() || value > max_)
      max_ = value;
    values_.push_back(value);
  }
  std::size_t count() const { return values_.size(); }
  T min() const {
    if (values_.empty())
      throw std::logic_error("min of no values");
    return min_;
  }
  T max() const {
    if (values_.empty())
      throw std::logic_error("max of no values");
    return max_;
  }
  double mean() const {
    if (values_.empty())
      return 0;
    double sum = 0;
    for (T v : values_)
      sum += v;
    return sum / values_.size();
  }
  // The median; the lower one of the middle two for an even count.
  T median() const;

private:
  std::vector<T> values_;
  T min_{}, max_{};
};

template <typename T> T Stats<T>::median() const {
  if (values_.empty())
    throw std::logic_error("median of no values");
  std::vector<T> sorted = values_;
  for (std::size_t i = 1; i < sorted.size(); ++i)
    for (std::size_t j = i; j > 0 && sorted[j] < sorted[j - 1]; --j)
      std::swap(sorted[j], sorted[j - 1]);
  return sorted[(sorted.size() - 1) / 2];
}

// How many shapes of each kind: "circle 2, rect 1".
class Census {
public:
  void count(const std::string &kind) { ++counts_[kind]; }
  std::string text() const;

private:
  std::map<std::string, int> counts_;
};

} // namespace shapes
