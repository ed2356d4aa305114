// A binary copy of a corpus's tested paths (readTestedPaths), keyed by a
// hash of the corpus file's bytes. Residual mode reads the corpus once per
// compilation; parsing megabytes of JSON in every one of a project's units
// cost more than compiling them, so the first compilation leaves this copy
// beside the corpus and the others read it.
//
// Layout (native byte order, the cache never leaves the machine): the magic
// "pcovidx5", the corpus hash, the index (each version's -O option, each id
// with its count), then
// FNV-1a (fnv1a64) of all that. The checksum finds damage, not forgery:
// who may have written the file is for its reader to check
// (docs/residual-mode.md).
#pragma once

#include "pathcov/format/Corpus.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pathcov {

std::string encodeTestedPathCache(const TestedPathIndex &index,
                                  uint64_t corpusHash);

// nullopt unless `bytes` is a well-formed cache of the corpus whose hash is
// `corpusHash` and its checksum matches: a damaged or foreign file is never
// trusted, and nothing of it is used before the checksum is checked.
std::optional<TestedPathIndex> decodeTestedPathCache(std::string_view bytes,
                                                     uint64_t corpusHash);

} // namespace pathcov
