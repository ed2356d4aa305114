// pathcov's GCC plugin: a GIMPLE pass after "ssa" that numbers each
// function's acyclic paths (core/) and instruments it to count them.
// The JSON library before GCC's headers (GccIncludes.h), whose poisoned
// identifiers it uses.
#include "pathcov/format/FunctionRecord.h"
#include <nlohmann/json.hpp>
#include "PluginOptions.h"
#include "pathcov/format/CachedCorpus.h"
#include "pathcov/format/FunctionMetadata.h"
#include "pathcov/core/Chords.h"
#include "pathcov/core/Dag.h"
#include "pathcov/core/Paths.h"

#include "AccessorCounts.h"
#include "CountMerge.h"
#include "Dependencies.h"
#include "GimpleCfg.h"
#include "Instrumenter.h"
#include "LoopPeeling.h"
#include "LtoLinkCheck.h"
#include "PathMiss.h"
#include "ProcessCalls.h"
#include "ResidualLowering.h"
#include "RuntimeDecls.h"
#include "TestedWords.h"
#include <unistd.h>

#include <algorithm>

int plugin_is_GPL_compatible;

namespace pathcov {
namespace {

PluginOptions gOptions;
// PATHCOV_FN_PATHS_ARE_CALLS for functions of fewer paths: counters of at
// most 2 KiB, read at every profile.
constexpr uint64_t kPathsAreCallsLimit = 256;
// Made at the first function: GCC knows the unit's file only after
// plugin_init.
std::optional<ProjectPaths> gPaths;
CorpusLookup gCorpus; // residual mode

// The unit's main file, absolute and normal.
std::string unitFile() {
  return absoluteNormal(main_input_filename ? main_input_filename : "",
                        get_src_pwd());
}

// Whether this unit is a build system's probe (isBuildProbe): the plugin
// says nothing there, since some configure scripts take any compiler
// output as the probe's failure and silently build something else
// (libxml2's lost its destructor attribute and socklen_t).
bool compilingBuildProbe() {
  static const bool probe = isBuildProbe(unitFile());
  return probe;
}

// Residual mode's -fplugin-arg-pathcov-stats: functions per table policy,
// how compact PPP made the tables, how many path ends need a check, and
// the seen slots (first sighting only).
struct ResidualStats {
  unsigned byPolicy[kResidualPolicies] = {};
  // PPP delta of the functions whose tested paths PPP numbered
  // (ResidualPlan::ppp): 1, (1,2], (2,4], over 4.
  unsigned byDelta[4] = {};
  uint64_t checkedEnds = 0, uncheckedEnds = 0;
  // Routes into a checked path end left without a check: every path
  // taking them was tested (Instrumenter.h).
  uint64_t testedRoutes = 0;
  // Functions with seen slots, and the slots' bytes (.bss).
  uint64_t seenFunctions = 0, seenBytes = 0;

  // Loops whose first iteration was peeled, and GCC's size estimate of
  // the copies.
  uint64_t peeledLoops = 0, peeledInsns = 0;
  // Checks left out of peeled loops' later iterations (Plugin.cc,
  // leaveOutInnerTestedChecks).
  uint64_t peeledTestedRoutes = 0;

  void addPeeled(PeeledLoops peeled) {
    peeledLoops += peeled.loops;
    peeledInsns += peeled.insns;
  }

  // Routes given their own copy of the blocks before a check, and the
  // statements copied (TestedRoutes.h).
  uint64_t threadedRoutes = 0, threadedStmts = 0;

  void addThreaded(ThreadedRoutes threaded) {
    threadedRoutes += threaded.routes;
    threadedStmts += threaded.stmts;
  }

  // The unit's functions whose identities name it (not those the linker
  // merges, named by their symbols alone: a C++ header's inline ones), and
  // those of them the corpus has.
  unsigned unitNamed = 0, unitNamedFound = 0;

  void addUnitNamed(const FunctionMetadata &f, bool found) {
    if (f.identity == f.assemblerName)
      return;
    ++unitNamed;
    unitNamedFound += found;
  }

  // Whether the unit has functions named by its path and the corpus had
  // none of them.
  bool noneFound() const { return unitNamed > 0 && unitNamedFound == 0; }

  void addSeen(uint64_t words) {
    if (words == 0)
      return;
    ++seenFunctions;
    seenBytes += words * 8;
  }

