#include "Numbering.h"

#include "pathcov/format/InputError.h"

#include "pathcov/core/Paths.h"

#include <utility>

namespace pathcov {

namespace {

InterestingPath resolvePath(const PathRequest &request, const Dag &dag,
                            const BallLarusNumbering &bl) {
  if (request.ballLarusId) {
    const uint64_t id = *request.ballLarusId;
    if (id >= bl.totalPaths)
      throw InputError(request.location + ": path id " + std::to_string(id) +
                       " is not below the number of paths, " +
                       std::to_string(bl.totalPaths));
    return {regeneratePath(dag, bl, id), id};
  }
  try {
    std::vector<DagEdgeId> edges = pathFromBlocks(dag, request.blocks);
    const uint64_t id = ballLarusIdOf(dag, bl, edges);
    return {std::move(edges), id};
  } catch (const GraphError &e) {
    throw InputError(request.location + ": " + e.what());
  }
}

} // namespace

FunctionNumbering numberFunction(const CfgInput &input, uint64_t pathLimit) {
  FunctionNumbering result;
  result.pathLimit = pathLimit;
  result.numbered = numberBallLarus(input.cfg, pathLimit);
  const Dag &dag = result.numbered.dag;
  const BallLarusNumbering &bl = result.numbered.ballLarus;

  std::vector<uint64_t> interestingIds;
  for (const PathRequest &request : input.interestingPaths) {
    result.interestingPaths.push_back(resolvePath(request, dag, bl));
    interestingIds.push_back(result.interestingPaths.back().ballLarusId);
  }
  result.ppp = computePPPIncrements(dag, bl, std::move(interestingIds));
  result.chords = computeChordIncrements(dag, bl, result.ppp.weight);
  result.acyclicPaths = countAcyclicPaths(input.cfg);
  return result;
}

} // namespace pathcov
