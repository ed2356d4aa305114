// `pathcov collect`: profiles + the modules' metadata -> the tested-path
// corpus.
#pragma once

namespace CLI {
class App;
}

namespace pathcov {

void addCollectCommand(CLI::App &app, int &exitCode);

} // namespace pathcov
