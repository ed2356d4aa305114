// `pathcov report --format html` (docs/report.md): a self-contained HTML
// report in a directory. index.html sums up paths per file and function;
// one page per source file shows the source with per-line counts and
// paths, each function's tested, untested and field-observed paths (each
// highlights its lines when selected), and a picture of its CFG.
#pragma once

#include "Projections.h"
#include "SourceFiles.h"

#include "pathcov/format/Corpus.h"

#include <cstdint>
#include <map>
#include <string>

namespace pathcov {

struct HtmlOptions {
  uint64_t pathBound = 1000;     // functions above it: not in the totals
  uint64_t maxUntestedPaths = 50; // untested paths listed per function
  SourceFiles sources{{}};         // where the source text is read from
  std::string title = "Path coverage";
  std::string date;    // when the report was made, as people read it
  std::string command; // the command that made it, as a shell takes it
};

// Writes DIR/index.html and one page per file; returns an exit code
// (reporting write errors itself).
int writeHtmlReport(const Corpus &corpus, const CorpusProjection &projection,
                    const FieldRuns &field, const std::string &dir,
                    const HtmlOptions &options = {});

} // namespace pathcov
