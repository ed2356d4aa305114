#include "GimpleCfg.h"

#include <algorithm>

namespace pathcov {

namespace {

EdgeKind kindOf(edge e) {
  if (e->flags & EDGE_ABNORMAL)
    return EdgeKind::Abnormal;
  if (e->flags & EDGE_EH)
    return EdgeKind::Eh;
  if (e->flags & EDGE_TRUE_VALUE)
    return EdgeKind::True;
  if (e->flags & EDGE_FALSE_VALUE)
    return EdgeKind::False;
  const gimple *last = last_stmt(e->src);
  if (last && (gimple_code(last) == GIMPLE_SWITCH ||
               gimple_code(last) == GIMPLE_EH_DISPATCH))
    return EdgeKind::SwitchCase;
  return EdgeKind::Fallthru;
}

// Only ranks edges for the spanning tree (the chords get the code). Right
// after the ssa pass GCC has no profile estimate yet, so, as Ball and
// Larus's QPT did, assume each loop level runs 8 times as often as the one
// around it: the tree then keeps the edges inside loops and the register
// updates land outside them.
uint64_t frequencyOf(function *fun, edge e) {
  const profile_count count = e->count();
  if (count.initialized_p() && count.to_gcov_type() > 0)
    return static_cast<uint64_t>(count.to_gcov_type());
  if (!loops_for_fn(fun) || loops_state_satisfies_p(fun, LOOPS_NEED_FIXUP) ||
      !e->src->loop_father || !e->dest->loop_father)
    return 1;
  const unsigned depth = loop_depth(
      find_common_loop(e->src->loop_father, e->dest->loop_father));
  return uint64_t(1) << (3 * std::min(depth, 20u));
}

gimple *firstRealStmt(basic_block bb) {
  for (gimple_stmt_iterator gsi = gsi_after_labels(bb); !gsi_end_p(gsi);
       gsi_next(&gsi))
    if (!is_gimple_debug(gsi_stmt(gsi)))
      return gsi_stmt(gsi);
  return nullptr;
}

AbnormalRole abnormalRoleOf(basic_block bb) {
  if (bb->index == ENTRY_BLOCK || bb->index == EXIT_BLOCK)
    return AbnormalRole::None;
  gimple *first = firstRealStmt(bb);
  if (first && gimple_call_internal_p(first, IFN_ABNORMAL_DISPATCHER))
    return AbnormalRole::Dispatcher;
  if (first && is_gimple_call(first) &&
      (gimple_call_flags(first) & ECF_RETURNS_TWICE))
    return AbnormalRole::SetjmpReceiver;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE(e, ei, bb->succs)
    if (!(e->flags & EDGE_ABNORMAL))
      return AbnormalRole::None;
  return AbnormalRole::NoNormalSuccessor;
}

// The macro expansion `loc` is a token of (the innermost), or null.
const line_map *expansionOf(location_t loc) {
  const line_map *map = linemap_lookup(line_table, LOCATION_LOCUS(loc));
  return linemap_macro_expansion_map_p(map) ? map : nullptr;
}

// `loc` as a token of the expansion `defining`, if it comes from that one
// (itself or through the macros it uses: a use of one stands where it is
// written), else UNKNOWN_LOCATION.
location_t inExpansion(location_t loc, const line_map *defining) {
  loc = LOCATION_LOCUS(loc);
  const line_map *map = linemap_lookup(line_table, loc);
  while (linemap_macro_expansion_map_p(map)) {
    if (map == defining)
      return loc;
    // In: the map of the location it unwinds; out: that of its result.
    loc = linemap_unwind_toward_expansion(line_table, loc, &map);
  }
  return UNKNOWN_LOCATION;
}

// A statement of the macro expansion that spells its function's name
// (`defining`: BSD's tree.h, whose RB_GENERATE_INTERNAL defines functions,
// where every statement was at the line that expands RB_GENERATE_STATIC,
// and a new user's libuv's paths read `59(true) 59(true) 59(false)`) is
// placed in that macro's definition. Others are placed where they are
// expanded, as gcov does: in a function a macro only names (GoogleTest's
// TEST), its statements and the macros they use are the test's own lines.
SourceBlock sourceOf(basic_block bb, const char *functionFile,
                     const line_map *defining, const ProjectPaths &paths) {
  SourceBlock source;
  // A local's end of life (a clobber) where routes join has the location
  // of one route's exit from its scope: in a return block, that of the
  // first return GCC lowered, and every path to any return ended on that
  // line (expat's doContent). On a route of its own it is that route's
  // (a `continue`).
  const bool joins = EDGE_COUNT(bb->preds) > 1;
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
       gsi_next(&gsi)) {
    const gimple *stmt = gsi_stmt(gsi);
    const location_t loc = gimple_location(stmt);
    if (loc == UNKNOWN_LOCATION || is_gimple_debug(stmt) ||
        (joins && gimple_clobber_p(stmt)))
      continue;
    const location_t defined = defining ? inExpansion(loc, defining)
                                        : UNKNOWN_LOCATION;
    const expanded_location where = defined != UNKNOWN_LOCATION
                                        ? expand_location_to_spelling_point(defined)
                                        : expand_location(loc);
    if (!where.file || where.line <= 0)
      continue;
    if (source.lines.empty() && strcmp(where.file, functionFile) != 0)
      source.file = where.file;
    const bool sameFile = source.file.empty()
                              ? strcmp(where.file, functionFile) == 0
                              : source.file == where.file;
    if (sameFile && std::find(source.lines.begin(), source.lines.end(),
                              where.line) == source.lines.end())
      source.lines.push_back(where.line);
  }
  if (!source.file.empty())
    source.file = paths(source.file);
  return source;
}

} // namespace