  void add(const ResidualPlan &plan) {
    ++byPolicy[static_cast<int>(plan.policy)];
    checkedEnds += plan.checkedEnds;
    uncheckedEnds += plan.uncheckedEnds;
    if (plan.ppp.intervalSize == 0)
      return;
    const double d = plan.ppp.delta;
    ++byDelta[d <= 1 ? 0 : d <= 2 ? 1 : d <= 4 ? 2 : 3];
  }

  // On stderr, or one JSON line appended to `file`.
  void print(const std::string &file) const {
    nlohmann::json policies = nlohmann::json::object();
    for (int p = 0; p < kResidualPolicies; ++p)
      policies[residualPolicyName(static_cast<ResidualPolicy>(p))] = byPolicy[p];
    nlohmann::json line = {
        // As in the metadata: a file name that is not UTF-8 stays readable.
        {"unit", wellFormedUtf8(main_input_filename)},
        {"functions", policies},
        {"ppp_delta", {{"1", byDelta[0]}, {"(1,2]", byDelta[1]},
                       {"(2,4]", byDelta[2]}, {"over 4", byDelta[3]}}},
        {"path_ends", {{"checked", checkedEnds}, {"unchecked", uncheckedEnds},
                       {"tested_routes", testedRoutes}}},
        {"seen_slots", {{"functions", seenFunctions}, {"bytes", seenBytes}}},
        {"peeled", {{"loops", peeledLoops}, {"insns", peeledInsns},
                    {"tested_routes", peeledTestedRoutes}}},
        {"threaded", {{"routes", threadedRoutes}, {"stmts", threadedStmts}}},
        // How the corpus was read: its index, the JSON (indexed now), or
        // the JSON only (no index could be trusted or written).
        {"corpus", corpusSourceName(gCorpus.source())}};
    if (!gCorpus.unindexed().empty())
      line["corpus_unindexed"] = gCorpus.unindexed();
    if (file.empty()) {
      fprintf(stderr, "pathcov: %s: residual mode: %s\n", main_input_filename,
              line.dump().c_str());
      return;
    }
    // One write of a whole line: parallel compilers appending to the same
    // file do not interleave within it.
    const std::string text = line.dump() + "\n";
    FILE *out = fopen(file.c_str(), "a");
    bool written = out && fwrite(text.data(), 1, text.size(), out) == text.size();
    if (out && fclose(out) != 0)
      written = false;
    if (!written)
      warning(0, "pathcov: cannot append statistics to %s", file.c_str());
  }
};
ResidualStats gStats;

// A release built from another directory than the tests, with no checkout
// marker, names its files by absolute paths the corpus does not have: the
// corpus then has none of the unit's functions, and every path would be
// reported residual without a word at compile time.
void noteIfNamedElsewhere() {
  if (!gPaths || !gPaths->root().empty() || !gStats.noneFound() ||
      compilingBuildProbe())
    return;
  const std::string unit = (*gPaths)(unitFile());
  if (unit.empty() || unit[0] != '/')
    return; // named relative to a root or by a prefix map
  const std::string why =
      "the corpus has none of this unit's functions (its inline ones aside), "
      "which it names by absolute path (" + unit + ": no .git, .hg, .svn or "
      ".pathcov-root above it): either no program the tests ran was built "
      "from it (collect with --binary PROGRAM to take in a program's "
      "functions even if it never ran), or the test build was in another "
      "directory: then put a .pathcov-root file at the project's root or map "
      "the path with -ffile-prefix-map, in both builds (docs/record-mode.md, "
      "\"Source paths and identities\")";
  // A note, not a warning: a build with -Werror must not fail for it. A
  // unit the tests never ran gives the same message, so it is advice.
  inform(UNKNOWN_LOCATION, "pathcov: %s", why.c_str());
}

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

// Whether `decl` is the user's code, as GCC's own coverage decides
// (tree-profile.cc), and more: this pass also sees the functions GCC makes
// after gcov's pass has run.
//  - Not a function whose body is only here for inlining (extern inline,
//    extern template members such as std::string's): its out-of-line copy
//    lives, uninstrumented, in another library, so its paths would count
//    only where the optimizers happen to inline it, which differs between
//    record and release builds.
//  - Not a builtin's body, nor one marked no_profile_instrument_function.
//  - Not a constructor or destructor GCC itself adds to the unit
//    (AddressSanitizer's, gcov's: `_sub_I_00099_1`): they exist only in
//    some builds, so a release build would report them as untested. User
//    constructors (__attribute__((constructor))) are not artificial, and
//    C++'s static initialisers keep their code in
//    __static_initialization_and_destruction_0, which is not a constructor.
static bool isUserCode(tree decl) {
  if (DECL_EXTERNAL(decl) || DECL_SOURCE_LOCATION(decl) == BUILTINS_LOCATION ||
      lookup_attribute("no_profile_instrument_function", DECL_ATTRIBUTES(decl)))
    return false;
  return !(DECL_ARTIFICIAL(decl) &&
           (DECL_STATIC_CONSTRUCTOR(decl) || DECL_STATIC_DESTRUCTOR(decl)));
}

// Defined in a system header, where the function's name was written (a
// macro's expansion point, as DECL_SOURCE_FILE names it).
static bool inSystemHeader(tree decl) {
  return in_system_header_at(linemap_resolve_location(
      line_table, DECL_SOURCE_LOCATION(decl), LRK_MACRO_EXPANSION_POINT,
      nullptr));
}

class PathProfilingPass : public gimple_opt_pass {
public:
  explicit PathProfilingPass(gcc::context *ctx)
      : gimple_opt_pass(kPassData, ctx) {}

