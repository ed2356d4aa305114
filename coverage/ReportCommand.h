// `pathcov report`: a corpus projected into the formats dashboards and
// code review read (LCOV, Cobertura, SonarQube, SARIF) and a JSON summary.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace pathcov {

// `commandLine`: how the HTML report says it was made.
void addReportCommand(CLI::App &app, int &exitCode,
                      const std::string &commandLine);

} // namespace pathcov
