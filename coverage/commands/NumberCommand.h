// `pathcov number`: numbers the paths of a CFG given as JSON and prints the
// DAG, both numberings and the instrumentation they need, as JSON.
#pragma once

namespace CLI {
class App;
}

namespace pathcov {

// Adds the subcommand to `app`. When the subcommand runs, its exit status
// (ExitCodes.h) is stored in `exitCode`.
void addNumberCommand(CLI::App &app, int &exitCode);

} // namespace pathcov
