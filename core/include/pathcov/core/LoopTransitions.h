// Loop transitions: the pairs of Ball-Larus paths one activation can run
// back to back across a loop's back edge, i.e. two consecutive iterations
// of the loop as record mode's k=N sees them (its 2-windows, KPaths.h).
// What `pathcov gate --fail-under-k-paths` counts and the HTML report
// shows per loop (docs/gate.md, "Loop transitions").
//
// Definitions, on the numbered DAG (Dag.h):
//  - a loop is identified by its header h: a block some CFG back edge
//    (CfgEdgeRole::BackEdge) enters. Its latches are the distinct sources
//    v of the back edges v->h.
//  - E(v), the paths that end at v: those whose last DAG edge is v's
//    PathEnd dummy v->EXIT. There are as many as DAG paths ENTRY ->* v.
//  - S(h), the paths that start at h: those whose first DAG edge is h's
//    PathStart dummy ENTRY->h: numPaths[h] of them. A path does not say
//    why it started at h (after a back edge, a cut edge or an abnormal
//    edge into h: the dummy is shared), and every one of them can follow
//    any back edge into h, so all of them count.
//  - the 2-iteration transitions of h: T(h) = union over the latches v of
//    E(v) x S(h), a pair (p, q) of path ids; |T(h)| = (sum of |E(v)|) x
//    |S(h)|, saturating at UINT64_MAX. A path ends at one block, so the
//    E(v) are disjoint and parallel back edges v->h count v once; a path
//    starts at one block, so no pair is a transition of two loops. A
//    latch of several loops (v->h1 and v->h2) pairs its E(v) with each
//    header's S.
//  - a tested transition of h: a 2-window (p, q) of the function's
//    k-paths that is in T(h). The runtime joins paths where one follows
//    another in a call (back edges, computed gotos, the function's own
//    handlers), so such a window ran across a back edge into h or another
//    such edge from a latch of h to h (the ids cannot tell them apart). A
//    window in no T(h) (a computed goto or handler elsewhere) is no loop's.
#pragma once

#include "pathcov/core/Dag.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace pathcov {

// Where a path starts and ends.
struct PathEnds {
  // The block whose PathStart dummy ENTRY->start is its first edge;
  // kNoId: it starts at function entry (a CFG edge out of ENTRY).
  BlockId start = kNoId;
  // The block whose PathEnd dummy end->EXIT is its last edge; kNoId: it
  // returns (a CFG edge into EXIT).
  BlockId end = kNoId;
};

// Throws std::out_of_range if id >= bl.totalPaths.
PathEnds pathEnds(const Dag &dag, const BallLarusNumbering &bl, uint64_t id);

// Per block v: the DAG paths ENTRY ->* v (saturating at UINT64_MAX), i.e.
// the paths through v; for a block with a PathEnd dummy, how many paths
// end there (E(v) above). 0 for blocks ENTRY does not reach.
std::vector<uint64_t> pathsToBlocks(const Dag &dag);

struct Loop {
  BlockId header = kNoId;
  std::vector<BlockId> latches; // distinct back-edge sources, ascending
  uint64_t pathsToLatches = 0;  // sum of |E(v)| over the latches
  uint64_t pathsFromHeader = 0; // |S(header)|
  uint64_t transitions = 0;     // |T(header)|, saturating
  bool saturated = false;       // |T(header)| is more than 2^64 - 1
};

// One loop per block a back edge enters, in ascending header order. `dag`
// is `cfg`'s (buildDag).
std::vector<Loop> findLoops(const Cfg &cfg, const Dag &dag,
                            const BallLarusNumbering &bl);

// A pair of path ids: consecutive paths of one activation.
using PathPair = std::pair<uint64_t, uint64_t>;

struct LoopCoverage {
  Loop loop;
  std::vector<PathPair> tested; // its transitions among the windows, in order
};

struct TransitionCoverage {
  std::vector<LoopCoverage> loops; // as findLoops
  std::vector<PathPair> other;     // windows that are no loop's transition
};

// Sorts the 2-windows `windows` (pairs of path ids, each once) of the
// function numbered `numbered` (numberBallLarus of `cfg`) into the loops
// whose transitions they are. Throws std::out_of_range for an id not
// below the path count.
TransitionCoverage loopTransitions(const Cfg &cfg, const NumberedDag &numbered,
                                   const std::vector<PathPair> &windows);

} // namespace pathcov
