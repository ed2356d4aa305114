#include "pathcov/format/TestedPathCache.h"

#include <cstring>

namespace pathcov {

namespace {

// Version 2 added the trailing checksum; version 3 caches corpora of format
// 2 only: an older cache of an older corpus must not outlive its identities;
// version 4 adds each path's count, version 5 the optimization option.
constexpr char kMagic[8] = {'p', 'c', 'o', 'v', 'i', 'd', 'x', '5'};
constexpr size_t kChecksumSize = 8;

void put(std::string &out, uint64_t v) {
  char bytes[8];
  std::memcpy(bytes, &v, 8);
  out.append(bytes, 8);
}

void put(std::string &out, const std::string &text) {
  put(out, text.size());
  out += text;
}

// Reads from a byte range; every read is bounds-checked.
class Reader {
public:
  explicit Reader(std::string_view bytes) : rest_(bytes) {}
  bool get(uint64_t &v) {
    if (rest_.size() < 8)
      return false;
    std::memcpy(&v, rest_.data(), 8);
    rest_.remove_prefix(8);
    return true;
  }
  bool get(std::string &text) {
    uint64_t size;
    if (!get(size) || size > rest_.size())
      return false;
    text.assign(rest_.data(), size);
    rest_.remove_prefix(size);
    return true;
  }
  // At most as many items of `bytesEach` bytes as are left.
  bool count(uint64_t &n, uint64_t bytesEach) {
    return get(n) && n <= rest_.size() / bytesEach;
  }
  bool atEnd() const { return rest_.empty(); }

private:
  std::string_view rest_;
};

} // namespace

std::string encodeTestedPathCache(const TestedPathIndex &index,
                                  uint64_t corpusHash) {
  std::string out(kMagic, sizeof kMagic);
  put(out, corpusHash);
  put(out, index.size());
  for (const auto &[identity, versions] : index) {
    put(out, identity);
    put(out, versions.size());
    for (const TestedPaths &v : versions) {
      put(out, v.checksum);
      put(out, v.optimization);
      put(out, v.ids.size());
      for (size_t i = 0; i < v.ids.size(); ++i) {
        put(out, v.ids[i]);
        put(out, v.counts[i]);
      }
    }
  }
  put(out, fnv1a64(out));
  return out;
}

std::optional<TestedPathIndex> decodeTestedPathCache(std::string_view bytes,
                                                     uint64_t corpusHash) {
  if (bytes.size() < sizeof kMagic + kChecksumSize ||
      std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return std::nullopt;
  // Nothing is used before the checksum over everything else (the corpus
  // hash included) matches: a damaged id would otherwise pass for tested.
  const std::string_view checked = bytes.substr(0, bytes.size() - kChecksumSize);
  uint64_t checksum;
  std::memcpy(&checksum, bytes.data() + checked.size(), kChecksumSize);
  if (checksum != fnv1a64(checked))
    return std::nullopt;
  Reader in(checked.substr(sizeof kMagic));
  uint64_t hash, functions;
  if (!in.get(hash) || hash != corpusHash || !in.count(functions, 16))
    return std::nullopt;
  TestedPathIndex index;
  for (uint64_t f = 0; f < functions; ++f) {
    std::string identity;
    uint64_t versions;
    if (!in.get(identity) || !in.count(versions, 16))
      return std::nullopt;
    std::vector<TestedPaths> &entry = index[identity];
    for (uint64_t v = 0; v < versions; ++v) {
      TestedPaths tested;
      uint64_t ids;
      if (!in.get(tested.checksum) || !in.get(tested.optimization) ||
          !in.count(ids, 16))
        return std::nullopt;
      tested.ids.resize(ids);
      tested.counts.resize(ids);
      for (uint64_t i = 0; i < ids; ++i)
        // As readTestedPaths left them: ascending, each once.
        if (!in.get(tested.ids[i]) || !in.get(tested.counts[i]) ||
            (i > 0 && tested.ids[i] <= tested.ids[i - 1]))
          return std::nullopt;
      entry.push_back(std::move(tested));
    }
  }
  if (!in.atEnd())
    return std::nullopt;
  return index;
}

} // namespace pathcov
