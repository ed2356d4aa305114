// DAG conversion (Ball-Larus section 4) and Ball-Larus numbering with cuts
// (PPP paper Figure 1, Ball-Larus section 5.3).
//
// Every edge that ends an acyclic path - a DFS back edge (irreducible loops
// and self loops included), an abnormal edge, a fake edge, an out-edge of a
// cut node - leaves the DAG. Its source gets one dummy edge v->EXIT (the
// path ends at v) and its target one dummy edge ENTRY->w (a path starts at
// w), one of each per block as in the paper, whatever the reasons.
#pragma once

#include "pathcov/core/Cfg.h"
#include "pathcov/core/Checked.h"

#include <cstdint>
#include <vector>

namespace pathcov {

using DagEdgeId = uint32_t;

enum class DagEdgeRole : uint8_t {
  Cfg,       // a CFG edge kept in the DAG: its code goes on that edge
  PathStart, // dummy ENTRY->w: done by the code that starts a path at w
  PathEnd,   // dummy v->EXIT: done by the code that ends a path at v
};

// What became of each CFG edge in the DAG.
enum class CfgEdgeRole : uint8_t {
  InDag,       // kept as a DAG edge
  BackEdge,    // DFS back edge: ends a path at src, starts one at dst
  Abnormal,    // never carries code: ends a path at src, starts one at dst
  Fake,        // to EXIT: ends a path at src; from ENTRY: starts one at dst
  Cut,         // out-edge of a cut node: ends a path at src, starts one at dst
  Unreachable, // its source can never run
};

const char *dagEdgeRoleName(DagEdgeRole role);
const char *cfgEdgeRoleName(CfgEdgeRole role);

struct DagEdge {
  BlockId src;
  BlockId dst;
  DagEdgeRole role;
  EdgeId cfgEdge;     // for DagEdgeRole::Cfg, else kNoId
  // The CFG edge's. A path start's is 0: its increment is the value the
  // register starts with, which costs nothing. A path end's is how often
  // paths end there (its CFG edges'): its increment is an add before the
  // check or count (and the miss's argument), so it belongs on the tree.
  uint64_t frequency;
};

// DAG nodes are the CFG's blocks (same ids); unreachable blocks have no edges.
struct Dag {
  BlockId entry = 0;
  BlockId exit = 0;
  std::vector<DagEdge> edges;
  std::vector<std::vector<DagEdgeId>> out; // per block, in visiting order
  std::vector<DagEdgeId> pathStart;        // per block: ENTRY->w or kNoId
  std::vector<DagEdgeId> pathEnd;          // per block: v->EXIT or kNoId
  std::vector<bool> reachable;             // per block
  // Per block: the target of an abnormal (or fake) edge. No code can go on
  // such an edge, so the spanning tree keeps the block's ENTRY->w dummy:
  // its paths start with both registers at 0, whichever edge led there.
  std::vector<bool> enteredAbnormally;
  std::vector<CfgEdgeRole> cfgEdgeRole;    // per CFG edge
  std::vector<DagEdgeId> dagEdgeOfCfgEdge; // per CFG edge: kNoId unless InDag
  std::vector<BlockId> cuts;               // cut blocks, in the order cut

  uint32_t numNodes() const { return static_cast<uint32_t>(out.size()); }
  // Every reachable node, each after all of its DAG successors.
  std::vector<BlockId> reverseTopologicalOrder() const;
};

// Ball-Larus section 4 (and gcov's fake edges for abnormal ones). A block
// other than EXIT that is left with no out-edge (a noreturn call without a
// fake edge, __builtin_unreachable) ends its paths through a PathEnd dummy.
// `cuts` lists blocks whose out-edges (except those into EXIT) end paths.
Dag buildDag(const Cfg &cfg, const std::vector<BlockId> &cuts = {});

// computeBLIncrements (PPP Figure 1; Ball-Larus Figure 5).
struct BallLarusNumbering {
  std::vector<uint64_t> numPaths; // per block: paths from it to EXIT
  std::vector<uint64_t> value;    // per DAG edge: Val(e)
  uint64_t totalPaths = 0;        // numPaths[ENTRY]: ids are 0..total-1
};

// Throws NumberingOverflow if a count exceeds `limit` (or 64 bits).
BallLarusNumbering computeBLIncrements(const Dag &dag,
                                       uint64_t limit = UINT64_MAX);

// Keeps every path id (and every PPP id, whose interval is never larger)
// below 2^61: ids fit a 64-bit register with room to spare. Chord
// increments may not, and need not: the registers wrap (Chords.h).
inline constexpr uint64_t kDefaultPathLimit = uint64_t(1) << 61;

struct NumberedDag {
  Dag dag;
  BallLarusNumbering ballLarus;
};

// Builds the DAG and numbers it, cutting (Ball-Larus section 5.3) every
// block whose path count would pass `pathLimit`, so that all ids of the
// function fit below it. Cuts are chosen in a fixed order from the graph
// alone: the same CFG is always cut the same way. `forcedCuts` are cut
// first whatever their counts (the plugin cuts setjmp calls).
NumberedDag numberBallLarus(const Cfg &cfg,
                            uint64_t pathLimit = kDefaultPathLimit,
                            const std::vector<BlockId> &forcedCuts = {});

// Identifies the numbering of `cfg` cut at `cuts`, of which `forcedCuts`
// follow from the graph (setjmp calls): the CFG's checksum where nothing
// else was cut, so that a function no path limit cuts keeps its checksum;
// else that mixed with the other cuts. The same CFG under another
// path-limit= has other ids, and a corpus of one numbering must never be
// read in another (metadata `checksum`, profiles, corpora).
uint64_t numberingChecksum(const Cfg &cfg, const std::vector<BlockId> &cuts,
                           const std::vector<BlockId> &forcedCuts);

// Acyclic paths of the uncut DAG, for coverage ratios.
struct PathCount {
  uint64_t count = 0;
  bool saturated = false; // more than 2^64 - 1 paths
};
PathCount countAcyclicPaths(const Cfg &cfg);

} // namespace pathcov