  bool gate(function *fun) override {
    return fun->cfg && !seen_error() && isUserCode(fun->decl) &&
           (gOptions.systemHeaders || !inSystemHeader(fun->decl)) &&
           gOptions.wantsFile(DECL_SOURCE_FILE(fun->decl)
                                  ? DECL_SOURCE_FILE(fun->decl)
                                  : "");
  }

  unsigned int execute(function *fun) override {
    if (!gPaths)
      gPaths.emplace(unitProjectPaths(gOptions.sourceRoot));
    FunctionMetadata f = identifyFunction(fun, *gPaths);
    // pathcov's own runtime, should someone build it with the plugin, must
    // not count its own paths (it would recurse into itself).
    if (f.assemblerName.rfind("__pathcov_", 0) == 0 ||
        !gOptions.wantsFunction(f.assemblerName.c_str(), f.name.c_str()))
      return 0;
    unsigned todo = 0;
    try {
      todo = instrument(fun, f);
    } catch (const std::exception &e) {
      // Nothing has touched the function yet (see instrument): leave it
      // as it is, say so, and list it as skipped.
      skip(fun, f, e.what());
    }
    // Its paths are counted (or it was meant to be): they must be written
    // before an exec, and a vfork child's must not count as its parent's.
    return todo | redirectProcessCalls(fun);
  }

private:
  // What metadata, descriptor and corpus call the function's checksum: its
  // numbering's (Dag.h numberingChecksum).
  static uint64_t checksumOf(const GimpleCfg &g, const NumberedDag &numbered) {
    return numberingChecksum(g.cfg, numbered.dag.cuts, g.setjmpBlocks);
  }

  unsigned int instrument(function *fun, FunctionMetadata &f) {
    // Everything that can fail comes before the first change to GIMPLE.
    const GimpleCfg g = translateCfg(fun, *gPaths);
    const NumberedDag numbered =
        numberBallLarus(g.cfg, gOptions.pathLimit, g.setjmpBlocks);
    const std::string problem = checkAbnormalEdges(g, numbered.dag);
    if (!problem.empty()) {
      skip(fun, f, problem);
      return 0;
    }
    f.checksum = hex64(checksumOf(g, numbered));
    f.cfg = g.cfg;
    f.blocks = g.sources;
    f.pathLimit = gOptions.pathLimit;
    f.forcedCuts = g.setjmpBlocks;
    f.cuts = numbered.dag.cuts;
    f.numPaths = numbered.ballLarus.totalPaths;
    f.acyclicPaths = countAcyclicPaths(g.cfg);
    return gOptions.mode == PluginMode::Record
               ? instrumentRecord(fun, g, numbered, f)
               : instrumentResidual(fun, g, numbered, f);
  }

