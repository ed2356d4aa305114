// The dependency file (-MD, -MMD): inputs of a compilation besides its
// headers, so that make, Ninja and the build systems over them compile an
// object again when one changes.
#pragma once

#include <string>

namespace pathcov {

// Adds `file` to the compilation's dependencies, if it writes them (cc1 and
// cc1plus; nothing elsewhere). Call it once the front end has read its
// options (PLUGIN_START_UNIT).
void addDependency(const std::string &file);

} // namespace pathcov
