// How a residual build reads its corpus: through the binary cache beside
// it (TestedPathCache.h) when that cache can be trusted, else from the
// JSON, leaving a cache for the next compilation when that is safe.
//
// Trusted (docs/residual-mode.md): a cache in a directory owned by the
// effective user or root that nobody else can write (or that is sticky),
// itself a regular file (not a link) owned by the effective user and
// writable by nobody else, whose checksum and corpus hash match. It is
// written only into such a directory, as a fresh mode-0600 file of an
// unpredictable name, then renamed.
#pragma once

#include "pathcov/format/Corpus.h"

#include <string>

namespace pathcov {

// The tested paths of the corpus `file`: "" on success, else the problem,
// starting with the file's name. Never blocks on a FIFO, never follows a
// link to the cache, never throws.
std::string loadTestedPaths(const std::string &file, TestedPathIndex &index);

} // namespace pathcov
