// `pathcov decode`: residual-mode reports + the modules' metadata -> the
// residual paths as source lines, each with its nearest tested path and
// where it left the tested ground (docs/residual-mode.md, "Decoding a
// report").
#pragma once

namespace CLI {
class App;
}

namespace pathcov {

void addDecodeCommand(CLI::App &app, int &exitCode);

} // namespace pathcov
