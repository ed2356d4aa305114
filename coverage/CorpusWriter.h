// Writing a corpus (schemas/corpus.schema.json) as it goes, so that a
// corpus holding the field of a fleet is never held whole: the text
// nlohmann's dump(1) gives the document, and a newline.
#pragma once

#include "FieldStore.h"

#include "pathcov/format/Corpus.h"

namespace pathcov {

// `corpus`'s header and functions, with the reports and sightings of
// `field` (none without), to `fd`. Field paths are attributed to their
// function or set aside (whySetAside) from `corpus`'s functions. False,
// errno set, if a write failed.
bool writeCorpus(int fd, const Corpus &corpus, const FieldStore *field);

} // namespace pathcov
