#include "pathcov/format/TestedPathCache.h"

#include "pathcov/core/Fnv1a.h"

#include <algorithm>
#include <cstring>

namespace pathcov {

namespace {

// Version 2 added the trailing checksum; version 3 caches corpora of format
// 2 only: an older cache of an older corpus must not outlive its identities;
// version 4 adds each path's count, version 5 the optimization option;
// version 6 is an index keyed by the corpus's stamp, checked per bucket.
constexpr char kMagic[8] = {'p', 'c', 'o', 'v', 'i', 'd', 'x', '7'};
// Words after the magic: the stamp (5), buckets, file size, checksum.
constexpr size_t kHeaderSize = 8 + 8 * 8;
constexpr size_t kBucketEntrySize = 3 * 8;

void put(std::string &out, uint64_t v) {
  char bytes[8];
  std::memcpy(bytes, &v, 8);
  out.append(bytes, 8);
}

void put(std::string &out, const std::string &text) {
  put(out, text.size());
  out += text;
}

uint64_t word(std::string_view bytes, size_t at) {
  uint64_t v;
  std::memcpy(&v, bytes.data() + at, 8);
  return v;
}

uint64_t bucketOf(std::string_view identity, uint64_t buckets) {
  return fnv1a64(identity) & (buckets - 1);
}

uint64_t bucketChecksum(uint64_t offset, uint64_t length, std::string_view records) {
  Fnv1a h;
  h.addWord(offset);
  h.addWord(length);
  h.add(records);
  return h.value();
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
  bool get(std::string_view &text) {
    uint64_t size;
    if (!get(size) || size > rest_.size())
      return false;
    text = rest_.substr(0, size);
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

// The next record of a bucket into `identity` and `versions`; false when
// malformed.
bool readRecord(Reader &in, std::string_view &identity,
                std::vector<TestedPaths> &versions) {
  uint64_t count;
  if (!in.get(identity) || !in.count(count, 24))
    return false;
  versions.assign(count, {});
  for (TestedPaths &tested : versions) {
    std::string_view checksum, optimization;
    uint64_t ids;
    if (!in.get(checksum) || !in.get(optimization) || !in.count(ids, 16))
      return false;
    tested.checksum = checksum;
    tested.optimization = optimization;
    tested.ids.resize(ids);
    tested.counts.resize(ids);
    for (uint64_t i = 0; i < ids; ++i)
      // As readTestedPaths left them: ascending, each once.
      if (!in.get(tested.ids[i]) || !in.get(tested.counts[i]) ||
          (i > 0 && tested.ids[i] <= tested.ids[i - 1]))
        return false;
  }
  return true;
}

} // namespace

std::string encodeTestedPathCache(const TestedPathIndex &index,
                                  const CorpusStamp &stamp) {
  uint64_t buckets = 1;
  while (buckets < index.size() / 2)
    buckets *= 2;
  // The records in bucket order, each bucket's in the index's order,
  // written once into the output after the header and the bucket table
  // (filled in last): a string per bucket cost a million allocations and
  // a copy of the whole.
  using Entry = TestedPathIndex::value_type;
  std::vector<std::pair<uint64_t, const Entry *>> byBucket;
  byBucket.reserve(index.size());
  for (const Entry &entry : index)
    byBucket.emplace_back(bucketOf(entry.first, buckets), &entry);
  std::stable_sort(byBucket.begin(), byBucket.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  const uint64_t recordsAt = kHeaderSize + buckets * kBucketEntrySize;
  std::string out(recordsAt, '\0');
  std::vector<uint64_t> bucketStart(buckets + 1, 0);
  size_t next = 0;
  for (uint64_t b = 0; b < buckets; ++b) {
    bucketStart[b] = out.size();
    for (; next < byBucket.size() && byBucket[next].first == b; ++next) {
      const auto &[identity, versions] = *byBucket[next].second;
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
  }
  bucketStart[buckets] = out.size();
  const auto set = [&out](size_t at, uint64_t v) { std::memcpy(&out[at], &v, 8); };
  std::memcpy(&out[0], kMagic, sizeof kMagic);
  size_t at = sizeof kMagic;
  for (const uint64_t v : {stamp.device, stamp.inode, stamp.size, stamp.modifiedNs,
                           stamp.changedNs, buckets, uint64_t{out.size()}}) {
    set(at, v);
    at += 8;
  }
  set(at, fnv1a64(std::string_view(out).substr(0, at)));
  for (uint64_t b = 0; b < buckets; ++b) {
    const uint64_t offset = bucketStart[b], length = bucketStart[b + 1] - offset;
    const size_t entry = kHeaderSize + b * kBucketEntrySize;
    set(entry, offset);
    set(entry + 8, length);
    set(entry + 16, bucketChecksum(offset, length,
                                   std::string_view(out).substr(offset, length)));
  }
  return out;
}

std::optional<CorpusStamp> resealTestedPathCache(std::string &bytes) {
  if (bytes.size() < kHeaderSize)
    return std::nullopt;
  const auto set = [&bytes](size_t at, uint64_t v) { std::memcpy(&bytes[at], &v, 8); };
  set(kHeaderSize - 8, fnv1a64(std::string_view(bytes).substr(0, kHeaderSize - 8)));
  const uint64_t buckets = word(bytes, 48);
  for (uint64_t b = 0;
       b < buckets && b < (bytes.size() - kHeaderSize) / kBucketEntrySize; ++b) {
    const size_t entry = kHeaderSize + b * kBucketEntrySize;
    const uint64_t offset = word(bytes, entry), length = word(bytes, entry + 8);
    if (offset <= bytes.size() && length <= bytes.size() - offset)
      set(entry + 16, bucketChecksum(offset, length,
                                     std::string_view(bytes).substr(offset, length)));
  }
  return CorpusStamp{word(bytes, 8), word(bytes, 16), word(bytes, 24),
                     word(bytes, 32), word(bytes, 40)};
}

std::optional<TestedPathCache> TestedPathCache::open(std::string_view bytes,
                                                     const CorpusStamp &stamp) {
  if (bytes.size() < kHeaderSize ||
      std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0 ||
      word(bytes, kHeaderSize - 8) != fnv1a64(bytes.substr(0, kHeaderSize - 8)))
    return std::nullopt;
  const CorpusStamp written{word(bytes, 8), word(bytes, 16), word(bytes, 24),
                            word(bytes, 32), word(bytes, 40)};
  const uint64_t buckets = word(bytes, 48), size = word(bytes, 56);
  if (!(written == stamp) || size != bytes.size() || buckets == 0 ||
      (buckets & (buckets - 1)) != 0 ||
      buckets > (bytes.size() - kHeaderSize) / kBucketEntrySize)
    return std::nullopt;
  return TestedPathCache(bytes, buckets);
}

std::optional<std::string_view> TestedPathCache::bucket(uint64_t b) const {
  const size_t entry = kHeaderSize + b * kBucketEntrySize;
  const uint64_t offset = word(bytes_, entry), length = word(bytes_, entry + 8);
  if (offset > bytes_.size() || length > bytes_.size() - offset)
    return std::nullopt;
  const std::string_view records = bytes_.substr(offset, length);
  if (word(bytes_, entry + 16) != bucketChecksum(offset, length, records))
    return std::nullopt;
  return records;
}

std::optional<std::vector<TestedPaths>>
TestedPathCache::find(std::string_view identity) const {
  const std::optional<std::string_view> records =
      bucket(bucketOf(identity, buckets_));
  if (!records)
    return std::nullopt;
  Reader in(*records);
  std::string_view name;
  std::vector<TestedPaths> versions;
  while (!in.atEnd()) {
    if (!readRecord(in, name, versions))
      return std::nullopt;
    if (name == identity)
      return versions;
  }
  return std::vector<TestedPaths>{};
}

std::optional<TestedPathIndex> TestedPathCache::decodeAll() const {
  TestedPathIndex index;
  for (uint64_t b = 0; b < buckets_; ++b) {
    const std::optional<std::string_view> records = bucket(b);
    if (!records)
      return std::nullopt;
    Reader in(*records);
    std::string_view name;
    std::vector<TestedPaths> versions;
    while (!in.atEnd())
      if (!readRecord(in, name, versions) || bucketOf(name, buckets_) != b ||
          !index.emplace(std::string(name), std::move(versions)).second)
        return std::nullopt;
  }
  return index;
}

} // namespace pathcov
