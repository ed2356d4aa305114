// The pathcov-summary JSON (schemas/summary.schema.json): tested and total
// paths and lines per file and function.
#include "ReportFormats.h"

#include <nlohmann/json.hpp>

namespace pathcov {

std::string writeSummary(const ReportInput &input) {
  const CorpusProjection &p = input.projection;
  nlohmann::json files = nlohmann::json::array();
  uint64_t numPaths = 0, tested = 0, lines = 0, linesHit = 0;
  uint64_t functionsTotal = 0;
  for (const auto &[name, file] : p.files) {
    nlohmann::json functions = nlohmann::json::array();
    uint64_t fileNumPaths = 0, fileTested = 0, fileLinesHit = 0;
    for (const FunctionProjection *f : file.functions) {
      const CorpusFunction &c = *f->function;
      uint64_t hit = 0;
      for (const auto &[line, count] : f->lines)
        hit += count > 0;
      functions.push_back({{"identity", c.metadata.identity},
                           {"name", c.metadata.name},
                           {"line", c.metadata.line},
                           {"checksum", c.metadata.checksum},
                           {"num_paths", c.metadata.numPaths},
                           {"tested_paths", c.paths.size()},
                           {"calls", c.calls},
                           {"interrupted", c.interrupted},
                           {"lines", f->lines.size()},
                           {"lines_hit", hit}});
      fileNumPaths += c.metadata.numPaths;
      fileTested += c.paths.size();
    }
    for (const auto &[line, count] : file.lines)
      fileLinesHit += count > 0;
    files.push_back({{"file", name},
                     {"num_paths", fileNumPaths},
                     {"tested_paths", fileTested},
                     {"lines", file.lines.size()},
                     {"lines_hit", fileLinesHit},
                     {"functions", std::move(functions)}});
    numPaths += fileNumPaths;
    tested += fileTested;
    lines += file.lines.size();
    linesHit += fileLinesHit;
    functionsTotal += file.functions.size();
  }
  nlohmann::json skipped = nlohmann::json::array();
  for (const CorpusFunction *f : p.skipped)
    skipped.push_back({{"identity", f->metadata.identity},
                       {"file", f->metadata.file},
                       {"line", f->metadata.line},
                       {"skipped", f->metadata.skipped}});
  const nlohmann::json doc{{"format", "pathcov-summary"},
                           {"format_version", "1.0"},
                           {"totals",
                            {{"functions", functionsTotal},
                             {"num_paths", numPaths},
                             {"tested_paths", tested},
                             {"lines", lines},
                             {"lines_hit", linesHit}}},
                           {"files", std::move(files)},
                           {"not_instrumented", std::move(skipped)}};
  return doc.dump(1) + "\n";
}

} // namespace pathcov
