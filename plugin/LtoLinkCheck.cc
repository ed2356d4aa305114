#include "LtoLinkCheck.h"

#include "pathcov/format/MetadataSection.h"

#include <cstring>

namespace pathcov {

namespace {

// What the plugin leaves in every unit it compiled: static variables named
// __pathcov_* (descriptors, tables, the runtime's anchor) and, for a
// function that needs no table, its metadata as top-level asm.
bool carriesInstrumentation() {
  varpool_node *var;
  FOR_EACH_VARIABLE(var) {
    tree name = DECL_NAME(var->decl);
    if (name && strncmp(IDENTIFIER_POINTER(name), "__pathcov_", 10) == 0)
      return true;
  }
  for (asm_node *node = symtab->first_asm_symbol(); node; node = node->next)
    if (strstr(TREE_STRING_POINTER(node->asm_str), kMetadataSection) ||
        strstr(TREE_STRING_POINTER(node->asm_str), kLegacyMetadataSection))
      return true;
  return false;
}

const pass_data kLtoLinkCheckPassData = {
    IPA_PASS, "pathcov_lto_check", OPTGROUP_NONE, TV_NONE, 0, 0, 0, 0, 0,
};

// An IPA pass (of the reference's kind, as GCC places only those): no
// summaries, nothing to stream or transform, so nothing runs in LTRANS.
class LtoLinkCheckPass : public ipa_opt_pass_d {
public:
  explicit LtoLinkCheckPass(gcc::context *ctx)
      : ipa_opt_pass_d(kLtoLinkCheckPassData, ctx, nullptr, nullptr, nullptr,
                       nullptr, nullptr, nullptr, 0, nullptr, nullptr) {}

  unsigned int execute(function *) override {
    cgraph_node *node;
    bool compilesAFunction = false;
    FOR_EACH_DEFINED_FUNCTION(node)
      compilesAFunction = true;
    if (!compilesAFunction || carriesInstrumentation())
      return 0;
    // Under -Wmissing-profile, as the stale corpus's warnings: the profile
    // of the code being built will be missing.
    warning_at(UNKNOWN_LOCATION, OPT_Wmissing_profile,
               "pathcov: this %<-flto%> link loads the plugin, but none of the "
               "functions it compiles was instrumented: their objects were "
               "compiled without it (the spec file, or %<-fplugin%>, only in "
               "the link%'s flags), or its filters left every one out; the "
               "program will count no paths and report none. Give the spec "
               "file to the compilations too, %<CFLAGS%> and %<CXXFLAGS%> as "
               "well as %<LDFLAGS%> (docs/in-your-build.md)");
    return 0;
  }
};

} // namespace

opt_pass *makeLtoLinkCheckPass(gcc::context *ctx) { return new LtoLinkCheckPass(ctx); }

} // namespace pathcov
