// `pathcov report`: a corpus written in one of the formats of
// formats/ReportFormats.h, for dashboards, code review or a browser.
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
