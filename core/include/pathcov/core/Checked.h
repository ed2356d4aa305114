// Checked 64-bit arithmetic for path counts, path ids and edge weights.
//
// Path counts grow exponentially with the number of branches, so every sum
// and difference the numbering computes goes through these helpers: an
// overflow is reported, never wrapped into a silently wrong profile.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace pathcov {

// Thrown when a numbering quantity does not fit in 64 bits.
class NumberingOverflow : public std::overflow_error {
public:
  explicit NumberingOverflow(const std::string &what)
      : std::overflow_error(what) {}
};

inline int64_t checkedAdd(int64_t a, int64_t b, const char *what) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    throw NumberingOverflow(std::string(what) + ": 64-bit overflow");
  return r;
}

inline int64_t checkedSub(int64_t a, int64_t b, const char *what) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r))
    throw NumberingOverflow(std::string(what) + ": 64-bit overflow");
  return r;
}

inline uint64_t checkedAdd(uint64_t a, uint64_t b, const char *what) {
  uint64_t r;
  if (__builtin_add_overflow(a, b, &r))
    throw NumberingOverflow(std::string(what) + ": 64-bit overflow");
  return r;
}

// Converts an unsigned path quantity to the signed register domain.
inline int64_t toSigned(uint64_t v, const char *what) {
  if (v > static_cast<uint64_t>(INT64_MAX))
    throw NumberingOverflow(std::string(what) + ": does not fit in int64");
  return static_cast<int64_t>(v);
}

// Addition that sticks at UINT64_MAX: counting paths for coverage ratios,
// where "more than 2^64" is an answer, not an error.
inline uint64_t saturatingAdd(uint64_t a, uint64_t b, bool &saturated) {
  uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) {
    saturated = true;
    return UINT64_MAX;
  }
  return r;
}

// The same, when only the sum matters (counts for reports).
inline uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  bool saturated = false;
  return saturatingAdd(a, b, saturated);
}

// Multiplication that sticks at UINT64_MAX, likewise.
inline uint64_t saturatingMul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

// The smallest power of two at least `n` (1 for 0), or 0 when it does not
// fit in 64 bits: table and slot sizes that an AND can index.
inline uint64_t powerOfTwoAtLeast(uint64_t n) {
  if (n > (uint64_t{1} << 63))
    return 0;
  uint64_t p = 1;
  while (p < n)
    p *= 2;
  return p;
}

} // namespace pathcov
