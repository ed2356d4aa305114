// pathcov merge's reader of corpora (docs/merge.md, "Memory"): a corpus of
// any size read as it streams, one function, report or sighting at a time.
#pragma once

#include "FieldStore.h"

#include "pathcov/format/Corpus.h"

#include <nlohmann/json.hpp>

#include <string>

namespace pathcov {

// The "format" and "format_version" at the top of the JSON document in
// `path` (a regular file), those it has, read without holding the document
// and no further than needed. Throws InputError (a syntax error on the
// way), not naming the file.
nlohmann::json documentFormat(const std::string &path);

// The corpus in `path`, checked as readCorpus checks it: its header and
// functions (metadata and tested counts) are returned, its reports and
// sightings staged in `store` (FieldStore::commitStaged folds them in).
// Only one function's document is held at a time. Throws InputError naming
// the place of the problem, not the file.
Corpus streamCorpus(const std::string &path, FieldStore &store);

} // namespace pathcov
