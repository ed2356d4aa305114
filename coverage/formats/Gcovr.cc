// gcovr reads no LCOV; its own JSON tracefiles (format 0.3, what Debian's
// gcovr 5.2 writes) it combines with -a/--add-tracefile. The same
// projection as LCOV: line counts, and a branch list per deciding line.
#include "ReportFormats.h"

#include <nlohmann/json.hpp>

namespace pathcov {

std::string writeGcovrJson(const ReportInput &input) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto &[name, file] : input.projection.files) {
    std::map<int, nlohmann::json> branches;
    for (const BranchProjection *b : file.branches)
      branches[b->line.second].push_back(
          {{"count", b->taken}, {"fallthrough", false}, {"throw", false}});
    nlohmann::json lines = nlohmann::json::array();
    for (const auto &[line, count] : file.lines)
      lines.push_back({{"line_number", line},
                       {"count", count},
                       {"branches", branches.count(line)
                                        ? branches[line]
                                        : nlohmann::json::array()},
                       {"gcovr/excluded", false},
                       {"gcovr/noncode", false}});
    nlohmann::json functions = nlohmann::json::array();
    for (const FunctionProjection *f : file.functions)
      functions.push_back({{"name", f->function->metadata.name},
                           {"lineno", f->function->metadata.line},
                           {"execution_count", f->function->calls}});
    files.push_back({{"file", name}, {"lines", std::move(lines)},
                     {"functions", std::move(functions)}});
  }
  const nlohmann::json doc{{"gcovr/format_version", "0.3"},
                           {"files", std::move(files)}};
  return doc.dump(1) + "\n";
}

} // namespace pathcov
