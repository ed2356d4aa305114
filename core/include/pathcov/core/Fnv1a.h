// FNV-1a, 64 bits: the one hash pathcov keeps on disk (CFG checksums, profile
// ids, corpus-cache keys and checksums, SARIF fingerprints), stable across
// hosts, runs and releases, unlike std::hash.
#pragma once

#include <cstdint>
#include <string_view>

namespace pathcov {

class Fnv1a {
public:
  void add(std::string_view bytes) {
    for (const unsigned char c : bytes) {
      hash_ ^= c;
      hash_ *= 0x100000001b3ull;
    }
  }
  // The 8 bytes of `v`, least significant first (any host's order).
  void addWord(uint64_t v) {
    for (int i = 0; i < 8; ++i, v >>= 8) {
      hash_ ^= v & 0xff;
      hash_ *= 0x100000001b3ull;
    }
  }
  uint64_t value() const { return hash_; }

private:
  uint64_t hash_ = 0xcbf29ce484222325ull;
};

inline uint64_t fnv1a64(std::string_view bytes) {
  Fnv1a h;
  h.add(bytes);
  return h.value();
}

} // namespace pathcov
