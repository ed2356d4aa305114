// The report tests' shared fixture, testsuite/report/loops-corpus.json
// (loops.c): loops(1) and loops(2) recorded, never() never called.
#pragma once

#include "FileIo.h"

#include "pathcov/format/Corpus.h"

namespace pathcov {

inline Corpus reportFixture() {
  return readCorpus(readJson(PATHCOV_REPORT_FIXTURE));
}

} // namespace pathcov
