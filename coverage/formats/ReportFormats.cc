#include "ReportFormats.h"

namespace pathcov {

const std::vector<ReportFormat> &reportFormats() {
  static const std::vector<ReportFormat> formats{
      {"lcov",
       "an LCOV tracefile (genhtml, Codecov, Coveralls): a projection onto "
       "lines and branch outcomes",
       writeLcov, nullptr},
      {"gcovr", "gcovr's JSON tracefile, for gcovr -a: the same projection",
       writeGcovrJson, nullptr},
      {"cobertura",
       "Cobertura XML: a projection onto lines and decision lines "
       "(--branches)",
       writeCobertura, nullptr},
      {"sonarqube",
       "SonarQube's generic coverage XML: the same projection as cobertura",
       writeSonarQube, nullptr},
      {"sarif",
       "SARIF 2.1.0: one result per residual path (field-observed, never "
       "tested) when the corpus has field_paths, else one per untested path "
       "of called functions with at most --max-function-paths paths",
       writeSarif, nullptr},
      {"json",
       "a pathcov-summary of tested and total paths per file and function",
       writeSummary, nullptr},
      {"html",
       "a directory (-o DIR) with index.html and a page per source file: "
       "each function's tested, untested and field-observed paths over the "
       "source, and its CFG",
       nullptr, writeHtml},
  };
  return formats;
}

const ReportFormat *findReportFormat(const std::string &name) {
  for (const ReportFormat &format : reportFormats())
    if (name == format.name)
      return &format;
  return nullptr;
}

} // namespace pathcov
