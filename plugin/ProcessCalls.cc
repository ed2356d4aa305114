// Why calls are redirected rather than the names interposed:
// runtime/src/exec.c. GCC's -fprofile-arcs does the same for exec* at
// expansion (builtins.cc, expand_builtin_fork_or_exec); this pass does it
// in GIMPLE, for every function the plugin instruments.
#include <cstring>
#include <string>

#include "ProcessCalls.h"

namespace pathcov {

namespace {

const char *const kRedirected[] = {"execl",  "execle",  "execlp",
                                   "execv",  "execve",  "execvp",
                                   "execvpe", "fexecve", "vfork",
                                   "_exit",  "_Exit",   "daemon"};
constexpr size_t kCount = sizeof kRedirected / sizeof kRedirected[0];

// The wrappers' declarations, made on first use in a unit.
tree gWrappers[kCount];

const ggc_root_tab kRoots[] = {
    {&gWrappers[0], kCount, sizeof(gWrappers[0]), &gt_ggc_mx_tree_node,
     &gt_pch_nx_tree_node},
    LAST_GGC_ROOT_TAB,
};

// Which of kRedirected `decl` is (libc's: external, at file scope, by its
// assembler name), or kCount.
size_t redirectedIndex(tree decl) {
  if (!decl || !TREE_PUBLIC(decl) || !DECL_EXTERNAL(decl) ||
      (DECL_CONTEXT(decl) &&
       TREE_CODE(DECL_CONTEXT(decl)) != TRANSLATION_UNIT_DECL))
    return kCount;
  const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl));
  for (size_t i = 0; i < kCount; ++i)
    if (strcmp(name, kRedirected[i]) == 0)
      return i;
  return kCount;
}

// __pathcov_<name>, of the type the unit declared <name> with, throwing,
// returning twice or never as <name> does (vfork returns twice, _exit
// never: its call's edges stay as they are).
tree wrapper(size_t index, tree original, int callFlags) {
  if (gWrappers[index])
    return gWrappers[index];
  const std::string name = std::string("__pathcov_") + kRedirected[index];
  tree decl = build_fn_decl(name.c_str(), TREE_TYPE(original));
  TREE_NOTHROW(decl) = TREE_NOTHROW(original);
  DECL_IS_RETURNS_TWICE(decl) = (callFlags & ECF_RETURNS_TWICE) != 0;
  TREE_THIS_VOLATILE(decl) = (callFlags & ECF_NORETURN) != 0; // _exit
  DECL_ASSEMBLER_NAME(decl); // LTO streams decls made this late by name
  gWrappers[index] = decl;
  return decl;
}

} // namespace

unsigned redirectProcessCalls(function *fun) {
  bool changed = false;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun) {
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
      gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
      if (!call)
        continue;
      tree callee = gimple_call_fndecl(call);
      const size_t index = redirectedIndex(callee);
      if (index == kCount)
        continue;
      gimple_call_set_fndecl(
          call, wrapper(index, callee, gimple_call_flags(call)));
      update_stmt(call);
      changed = true;
    }
  }
  return changed ? TODO_rebuild_cgraph_edges : 0;
}

void registerProcessCallRoots(const char *pluginName) {
  register_callback(pluginName, PLUGIN_REGISTER_GGC_ROOTS, nullptr,
                    const_cast<ggc_root_tab *>(kRoots));
}

} // namespace pathcov
