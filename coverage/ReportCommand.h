// `pathcov report`: a corpus projected into the formats dashboards and
// code review read (LCOV, Cobertura, SonarQube, SARIF) and a JSON summary.
#pragma once

namespace CLI {
class App;
}

namespace pathcov {

void addReportCommand(CLI::App &app, int &exitCode);

} // namespace pathcov
