// SonarQube's generic test coverage XML: per file, each line covered or
// not, and a decision line's branches to cover and covered.
#include "DecisionLines.h"
#include "ReportFormats.h"

#include "Markup.h"

#include <sstream>

namespace pathcov {

std::string writeSonarQube(const ReportInput &input) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<!-- pathcov: path coverage projected onto lines; branchesToCover "
         "counts "
      << decisionMeaning(input.settings.decisions) << " (docs/report.md) -->\n"
      << "<coverage version=\"1\">\n";
  for (const auto &[name, file] : input.projection.files) {
    if (file.lines.empty())
      continue;
    out << " <file path=\"" << escapeMarkup(name) << "\">\n";
    for (const auto &[line, count] : file.lines) {
      out << "  <lineToCover lineNumber=\"" << line << "\" covered=\""
          << (count > 0 ? "true" : "false") << "\"";
      const auto d = file.decisions.find(line);
      if (d != file.decisions.end() && d->second.total > 0) {
        const uint64_t total = cappedForJava(d->second.total);
        out << " branchesToCover=\"" << total << "\" coveredBranches=\""
            << std::min(d->second.tested, total) << "\"";
      }
      out << "/>\n";
    }
    out << " </file>\n";
  }
  out << "</coverage>\n";
  return out.str();
}

} // namespace pathcov