  unsigned int instrumentRecord(function *fun, const GimpleCfg &g,
                                const NumberedDag &numbered,
                                const FunctionMetadata &f) {
    const ChordPlacement chords = computeChordIncrements(
        numbered.dag, numbered.ballLarus, {}, lastRunEdgeCounts(numbered, f));
    // Inline counters: a power of two of them, the first num_paths one per
    // path, the rest for ids out of range; the id is masked into them (one
    // AND where a bound took a compare and a conditional move).
    const uint64_t counters = powerOfTwoAtLeast(f.numPaths + 1);
    const bool hashed = f.numPaths > gOptions.arrayThreshold || counters == 0;
    const uint64_t lastCounter = hashed ? 0 : counters - 1;
    // An accessor inlined in a loop would count twice per iteration.
    const bool callsArePath = f.numPaths == 1 && g.setjmpBlocks.empty() &&
                              onlyReturns(fun);
    // Without loops, cuts or abnormal edges every call runs one path from
    // entry to return, and where nothing can interrupt it the paths'
    // counts sum to the calls: a comparator inlined in a loop counts once,
    // not twice. Without an entry count nothing says the function ran, and
    // every profile reads its counters: a few cache lines at most.
    const bool oneRunAPath =
        f.numPaths > 1 && f.numPaths < kPathsAreCallsLimit && !hashed &&
        g.setjmpBlocks.empty() &&
        std::all_of(numbered.dag.cfgEdgeRole.begin(), numbered.dag.cfgEdgeRole.end(),
                    [](CfgEdgeRole r) {
                      return r == CfgEdgeRole::InDag || r == CfgEdgeRole::Unreachable;
                    });
    const bool pathsAreCalls = oneRunAPath && onlyReturns(fun);
    // k=N: windows of paths only where one path can follow another.
    const bool kPaths = gOptions.k > 1 && !callsArePath &&
                        pathsFollowPaths(g, numbered.dag);
    FunctionTableSpec spec;
    spec.identity = f.identity;
    if (kPaths) {
      FunctionMetadata withWindows = f;
      withWindows.k = gOptions.k;
      spec.metadata = recordModeRecord(withWindows, hashed,
                                       gOptions.arrayThreshold, gOptions.atomic);
    } else {
      spec.metadata = recordModeRecord(f, hashed, gOptions.arrayThreshold,
                                       gOptions.atomic);
    }
    spec.cfgChecksum = checksumOf(g, numbered);
    spec.numPaths = f.numPaths;
    spec.flags = (pathsAreCalls ? kFlagPathsAreCalls : kFlagEntryCounted) |
                 (hashed ? kFlagHashed : 0) | (gOptions.atomic ? kFlagAtomic : 0) |
                 (callsArePath ? kFlagCallsArePath : 0);
    spec.tableSize = lastCounter;
    spec.numCounters = hashed ? 0 : counters;
    // A hashed function's paths are counted inline in seen slots once the
    // runtime gave them one (x86-64: PathMiss.h), not by a call each time.
    spec.seenSlots = hashed && TARGET_64BIT ? kRecordSeenSlots : 0;
    spec.countsCalls = !pathsAreCalls;
    FunctionTables pathEnds;
    attachTables(pathEnds, emitFunctionTables(spec));
    pathEnds.pathEnd = hashed ? PathEnd::CountHashed : PathEnd::CountInline;
    pathEnds.bound = lastCounter;
    // PATHCOV_FN_CALLS_ARE_PATH: the entries count the one path, whose
    // path end gets no code.
    std::vector<bool> noPathEnd;
    if (callsArePath) {
      noPathEnd.assign(numbered.dag.edges.size(), false);
      pathEnds.checkedEnd = &noPathEnd;
    }
    pathEnds.seenSlots = spec.seenSlots;
    // Only an abnormal edge (a longjmp's, a nonlocal or computed goto's)
    // can resume a path mid-way; without one, the numbering's ids are all
    // there is.
    pathEnds.idsInRange =
        g.setjmpBlocks.empty() &&
        std::none_of(numbered.dag.cfgEdgeRole.begin(),
                     numbered.dag.cfgEdgeRole.end(),
                     [](CfgEdgeRole r) { return r == CfgEdgeRole::Abnormal; });
    // Calls not known to return: decided again after the early inliner
    // (AccessorCounts.h).
    if (f.numPaths == 1 && !callsArePath && !kPaths && g.setjmpBlocks.empty() &&
        !hashed)
      noteLateCounts(fun, pathEnds.descriptor, pathEnds.counters, kFlagCallsArePath);
    if (oneRunAPath && !pathsAreCalls)
      noteLateCounts(fun, pathEnds.descriptor, pathEnds.calls, kFlagPathsAreCalls);
    if (kPaths)
      pathEnds.kpaths = emitKPaths(pathEnds.descriptor, gOptions.k);
    instrumentPaths(g, numbered, chords, pathEnds, gOptions);
    return TODO_update_ssa |
           (hashed || gOptions.atomic || kPaths ? TODO_rebuild_cgraph_edges
                                                : 0);
  }

