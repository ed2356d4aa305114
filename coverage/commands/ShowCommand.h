// `pathcov show`: paths of a corpus's functions as source lines.
#pragma once

namespace CLI {
class App;
}

namespace pathcov {

void addShowCommand(CLI::App &app, int &exitCode);

} // namespace pathcov
