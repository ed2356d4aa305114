// LCOV's tracefile (lcov's geninfo(1) format): lines, functions and branch
// outcomes projected from the tested paths.
#include "ReportFormats.h"

#include <algorithm>
#include <sstream>

namespace pathcov {

namespace {

std::string lcovName(const FunctionMetadata &m) {
  std::string name = m.assemblerName.empty() ? m.name : m.assemblerName;
  // lcov splits FN records at commas.
  std::replace(name.begin(), name.end(), ',', '_');
  return name;
}

} // namespace

// SF names a file genhtml can read: where the sources are found.
std::string writeLcov(const ReportInput &input) {
  std::ostringstream out;
  for (const auto &[name, file] : input.projection.files) {
    out << "TN:\nSF:" << input.sources.locate(name, file.sourceRoot) << "\n";
    uint64_t fnHit = 0;
    for (const FunctionProjection *f : file.functions)
      out << "FN:" << f->function->metadata.line << ","
          << lcovName(f->function->metadata) << "\n";
    for (const FunctionProjection *f : file.functions) {
      out << "FNDA:" << f->function->calls << ","
          << lcovName(f->function->metadata) << "\n";
      fnHit += f->function->calls > 0;
    }
    out << "FNF:" << file.functions.size() << "\nFNH:" << fnHit << "\n";
    uint64_t brHit = 0;
    for (const BranchProjection *b : file.branches) {
      out << "BRDA:" << b->line.second << "," << b->block << "," << b->index
          << ",";
      if (b->blockRan)
        out << b->taken;
      else
        out << "-";
      out << "\n";
      brHit += b->taken > 0;
    }
    out << "BRF:" << file.branches.size() << "\nBRH:" << brHit << "\n";
    uint64_t lineHit = 0;
    for (const auto &[line, count] : file.lines) {
      out << "DA:" << line << "," << count << "\n";
      lineHit += count > 0;
    }
    out << "LF:" << file.lines.size() << "\nLH:" << lineHit
        << "\nend_of_record\n";
  }
  return out.str();
}

} // namespace pathcov
