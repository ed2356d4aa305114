// `pathcov merge`: corpora and field reports -> one corpus (docs/merge.md).
#pragma once

namespace CLI {
class App;
}

namespace pathcov {

void addMergeCommand(CLI::App &app, int &exitCode);

} // namespace pathcov
