// Writing a corpus (schemas/corpus.schema.json) as it goes, so that a
// corpus holding the field of a fleet is never held whole: the text
// nlohmann's dump(1) gives the document, and a newline.
#pragma once

#include "FieldStore.h"

#include "pathcov/format/Corpus.h"

#include <cstdint>
#include <string>

namespace pathcov {

// What writeCorpus set aside: field paths (identity, checksum, id) and
// their functions (identity, checksum), and the first one's reason.
struct SetAsideSummary {
  uint64_t paths = 0;
  uint64_t functions = 0;
  std::string firstIdentity, firstWhy;
};

// The field paths of a corpus read back that no function of it takes
// (its set_aside), as writeCorpus counted them.
SetAsideSummary summarizeSetAside(const Corpus &corpus);

// "N field paths of M functions set aside, in the corpus's set_aside
// (first: IDENTITY: WHY)": what merge and show say of them.
std::string setAsideText(const SetAsideSummary &setAside);

// `corpus`'s header and functions, with the reports and sightings of
// `field` (none without), to `fd`. Field paths are attributed to their
// function or set aside (whySetAside) from `corpus`'s functions, and
// counted in `setAside` when given. False, errno set, if a write failed.
bool writeCorpus(int fd, const Corpus &corpus, const FieldStore *field,
                 SetAsideSummary *setAside = nullptr);

} // namespace pathcov
