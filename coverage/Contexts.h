// Residual paths' calling contexts (docs/residual-mode.md, "Calling
// contexts") as source: each frame's functions and lines (Symbolizer), and
// the contexts of the same source added up (a call the compiler copied has
// an address per copy; so do the listings of several reports). What
// decode, the HTML report and SARIF show.
#pragma once

#include "Symbolizer.h"

#include "pathcov/format/Corpus.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pathcov {

struct SourceContext {
  uint64_t count = 0;
  uint64_t error = 0; // count overestimates the samples by at most this
  // The function the path end's code is in (its name only), then each
  // caller's functions, inlined calls first.
  std::vector<SourceFrame> frames;
};

struct SourceContexts {
  uint64_t samples = 0;
  std::vector<SourceContext> kept; // most counted first
};

// Adds `contexts`, whose frames name `modules` (a report's
// context_modules), into `into`. Frames' files are spelled as the
// function's own, whose source root is `sourceRoot` (projectSpelling).
void addSourceContexts(SourceContexts &into, const CallingContexts &contexts,
                       const std::vector<CorpusModule> &modules,
                       Symbolizer &symbolizer, const std::string &sourceRoot);

// Every field path's contexts in a corpus, over the reports merged in.
std::map<FieldKey, SourceContexts> fieldContexts(const Corpus &corpus,
                                                 Symbolizer &symbolizer);

// {"samples", "kept": [{"count", "error", "frames": [{"function", "file",
// "line"}]}]} (decode.schema.json), file and line null where unknown.
nlohmann::json toJson(const SourceContexts &contexts);

// "COUNT" or "COUNT (up to ERROR fewer)": what every tool says of a
// context's count.
std::string countText(const SourceContext &context);

// "FUNCTION (FILE:LINE)", "??" for a function not found.
std::string frameText(const SourceFrame &frame);

// A context as a line of text: "in G: called from F (file:line) <- ...",
// "in G" only where the path end's code is not `function`'s own; "callers
// unknown" where the walk found none (code without unwind tables). The C
// library's start-up frames (below main, below a thread's start routine)
// are left out but the first.
std::string contextText(const SourceContext &context,
                        const std::string &function);

} // namespace pathcov
