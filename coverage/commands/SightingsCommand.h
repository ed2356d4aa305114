// `pathcov sightings`: field reports and corpora -> rows of residual
// sightings, newline-delimited JSON, for an engine that aggregates a
// fleet's reports (docs/fleet.md).
#pragma once

namespace CLI {
class App;
}

namespace pathcov {

void addSightingsCommand(CLI::App &app, int &exitCode);

} // namespace pathcov
