// How a residual build reads its corpus: through the index beside it
// (TestedPathCache.h) when that index can be trusted, looking up only the
// functions it compiles; else from the JSON, leaving an index for the next
// compilations when that is safe.
//
// Trusted (docs/residual-mode.md): an index in a directory owned by the
// effective user or root that nobody else can write (or that is sticky),
// itself a regular file (not a link) owned by the effective user and
// writable by nobody else, made from the corpus as it is now (its stamp:
// device, inode, size, modification and change times) at least a clock
// tick after the corpus last changed by the file system's clock (50 ms; 2 s
// on file systems of whole seconds), so that a corpus changed again within
// the same tick never passes for the one indexed. It is
// written only into such a directory, as a fresh mode-0600 file of an
// unpredictable name, then renamed. Compilations that find no index take
// turns, so that one of them indexes and the others use its index: they
// lock CORPUS.pathcov-cache.lock beside it, a file of the effective user's
// that nobody else can open (created 0600, never through a link), so only
// one's own compilations can make one wait. Where that file is someone
// else's, nobody waits and each compilation reads the JSON.
#pragma once

#include "pathcov/format/Corpus.h"
#include "pathcov/format/FileDescriptor.h"
#include "pathcov/format/TestedPathCache.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pathcov {

class CorpusLookup {
public:
  // How the corpus was read.
  enum class Source { Index, IndexedNow, Json };

  // Opens the corpus `file`: "" on success, else the problem, starting
  // with the file's name. Never blocks on a FIFO, never follows a link to
  // the index, never throws.
  std::string open(const std::string &file);

  // The versions of `identity` in the corpus (empty: it has none). A
  // damaged index found here is given up for the JSON, which is then
  // re-indexed; `problem` says what went wrong if that fails.
  const std::vector<TestedPaths> &find(const std::string &identity,
                                       std::string &problem);

  Source source() const { return source_; }
  // Why the JSON was read and no index written ("" when one was).
  const std::string &unindexed() const { return unindexed_; }

private:
  std::string load(bool tryIndex);

  std::string file_, directory_, indexName_, unindexed_;
  Source source_ = Source::Json;
  MappedFile mapped_;
  std::optional<TestedPathCache> index_;
  TestedPathIndex found_; // lookups in the index, or the whole JSON
};

const char *corpusSourceName(CorpusLookup::Source source);

} // namespace pathcov
