// Residual mode: copying the blocks that several routes share before a
// path end's check, for the routes that reach it with the constant id of a
// tested path, so that the copies' checks fold away.
#pragma once

#include "GccIncludes.h"

#include <cstdint>
#include <vector>

namespace pathcov {

// A path end's check (Instrumenter.h): the branch to its miss, and the
// path id it tests; `innerTested`: every path that takes its route and
// does not start at the function's entry was tested, so that in a peeled
// loop's later iterations it needs no check (ResidualPlan's
// everyInnerPathTested).
struct CheckSite {
  gcond *branch;
  tree id;
  bool innerTested;
};

struct ThreadedRoutes {
  unsigned routes = 0; // copies made
  unsigned stmts = 0;  // the statements they copied
};

// After instrumentation (and peeling): for each check whose block is
// reached through a chain of single-predecessor blocks from a block that
// several edges enter (a loop condition that a body's `continue`s share, a
// shared return), copies the chain, at most `maxStmts` statements, for
// each entering edge along which the id is a constant that `tested`
// (ascending) holds. GCC's jump threading does not do this itself: the
// check is a load from the table, and the copy would give the loop another
// latch. The copy's check then folds away; the other routes keep theirs.
// A copy is the same code: what this chooses can cost speed or size, never
// exactness. Puts fun in SSA form.
ThreadedRoutes threadTestedRoutes(function *fun,
                                  const std::vector<CheckSite> &checks,
                                  const std::vector<uint64_t> &tested,
                                  unsigned maxStmts);

} // namespace pathcov
