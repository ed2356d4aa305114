// Where the plugin puts the functions' metadata records (FunctionRecord.h)
// in an object, executable or shared library, for the tools to read.
#pragma once

namespace pathcov {

// The ELF section of the records: not allocated, and named like debug
// information, so that binutils' strip -g removes it and objcopy
// --only-keep-debug keeps it (a name that starts with ".debug"), but not
// like DWARF (".debug_"), whose unknown sections dwz refuses: dh_dwz, run
// by every Debian package build, failed on ".debug_pathcov".
inline constexpr const char *kMetadataSection = ".debug.pathcov";
// The section of the plugins before stop 52, still read: their objects may
// be linked with newer ones, and their binaries decoded.
inline constexpr const char *kLegacyMetadataSection = ".debug_pathcov";

} // namespace pathcov
