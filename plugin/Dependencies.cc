#include "Dependencies.h"

#include "GccIncludes.h"
#include "cpplib.h"

#include <dlfcn.h>

// libcpp's, exported by cc1, cc1plus and lto1; mkdeps.h is not among the
// plugin headers.
class mkdeps;
void deps_add_dep(class mkdeps *, const char *);

namespace pathcov {

void addDependency(const std::string &file) {
  // The C family's preprocessor, which writes the dependency file: looked
  // up, not linked, since lto1 (which loads the plugin too) has none.
  auto **parseIn = static_cast<cpp_reader **>(dlsym(RTLD_DEFAULT, "parse_in"));
  if (!parseIn || !*parseIn)
    return;
  if (mkdeps *deps = cpp_get_deps(*parseIn))
    deps_add_dep(deps, file.c_str());
}

} // namespace pathcov
