// Path regeneration (Ball-Larus section 3.5) and its inverse.
#pragma once

#include "pathcov/core/Dag.h"

#include <cstdint>
#include <vector>

namespace pathcov {

// The DAG edges of path `id`, ENTRY to EXIT. Throws std::out_of_range if
// id >= bl.totalPaths.
std::vector<DagEdgeId> regeneratePath(const Dag &dag,
                                      const BallLarusNumbering &bl,
                                      uint64_t id);

// How often the paths `ids` ran each DAG edge, path `ids[i]` `counts[i]`
// times (saturating): computeChordIncrements' measured edge counts, from a
// corpus. Throws std::out_of_range for an id that is not a path.
std::vector<uint64_t> edgeRunsOfPaths(const Dag &dag,
                                      const BallLarusNumbering &bl,
                                      const std::vector<uint64_t> &ids,
                                      const std::vector<uint64_t> &counts);

// The Ball-Larus id of a path given as DAG edges (the sum of their values).
// Throws GraphError if the edges do not form an ENTRY->EXIT path.
uint64_t ballLarusIdOf(const Dag &dag, const BallLarusNumbering &bl,
                       const std::vector<DagEdgeId> &path);

// A path as the blocks it runs through. A path that starts at function
// entry begins with the ENTRY block; one that starts after a back edge, an
// abnormal edge or a cut begins with the block where it starts. Likewise a
// path that returns ends with EXIT, one that ends at a back edge (or
// abnormal edge, cut, noreturn call) ends with the block it leaves from.
std::vector<BlockId> pathBlocks(const Dag &dag,
                                const std::vector<DagEdgeId> &path);

// Paths ENTRY to EXIT that run through none of the blocks marked in
// `avoid` (saturating at UINT64_MAX): all paths minus this is how many run
// through the marked blocks.
uint64_t countPathsAvoiding(const Dag &dag, const std::vector<bool> &avoid);

// The inverse of pathBlocks. Throws GraphError if the blocks are not a
// path of the DAG, or name more than one (parallel edges).
std::vector<DagEdgeId> pathFromBlocks(const Dag &dag,
                                      const std::vector<BlockId> &blocks);

} // namespace pathcov