  // Record mode with corpus=: how often the corpus's tests ran each DAG
  // edge, where it has the function with this CFG (the ids are then this
  // numbering's); else nothing, and the compiler's estimates place the
  // chords. The ids and counts are the same either way.
  static std::vector<uint64_t> lastRunEdgeCounts(const NumberedDag &numbered,
                                                 const FunctionMetadata &f) {
    if (gOptions.corpus.empty())
      return {};
    std::string corpusProblem;
    for (const TestedPaths &entry : gCorpus.find(f.identity, corpusProblem))
      if (entry.checksum == f.checksum && entry.counts.size() == entry.ids.size()) {
        try {
          return edgeRunsOfPaths(numbered.dag, numbered.ballLarus, entry.ids,
                                 entry.counts);
        } catch (const std::out_of_range &) {
          return {}; // a corrupt corpus (the checksum names the numbering)
        }
      }
    if (!corpusProblem.empty())
      error("pathcov: corpus %s", corpusProblem.c_str());
    return {};
  }

  unsigned int instrumentResidual(function *fun, const GimpleCfg &g,
                                  const NumberedDag &numbered,
                                  const FunctionMetadata &f) {
    // The corpus entry with this CFG, else any (a stale one), else none.
    const TestedPaths *tested = nullptr;
    std::string corpusProblem;
    const std::vector<TestedPaths> &versions = gCorpus.find(f.identity, corpusProblem);
    for (const TestedPaths &entry : versions)
      if (!tested || entry.checksum == f.checksum)
        tested = &entry;
    if (!corpusProblem.empty())
      error("pathcov: corpus %s", corpusProblem.c_str());
    // References, not copies of every tested function's ids and counts.
    static const std::vector<uint64_t> kNone;
    ResidualPlan plan = planResidual(
        numbered, checksumOf(g, numbered), tested ? tested->checksum : "",
        tested ? tested->ids : kNone, gOptions.residualLimits,
        tested ? tested->counts : kNone);
    if (plan.policy == ResidualPolicy::Untested)
      for (const TestedPaths &entry : versions)
        if (entry.checksum != f.checksum && !entry.ids.empty())
          plan.testedVersions.push_back({entry.checksum, entry.ids.size()});
    if (plan.policy == ResidualPolicy::Stale && gOptions.warnStale &&
        !compilingBuildProbe())
      warnStale(fun, f, *tested, plan);
    // What decode says of a stale function: why, where it is known.
    if (plan.policy == ResidualPolicy::Stale &&
        !sameCfgOptimizationClass(tested->optimization, f.optimization))
      plan.why += "; the tests were built at " + tested->optimization +
                  ", this build at " + f.optimization;
    gStats.add(plan);
    gStats.addUnitNamed(f, tested != nullptr);

    const ResidualPolicy policy = plan.policy;
    // Every path of a complete function is tested: no code, and no
    // descriptor either (nothing can be reported against it; a descriptor
    // costs ~250 loaded bytes with its relocations and identity). The
    // tools still find its metadata. With history=N its paths still go
    // into the history: its path ends do that alone.
    if (policy == ResidualPolicy::Complete && gOptions.historyLog2 == 0) {
      emitMetadataOnly(residualModeRecord(f, plan, gOptions.atomic));
      return 0;
    }
    ResidualLowering lowered = lowerResidualPlan(
        plan, f.numPaths, gOptions.atomic,
        TARGET_64BIT && !gOptions.residualLimits.countTested);
    FunctionTableSpec &spec = lowered.spec;
    spec.identity = f.identity;
    spec.metadata = residualModeRecord(f, plan, gOptions.atomic);
    spec.cfgChecksum = checksumOf(g, numbered);
    spec.flags |= uint64_t(gOptions.historyLog2) << kFlagHistoryShift;
    gStats.addSeen(spec.seenArrayWords());
    attachTables(lowered.pathEnds, emitFunctionTables(spec));
    lowered.pathEnds.history = gOptions.historyLog2 != 0;
    const InstrumentedPaths instrumented =
        instrumentPaths(g, numbered, plan.chords, lowered.pathEnds, gOptions);
    gStats.testedRoutes += instrumented.testedRoutes;
    std::vector<CheckSite> checks = instrumented.checks;
    // Copies are worth their size only where the optimizers run after.
    const bool copy = optimize > 0 && !optimize_function_for_size_p(fun);
    if (!plan.peel.empty() && copy) {
      std::vector<basic_block> headers;
      for (BlockId b : plan.peel)
        headers.push_back(g.blockOf[b]);
      const PeeledLoops peeled =
          peelFirstIterations(fun, headers, gOptions.peelInsns);
      gStats.addPeeled(peeled);
      gStats.peeledTestedRoutes += leaveOutInnerTestedChecks(peeled, checks);
    }
    // A copy's check folds where the id is a constant: `checks` are the
    // table checks (bytemap, array, hashed), whose tables are constant
    // unless they count. An array's PPP id is then a constant too: both
    // registers change on the same chords, and the Ball-Larus value at a
    // block fixes the path that led there.
    if (copy && gOptions.threadStmts != 0 && !plan.counted)
      gStats.addThreaded(threadTestedRoutes(fun, checks, plan.tested,
                                            gOptions.threadStmts));
    return TODO_update_ssa | TODO_rebuild_cgraph_edges;
  }