GimpleCfg translateCfg(function *fun, const ProjectPaths &paths) {
  std::vector<basic_block> blocks{ENTRY_BLOCK_PTR_FOR_FN(fun),
                                  EXIT_BLOCK_PTR_FOR_FN(fun)};
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun)
    blocks.push_back(bb);
  std::sort(blocks.begin() + 2, blocks.end(),
            [](basic_block a, basic_block b) { return a->index < b->index; });

  GimpleCfg g{Cfg(static_cast<uint32_t>(blocks.size()), 0, 1), blocks, {},
              {}, {}, {}, {}};
  g.blockIndex.assign(last_basic_block_for_fn(fun), kNoId);
  for (BlockId id = 0; id < blocks.size(); ++id)
    g.blockIndex[blocks[id]->index] = id;

  const char *functionFile = DECL_SOURCE_FILE(fun->decl);
  const line_map *defining = expansionOf(DECL_SOURCE_LOCATION(fun->decl));
  for (BlockId id = 0; id < blocks.size(); ++id) {
    g.abnormalRole.push_back(abnormalRoleOf(blocks[id]));
    g.sources.push_back(sourceOf(blocks[id], functionFile, defining, paths));
    if (g.abnormalRole.back() == AbnormalRole::SetjmpReceiver)
      g.setjmpBlocks.push_back(id);
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, blocks[id]->succs) {
      g.cfg.addEdge(id, g.idOf(e->dest), kindOf(e), frequencyOf(fun, e));
      g.edgeOf.push_back(e);
    }
  }
  return g;
}

ProjectPaths unitProjectPaths(const std::string &sourceRoot) {
  // -ffile-prefix-map sets both maps; -fprofile-prefix-map and
  // -fdebug-prefix-map one each.
  const auto prefixMap = [](const std::string &path) -> std::string {
    const char *profile = remap_profile_filename(path.c_str());
    return strcmp(profile, path.c_str()) != 0
               ? profile
               : remap_debug_filename(path.c_str());
  };
  return ProjectPaths(get_src_pwd(), sourceRoot,
                      main_input_filename ? main_input_filename : "", prefixMap);
}

