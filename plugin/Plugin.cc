// pathcov's GCC plugin: a GIMPLE pass after "ssa" that numbers each
// function's acyclic paths (core/) and instruments it to count them.
#include "Metadata.h"
#include "PluginOptions.h"
#include "pathcov/format/FunctionMetadata.h"
#include "pathcov/core/Chords.h"
#include "pathcov/core/Dag.h"

#include "GimpleCfg.h"
#include "Instrumenter.h"
#include "RuntimeDecls.h"

int plugin_is_GPL_compatible;

namespace pathcov {
namespace {

PluginOptions gOptions;

const pass_data kPassData = {
    GIMPLE_PASS,
    "pathcov",
    OPTGROUP_NONE,
    TV_NONE,
    PROP_cfg | PROP_ssa,
    0,
    0,
    0,
    0,
};

class PathProfilingPass : public gimple_opt_pass {
public:
  explicit PathProfilingPass(gcc::context *ctx)
      : gimple_opt_pass(kPassData, ctx) {}

  bool gate(function *fun) override {
    return fun->cfg && !seen_error() &&
           gOptions.wantsFile(DECL_SOURCE_FILE(fun->decl)
                                  ? DECL_SOURCE_FILE(fun->decl)
                                  : "");
  }

  unsigned int execute(function *fun) override {
    FunctionMetadata f = identifyFunction(fun);
    // pathcov's own runtime, should someone build it with the plugin, must
    // not count its own paths (it would recurse into itself).
    if (f.assemblerName.rfind("__pathcov_", 0) == 0 ||
        !gOptions.wantsFunction(f.assemblerName.c_str(), f.name.c_str()))
      return 0;
    try {
      return instrument(fun, f);
    } catch (const std::exception &e) {
      // Nothing has touched the function yet (see instrument): leave it
      // as it is, say so, and list it as skipped.
      skip(fun, f, e.what());
      return 0;
    }
  }

private:
  unsigned int instrument(function *fun, FunctionMetadata &f) {
    // Everything that can fail comes before the first change to GIMPLE.
    const GimpleCfg g = translateCfg(fun);
    const NumberedDag numbered =
        numberBallLarus(g.cfg, gOptions.pathLimit, g.setjmpBlocks);
    const ChordPlacement chords =
        computeChordIncrements(numbered.dag, numbered.ballLarus, {});
    const std::string problem = checkAbnormalEdges(g, numbered.dag);
    if (!problem.empty()) {
      skip(fun, f, problem);
      return 0;
    }
    const uint64_t numPaths = numbered.ballLarus.totalPaths;
    const bool hashed = numPaths > gOptions.arrayThreshold;
    f.checksum = hex64(g.cfg.checksum());
    f.cfg = g.cfg;
    f.blocks = g.sources;
    f.pathLimit = gOptions.pathLimit;
    f.forcedCuts = g.setjmpBlocks;
    f.cuts = numbered.dag.cuts;
    f.numPaths = numPaths;
    f.acyclicPaths = countAcyclicPaths(g.cfg);
    const FunctionTables tables = emitFunctionTables(
        {f.identity, metadataRecord(f, hashed, gOptions),
         g.cfg.checksum(), numPaths, hashed, gOptions.atomic});
    instrumentPaths(g, numbered, chords, tables, gOptions);
    return TODO_update_ssa |
           (hashed || gOptions.atomic ? TODO_rebuild_cgraph_edges : 0);
  }

  void skip(function *fun, FunctionMetadata &f, const std::string &reason) {
    if (gOptions.warnSkipped)
      warning_at(DECL_SOURCE_LOCATION(fun->decl), 0,
                 "pathcov: %qs is not instrumented: %s", f.name.c_str(),
                 reason.c_str());
    f.skipped = reason;
    emitMetadataOnly(skippedRecord(f));
  }
};

} // namespace
} // namespace pathcov

int plugin_init(plugin_name_args *info, plugin_gcc_version *version) {
  using namespace pathcov;
  if (!plugin_default_version_check(version, &gcc_version)) {
    error("pathcov: this plugin was built for GCC %s", gcc_version.basever);
    return 1;
  }
  std::vector<PluginArgument> args;
  for (int i = 0; i < info->argc; ++i)
    args.push_back({info->argv[i].key,
                    info->argv[i].value ? info->argv[i].value : ""});
  bool help = false;
  const std::string problem = parsePluginArguments(args, gOptions, help);
  if (!problem.empty()) {
    error("pathcov: %s", problem.c_str());
    return 1;
  }
  if (help)
    fputs(kPluginHelp, stderr);

  static plugin_info pluginInfo = {"0.1", kPluginHelp};
  register_callback(info->base_name, PLUGIN_INFO, nullptr, &pluginInfo);
  registerGcRoots(info->base_name);

  register_pass_info pass;
  pass.pass = new PathProfilingPass(g);
  pass.reference_pass_name = "ssa";
  pass.ref_pass_instance_number = 1;
  pass.pos_op = PASS_POS_INSERT_AFTER;
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, nullptr, &pass);
  return 0;
}
