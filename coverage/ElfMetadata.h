// Reads what the plugin put into an object, executable or shared library:
// the metadata records (section pathcov_meta) and the GNU build-id.
#pragma once

#include <string>
#include <vector>

namespace pathcov {

struct ModuleMetadata {
  std::string path;
  std::string buildId; // lowercase hex; empty when the module has none
  std::vector<std::string> records; // one JSON text per function
};

// Throws InputError (naming the file) when it cannot be read as ELF.
ModuleMetadata readModuleMetadata(const std::string &path);

} // namespace pathcov
