// A binary index of a corpus's tested paths (readTestedPaths), kept beside
// the corpus. Residual mode reads the corpus once per compilation; a large
// project's corpus is a gigabyte of JSON and thousands of units, so the
// first compilation leaves this index and the others look up only their
// own functions in it, mapped, not read (docs/residual-mode.md).
//
// Layout (native byte order, 64-bit words; the index never leaves the
// machine): a header - the magic "pcovidx7", the corpus's stamp
// (CorpusStamp), the number of buckets (a power of two), the file's size,
// and FNV-1a (fnv1a64) of those words - then a bucket table, then the
// buckets' records. Function `identity` is in bucket
// fnv1a64(identity) & (buckets - 1); a bucket-table entry is the offset and
// length of the bucket's records and FNV-1a of both and of the records. A
// record: the identity, then each version (checksum, -O option, each id
// with its count). The checksums find damage, not forgery: who may have
// written the file is for its reader to check (CachedCorpus.h). Every byte
// of a well-formed index is covered by the header's checksum or by a
// bucket's, and a bucket is checked before anything of it is used, so a
// lookup checks only what it reads.
#pragma once

#include "pathcov/format/Corpus.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pathcov {

// Which corpus file an index describes: what stat(2) says of it. A corpus
// rewritten in place changes its size, modification or change time; one
// replaced by a rename changes its inode.
struct CorpusStamp {
  uint64_t device = 0, inode = 0, size = 0;
  uint64_t modifiedNs = 0, changedNs = 0; // st_mtim, st_ctim
  bool operator==(const CorpusStamp &o) const {
    return device == o.device && inode == o.inode && size == o.size &&
           modifiedNs == o.modifiedNs && changedNs == o.changedNs;
  }
};

std::string encodeTestedPathCache(const TestedPathIndex &index,
                                  const CorpusStamp &stamp);

// For tests and fuzzing: makes the header's checksum and each bucket's (of
// those within the file) right for what they cover, and returns the stamp
// the header names (nullopt: too short for a header), so that what is left
// is damage the checksums cannot see.
std::optional<CorpusStamp> resealTestedPathCache(std::string &bytes);

// An index in memory (mapped): nothing is copied until a lookup.
class TestedPathCache {
public:
  // nullopt unless `bytes` has a well-formed header (checksum, size,
  // bucket table within the file) for the corpus of `stamp`. The cache
  // reads `bytes` where they are: they must outlive it.
  static std::optional<TestedPathCache> open(std::string_view bytes,
                                             const CorpusStamp &stamp);

  // The versions of `identity` (none: the corpus does not have it), or
  // nullopt when its bucket is damaged: then nothing of it is used.
  std::optional<std::vector<TestedPaths>> find(std::string_view identity) const;

  // Every function, or nullopt if any bucket is damaged.
  std::optional<TestedPathIndex> decodeAll() const;

private:
  explicit TestedPathCache(std::string_view bytes, uint64_t buckets)
      : bytes_(bytes), buckets_(buckets) {}
  // Bucket `b`'s records, checked; nullopt when damaged.
  std::optional<std::string_view> bucket(uint64_t b) const;

  std::string_view bytes_;
  uint64_t buckets_;
};

} // namespace pathcov