  // A peeled loop's later iterations run only paths that do not start at
  // the function's entry: a check there whose every such path was tested
  // never misses, and goes (its branch made false; the optimizers remove
  // the rest). The first iteration's copy keeps it. Returns how many went;
  // `checks` keeps the others.
  static unsigned leaveOutInnerTestedChecks(const PeeledLoops &peeled,
                                            std::vector<CheckSite> &checks) {
    unsigned left = 0;
    auto kept = checks.begin();
    for (const CheckSite &check : checks) {
      if (check.innerTested && peeled.inLaterIterations(gimple_bb(check.branch))) {
        gimple_cond_make_false(check.branch);
        update_stmt(check.branch);
        ++left;
      } else {
        *kept++ = check;
      }
    }
    checks.erase(kept, checks.end());
    return left;
  }

  // A line per stale function, but one per unit when the tests were built
  // at -O0 and this unit optimizes (or the reverse): then all are stale
  // for that one reason. Under GCC's -Wmissing-profile (on by default: the
  // profile of the code being built is missing), so that a -Werror build
  // can keep it a warning (-Wno-error=missing-profile): a corpus one
  // configuration behind (another -std, -fno-exceptions, macros) is no
  // reason to fail a build.
  void warnStale(function *fun, const FunctionMetadata &f,
                 const TestedPaths &tested, const ResidualPlan &plan) {
    if (sameCfgOptimizationClass(tested.optimization, f.optimization)) {
      warning_at(DECL_SOURCE_LOCATION(fun->decl), OPT_Wmissing_profile,
                 "pathcov: the corpus has %qs only with another CFG (%s): "
                 "every path of it is reported as residual; the tests built "
                 "it otherwise (other macros, %<-std%>, %<-fno-exceptions%>, "
                 "another %<path-limit%>) or its source changed since",
                 f.name.c_str(), plan.why.c_str());
      return;
    }
    if (warnedOptimization_)
      return;
    warnedOptimization_ = true;
    // Said of the unit, not at its first function: that may be a header's
    // (jq's units all pointed at jv.h's inline jv_get_kind). Nor under it:
    // GCC heads a warning with the function being compiled ("In function
    // 'BrotliUnalignedRead32':", a new user's brotli); with none, "At top
    // level:".
    const tree compiling = current_function_decl;
    current_function_decl = NULL_TREE;
    warning_at(UNKNOWN_LOCATION, OPT_Wmissing_profile,
               "pathcov: %s: the corpus was recorded at %qs, this unit is built "
               "at %qs: GCC%'s CFGs differ between %<-O0%> and the optimizing "
               "levels, so this unit%'s functions are stale (every path "
               "residual); build the tests and the release both at %<-O0%> or "
               "both at %<-Og%> or above (docs/in-your-build.md)",
               main_input_filename, tested.optimization.c_str(),
               f.optimization.c_str());
    current_function_decl = compiling;
  }
  bool warnedOptimization_ = false;

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

namespace pathcov {
namespace {
// Runs `pass` after the first instance of GCC's pass `reference`.
void addPassAfter(const char *pluginName, opt_pass *pass, const char *reference) {
  register_pass_info where;
  where.pass = pass;
  where.reference_pass_name = reference;
  where.ref_pass_instance_number = 1;
  where.pos_op = PASS_POS_INSERT_AFTER;
  register_callback(pluginName, PLUGIN_PASS_MANAGER_SETUP, nullptr, &where);
}
} // namespace
} // namespace pathcov

int plugin_init(plugin_name_args *info, plugin_gcc_version *version) {
  using namespace pathcov;
  if (!plugin_default_version_check(version, &gcc_version)) {
    error("pathcov: this plugin was built for GCC %s", gcc_version.basever);
    return 1;
  }
  // After the optimizers have folded what they could (TestedWords.h),
  // in every compilation, lto1's included: its units carry their marks.
  addPassAfter(info->base_name, makeTestedWordsPass(g), "optimized");
  // And after inlining (lto1's too), counts of one counter in a row.
  addPassAfter(info->base_name, makeCountMergePass(g), "optimized");
  // lto1, -flto's link-time compiler (WPA, LTRANS, or both in one), reads
  // functions the compilations instrumented already, and runs no pass
  // before "ssa": nothing more to do and no corpus to read, so none to ask
  // for (a link's flags need not repeat the corpus); only to say when the
  // compilations did not instrument anything.
  if (strcmp(lang_hooks.name, "GNU GIMPLE") == 0) {
    addPassAfter(info->base_name, makeLtoLinkCheckPass(g), "whole-program");
    return 0;
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
  if (gOptions.mode == PluginMode::Record)
    addPassAfter(info->base_name, makeAccessorCountsPass(g), "einline");
  // The history's path ends are x86-64 assembly (PathMiss.h).
  if (gOptions.historyLog2 != 0 && !TARGET_64BIT) {
    error("pathcov: history=N needs an x86-64 target");
    return 1;
  }
  if (!gOptions.corpus.empty()) {
    const std::string corpusProblem = gCorpus.open(gOptions.corpus);
    if (!corpusProblem.empty()) {
      // Build systems compile in directories of their own (CMake: the build
      // tree), so say where a relative name was looked up.
      char cwd[4096];
      if (gOptions.corpus[0] != '/' && getcwd(cwd, sizeof cwd))
        error("pathcov: corpus %s (looked up in %s, the working directory of the "
              "compiler: give an absolute path)",
              corpusProblem.c_str(), cwd);
      else
        error("pathcov: corpus %s", corpusProblem.c_str());
      return 1;
    }
  }
  if (gOptions.mode == PluginMode::Residual) {
    register_callback(info->base_name, PLUGIN_FINISH_UNIT,
                      [](void *, void *) {
                        if (gOptions.stats)
                          gStats.print(gOptions.statsFile);
                        noteIfNamedElsewhere();
                      },
                      nullptr);
  }

  // What the object depends on besides its sources: the plugin, in either
  // mode (another pathcov instruments otherwise, so an upgrade compiles
  // the objects again), and a residual build's corpus, which decides the
  // paths it reports (a new user's brotli release, built again against a
  // corpus that had its field paths by then, recompiled nothing and
  // reported them all).
  static std::string pluginFile = info->full_name;
  register_callback(info->base_name, PLUGIN_START_UNIT,
                    [](void *, void *) {
                      addDependency(pluginFile);
                      if (gOptions.mode == PluginMode::Residual)
                        addDependency(gOptions.corpus);
                    },
                    nullptr);

  static plugin_info pluginInfo = {PATHCOV_VERSION, kPluginHelp};
  register_callback(info->base_name, PLUGIN_INFO, nullptr, &pluginInfo);
  registerGcRoots(info->base_name);
  registerProcessCallRoots(info->base_name);

  addPassAfter(info->base_name, new PathProfilingPass(g), "ssa");
  return 0;
}
