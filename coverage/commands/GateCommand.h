// `pathcov gate`: a CI gate on a corpus's path coverage (docs/gate.md).
#pragma once

namespace CLI {
class App;
}

namespace pathcov {

void addGateCommand(CLI::App &app, int &exitCode);

} // namespace pathcov
