// A path of a function as people read it: the source lines it runs
// through, with the branch outcomes taken, and how it starts and ends.
#pragma once

#include "SourceFiles.h"

#include "pathcov/format/Corpus.h"
#include "pathcov/format/FunctionMetadata.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pathcov {

struct PathStep {
  BlockId block;
  std::string exit; // the branch taken out of the block: "true", "false",
                    // "switch", "throw"; empty for a plain fall-through
};

struct PathDescription {
  uint64_t id = 0;
  std::string start; // entry, loop, cut, setjmp, abnormal, fake (a/b: both)
  std::string end;   // return, loop, cut, setjmp, abnormal, noreturn, fake
  std::vector<PathStep> steps; // ENTRY and EXIT left out
};

// "file:line name", and "(compiled in unit.c)" where the identity names a
// unit but the function is another file's: each unit's copy of a static
// function of a header the build generated, or of any header in a corpus
// from before stop 51 (zstd's 25 copies of MEM_isLittleEndian), and a
// global of another file (gnulib's extern inline c_isalpha, a #line
// file's yyparse), so that they do not read as functions of that file.
std::string functionHeading(const FunctionMetadata &f);
// The same, and "(CFG checksum)" where `corpus` has the function with
// several CFGs (a source built several ways: fmt's format.cc with and
// without exceptions), so that its variants' lines differ.
std::string functionHeading(const Corpus &corpus, const FunctionMetadata &f);
// Just the " (CFG checksum)", or "" (outputs that give the name apart).
std::string variantNote(const Corpus &corpus, const FunctionMetadata &f);
// " (CFG checksum)": what tells a function's variants apart; a header's
// static adds the unit: " (CFG checksum, as compiled in unit.c)".
std::string cfgNote(const FunctionMetadata &f);

PathDescription describePath(const FunctionMetadata &f,
                             const NumberedDag &numbered, uint64_t id);

// "3 4(true) 5 6(switch to 9) 9 hdr.h:12": lines in order, branch outcomes
// after the line that decides them, another file's lines prefixed with it.
std::string pathLinesText(const FunctionMetadata &f, const PathDescription &p);

// pathLinesText, and "  [loop -> return]" for a path that does not run
// from entry to return.
std::string pathText(const FunctionMetadata &f, const PathDescription &p);

// The path's source lines, a row each ("<indent>  7 | if (x < 0)  (true)"),
// a line repeated by consecutive blocks once, another file's lines
// prefixed with it; the text as `sources` finds it (line numbers alone
// for a file it cannot read). What show and decode print with --source.
std::string pathSourceText(const FunctionMetadata &f, const PathDescription &p,
                           const SourceFiles &sources, const std::string &indent);

// {"id", "start", "end", "steps": [{"block", "lines", "file"?, "exit"?}],
//  "lines": [...]} with "lines" all steps' lines in order.
nlohmann::json toJson(const FunctionMetadata &f, const PathDescription &p);

} // namespace pathcov
