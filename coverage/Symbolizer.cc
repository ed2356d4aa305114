#include "Symbolizer.h"

#include "ElfMetadata.h"
#include "Modules.h"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>

#include <algorithm>
#include <filesystem>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>

namespace pathcov {

struct Symbolizer::Object {
  Dwfl_Callbacks callbacks;
  Dwfl *dwfl = nullptr;
  Dwfl_Module *module = nullptr; // null: not found with that build-id
  // Addresses symbolized already: a fleet's reports name the same ones.
  std::map<std::pair<uint64_t, bool>, std::vector<SourceFrame>> symbolized;
  ~Object() {
    if (dwfl)
      dwfl_end(dwfl);
  }
};

namespace {

bool isFile(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string buildIdOf(Dwfl_Module *module) {
  const unsigned char *bits = nullptr;
  GElf_Addr vaddr;
  const int n = dwfl_module_build_id(module, &bits, &vaddr);
  return n > 0 ? buildIdHex(bits, size_t(n)) : "";
}

// The object at `file` as a module at its own addresses (base 0: the
// report's addresses are the file's), if its build-id is `buildId`.
Dwfl_Module *reportFile(Dwfl *dwfl, const std::string &file,
                        const std::string &buildId) {
  if (!isFile(file))
    return nullptr;
  dwfl_report_begin(dwfl);
  Dwfl_Module *module =
      dwfl_report_elf(dwfl, file.c_str(), file.c_str(), -1, 0, false);
  dwfl_report_end(dwfl, nullptr, nullptr);
  if (module && !buildId.empty() && buildIdOf(module) != buildId)
    return nullptr;
  return module;
}

// A symbol as C++ spells it, as c++filt does (GCC's clones keep their
// suffix: "f(int) [clone .isra.0]"); a C symbol as it is.
std::string demangled(const char *symbol) {
  int status = 0;
  char *name = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
  std::string text = status == 0 && name ? name : symbol;
  std::free(name);
  return text;
}

std::string nameOf(Dwarf_Die *die) {
  Dwarf_Attribute attr;
  const char *name = dwarf_formstring(
      dwarf_attr_integrate(die, DW_AT_name, &attr));
  return name ? name : "";
}

bool udata(Dwarf_Die *die, unsigned name, Dwarf_Word &value) {
  Dwarf_Attribute attr;
  return dwarf_formudata(dwarf_attr(die, name, &attr), &value) == 0;
}

} // namespace

Symbolizer::Symbolizer(std::vector<std::string> debugDirs,
                       std::vector<std::string> binaries)
    : debugDirs_(std::move(debugDirs)), binaries_(std::move(binaries)) {
  // The system's debug info too (libc's, say), as gdb finds it, whatever
  // directories were given for pathcov's metadata.
  if (std::find(debugDirs_.begin(), debugDirs_.end(), kDefaultDebugDir) ==
      debugDirs_.end())
    debugDirs_.push_back(kDefaultDebugDir);
  // Absolute: libdwfl finds debug info by build-id only under absolute
  // directories, and reads a relative one as relative to the module's own
  // directory. With `--debug-dir unp/...` a stripped binary still at its
  // path had its frames named from its dynamic symbols alone ("?? <- ??":
  // a new user's brotli from its -dbgsym package).
  std::error_code error;
  for (std::string &dir : debugDirs_) {
    std::filesystem::path absolute = std::filesystem::absolute(dir, error);
    if (!error)
      dir = absolute.lexically_normal().string();
  }
  for (const std::string &dir : debugDirs_)
    debugPath_ += ":" + dir;
  debugPathPointer_ = debugPath_.data();
}

Symbolizer::~Symbolizer() = default;

Symbolizer::Object *Symbolizer::objectFor(const std::string &path,
                                          const std::string &buildId) {
  auto &object = objects_[{path, buildId}];
  if (object)
    return object.get();
  object = std::make_unique<Object>();
  object->callbacks = {dwfl_build_id_find_elf, dwfl_standard_find_debuginfo,
                       dwfl_offline_section_address, &debugPathPointer_};
  object->dwfl = dwfl_begin(&object->callbacks);
  if (!object->dwfl)
    return object.get();
  // The object itself, else a file named for it with its build-id, else its
  // debug info under a debug directory.
  object->module = reportFile(object->dwfl, path, buildId);
  for (size_t i = 0; !object->module && !buildId.empty() && i < binaries_.size(); ++i)
    object->module = reportFile(object->dwfl, binaries_[i], buildId);
  for (size_t i = 0; !object->module && !buildId.empty() &&
                     i < debugDirs_.size();
       ++i)
    object->module = reportFile(object->dwfl,
                                debugDirs_[i] + "/.build-id/" +
                                    buildId.substr(0, 2) + "/" +
                                    buildId.substr(2) + ".debug",
                                buildId);
  return object.get();
}

std::vector<SourceFrame> Symbolizer::symbolize(const std::string &path,
                                               const std::string &buildId,
                                               uint64_t address,
                                               bool isReturn) {
  std::vector<SourceFrame> frames;
  Object *object = objectFor(path, buildId);
  if (!object->module)
    return frames;
  const auto known = object->symbolized.find({address, isReturn});
  if (known != object->symbolized.end())
    return known->second;
  const Dwarf_Addr at = isReturn && address > 0 ? address - 1 : address;
  SourceFrame place;
  int line = 0;
  if (Dwfl_Line *l = dwfl_module_getsrc(object->module, at)) {
    const char *file = dwfl_lineinfo(l, nullptr, &line, nullptr, nullptr,
                                     nullptr);
    place.file = file ? file : "";
    const char *compDir = dwfl_line_comp_dir(l);
    place.compDir = compDir ? compDir : "";
    place.line = line;
  }
  Dwarf_Addr bias = 0;
  Dwarf_Die *unit = dwfl_module_addrdie(object->module, at, &bias);
  // The DIEs that hold `at` in the tree, innermost first, as eu-addr2line
  // -i walks them: dwarf_getscopes alone continues an inlined call with
  // its abstract definition's scopes, not with the function it was
  // inlined into (which a function that starts with inlined code then
  // lost, fmt's to_decimal named after bit_cast).
  Dwarf_Die *scopes = nullptr;
  int n = 0;
  if (Dwarf_Die *atPc = nullptr;
      unit && dwarf_getscopes(unit, at - bias, &atPc) > 0) {
    Dwarf_Die innermost = atPc[0];
    n = std::max(dwarf_getscopes_die(&innermost, &scopes), 0);
    free(atPc);
  }
  Dwarf_Files *files = nullptr;
  size_t numFiles = 0;
  if (n > 0 && dwarf_getsrcfiles(unit, &files, &numFiles) != 0)
    files = nullptr;
  // Innermost first: each inlined call, at the place in it, then the
  // place it was called from is the next function's.
  for (int i = 0; i < n; ++i) {
    const int tag = dwarf_tag(&scopes[i]);
    if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
      continue;
    place.function = nameOf(&scopes[i]);
    place.declLine = 0;
    dwarf_decl_line(&scopes[i], &place.declLine);
    frames.push_back(place);
    if (tag == DW_TAG_subprogram)
      break;
    Dwarf_Word file = 0, callLine = 0;
    const char *name = files && udata(&scopes[i], DW_AT_call_file, file)
                           ? dwarf_filesrc(files, file, nullptr, nullptr)
                           : nullptr;
    place.file = name ? name : "";
    place.line = udata(&scopes[i], DW_AT_call_line, callLine) ? int(callLine) : 0;
  }
  free(scopes);
  const char *symbol = dwfl_module_addrname(object->module, at);
  if (frames.empty()) { // no DWARF here: the symbol table's name
    place.function = symbol ? demangled(symbol) : "";
    frames.push_back(place);
  }
  frames.back().splitPart = symbol && strstr(symbol, ".part.");
  object->symbolized.emplace(std::make_pair(address, isReturn), frames);
  return frames;
}

} // namespace pathcov