namespace {

// The -O option `decl` is compiled with: the command line's last, or its
// optimize attribute.
std::string optimizationOption(tree decl) {
  if (opt_for_fn(decl, optimize_debug))
    return "-Og";
  if (opt_for_fn(decl, optimize_fast))
    return "-Ofast";
  switch (opt_for_fn(decl, optimize_size)) {
  case 0:
    return "-O" + std::to_string(opt_for_fn(decl, optimize));
  case 1:
    return "-Os";
  default:
    return "-Oz";
  }
}

} // namespace

FunctionMetadata identifyFunction(function *fun, const ProjectPaths &paths) {
  tree decl = fun->decl;
  FunctionMetadata f;
  f.assemblerName =
      targetm.strip_name_encoding(IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl)));
  f.name = lang_hooks.decl_printable_name(decl, 2);
  f.tu = paths(main_input_filename ? main_input_filename : "");
  f.file = paths(DECL_SOURCE_FILE(decl) ? DECL_SOURCE_FILE(decl) : "");
  f.sourceRoot = paths.root();
  f.line = DECL_SOURCE_LINE(decl);
  f.optimization = optimizationOption(decl);
  // A function the linker keeps one copy of (inline, template, weak) is
  // one function wherever it was emitted: the ODR makes its name enough.
  // So is a header's static one: the linker keeps each unit's copy, and
  // which one an inline caller runs depends on the link (ninja's
  // MurmurHash2, -flto). But not a header the build generated (gnulib's,
  // in an out-of-tree build directory): its name is the build's. Any
  // other is its unit's: statics of the same name in different units,
  // and each program's `main`, stay apart.
  const bool linkerMerged =
      DECL_COMDAT(decl) || DECL_ONE_ONLY(decl) || DECL_WEAK(decl);
  const bool headerStatic = !TREE_PUBLIC(decl) && DECL_SOURCE_FILE(decl) &&
                            paths.buildIndependent(DECL_SOURCE_FILE(decl));
  f.identity = functionIdentity(linkerMerged, headerStatic, f.tu, f.file,
                                f.assemblerName);
  return f;
}

bool onlyReturns(function *fun) {
  if (fun->can_throw_non_call_exceptions)
    return false;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun)
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
       gsi_next(&gsi)) {
    const gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
    if (!call)
      continue;
    const int flags = gimple_call_flags(call);
    // A const or pure function that finishes cannot exit, longjmp or stay.
    // GCC finds so (ipa-pure-const) function by function, callees first:
    // by the time the early inliner has run on a function, for its callees
    // (AccessorCounts.h asks then).
    const bool finishes =
        gimple_call_internal_p(call) ||
        gimple_call_builtin_p(call, BUILT_IN_NORMAL) ||
        ((flags & (ECF_CONST | ECF_PURE)) && !(flags & ECF_LOOPING_CONST_OR_PURE));
    if (!finishes || !(flags & ECF_NOTHROW) ||
        (flags & (ECF_NORETURN | ECF_RETURNS_TWICE)))
      return false;
  }
  return true;
}

void removeStatements(basic_block bb,
                      const std::function<bool(const gimple *)> &which) {
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);) {
    gimple *stmt = gsi_stmt(gsi);
    if (which(stmt)) {
      unlink_stmt_vdef(stmt);
      gsi_remove(&gsi, true);
      release_defs(stmt);
    } else {
      gsi_next(&gsi);
    }
  }
}

bool enteredOnlyAbnormally(basic_block bb) {
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE(e, ei, bb->preds)
    if (!(e->flags & EDGE_ABNORMAL))
      return false;
  return true;
}

bool asksBuiltinConstantP(basic_block bb) {
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
       gsi_next(&gsi))
    if (gimple_call_builtin_p(gsi_stmt(gsi), BUILT_IN_CONSTANT_P))
      return true;
  return false;
}

} // namespace pathcov
