// Reads what the plugin put into an object, executable or shared library:
// the metadata records (section .debug.pathcov, or .debug_pathcov from
// older plugins; not loaded, maybe compressed) and the GNU build-id. A
// stripped module has no records; its detached metadata (objcopy
// --only-keep-debug) is another ELF file with the same build-id, which
// this reads the same way.
#pragma once

#include "pathcov/format/MetadataSection.h"

#include <cstddef>
#include <string>
#include <vector>

namespace pathcov {

struct ModuleMetadata {
  std::string path;
  std::string buildId; // lowercase hex; empty when the module has none
  bool hasMetadata = false; // it has a metadata section
  std::vector<std::string> records; // one JSON text per function
};

// A build-id's bytes as lowercase hex.
std::string buildIdHex(const unsigned char *bytes, size_t size);

// Throws InputError (naming the file) when it cannot be read as ELF.
ModuleMetadata readModuleMetadata(const std::string &path);

} // namespace pathcov
