// readTestedPaths's fast reader (simdjson's On-Demand API): a corpus of a
// million functions is a gigabyte of JSON, which nlohmann's SAX parser
// reads at about 160 instructions a byte (36.7 s), simdjson at a few.
//
// It reads only corpora of the plain shape `pathcov collect` and `merge`
// write, and validates every byte of them. Anything else (bad JSON, a
// number or a key it does not expect, a repeated key) makes it give up,
// and the reference reader (Corpus.cc, nlohmann) reads the corpus again:
// it alone decides what a corpus that is not plain means, and words the
// error. So where this reader returns an index, it is the one the reference
// reader would return (checked by unit tests and by the tested-paths fuzz
// target, which runs both).
#pragma once

#include "pathcov/format/Corpus.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/types.h>

namespace pathcov {

// Reads the next bytes of a corpus into `into`, at most `room`, as read(2)
// does: how many, 0 at its end, -1 with errno set on an error.
using ReadSome = std::function<ssize_t(char *into, size_t room)>;

// Reads `text` (which must outlive the reads), at most `step` bytes a read.
ReadSome readingFrom(std::string_view text, size_t step = SIZE_MAX);

// scanTestedPaths over a corpus read as its pieces need it, asking for
// `block` bytes a read at least (more for a longer piece): memory for the
// longest function, not for the corpus (a gigabyte for a million
// functions). Empty: not plain, read it again with the reference reader.
// Throws std::system_error when a read fails.
std::optional<TestedPathIndex> scanTestedPaths(const ReadSome &readSome,
                                               size_t block = size_t{1} << 20);
// The same on a corpus in memory, read in one go.
std::optional<TestedPathIndex> scanTestedPaths(std::string_view json);

// The reference reader (Corpus.cc): nlohmann's SAX parser, any corpus,
// its problems worded. readTestedPaths is scanTestedPaths, else this.
TestedPathIndex readTestedPathsReference(std::string_view json);

// One function's interesting paths from its (id, count) list, in any order
// and with repeats (paths and field_paths): ids ascending, each once, counts
// summed, saturating. Both readers build their TestedPaths with it.
void setTestedPathCounts(TestedPaths &tested,
                         std::vector<std::pair<uint64_t, uint64_t>> &idCounts);

// One corpus function (`identity`, defined in `file`) into `index`: its
// paths join those of an earlier entry with its checksum, if any. An older
// corpus's copy of a header's static function also goes under the
// header's identity (headerIdentityOf), the union of every copy's paths,
// as a new corpus has it. Both readers add their functions with it.
void addTestedPaths(TestedPathIndex &index, const std::string &identity,
                    const std::string &file, TestedPaths tested);

} // namespace pathcov
