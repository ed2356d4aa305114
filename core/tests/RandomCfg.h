// Random control-flow graphs for the core's property tests, and the tools
// to report a failing one: an edge list that can be pasted back into a test
// (parseCfg) and a minimiser that shrinks a failing graph.
#pragma once

#include "pathcov/core/Cfg.h"

#include <cstdint>
#include <functional>
#include <random>
#include <string>

namespace pathcov::test {

struct RandomCfgOptions {
  uint32_t minBlocks = 2;
  uint32_t maxBlocks = 40;
  // Each structure below is added to a graph with this probability (scaled
  // per feature); 0 gives a plain acyclic graph with one entry.
  double loops = 1.0;
  double irregular = 1.0; // abnormal and fake edges, dead ends, unreachables
};

// A random CFG drawn from `rng` alone (the same seed, the same graph): an
// entry and an exit block at random ids, 2..40 blocks laid out in a random
// order, forward edges (mostly to nearby blocks, so paths are long), back
// edges and self loops, irreducible regions (a cycle with two entries),
// parallel edges, abnormal edges, fake edges (ENTRY->x and x->EXIT only),
// blocks unreachable from entry, dead-end blocks, random edge kinds and
// frequencies with many ties; successor order is shuffled.
Cfg randomCfg(std::mt19937_64 &rng, const RandomCfgOptions &options = {});

// "blocks 4 entry 0 exit 3: 0->1 fallthru 5, 1->1 true 0, 1->3 fake 0"
// (kind names as edgeKindName, frequency last); parseCfg reads it back.
std::string describeCfg(const Cfg &cfg);
Cfg parseCfg(const std::string &text);

// Shrinks a graph on which `fails` is true: drops edges, then blocks
// (renumbering), then zeroes frequencies and turns ordinary kinds into
// fallthru, keeping each step only while `fails` stays true.
Cfg minimizeCfg(const Cfg &cfg, const std::function<bool(const Cfg &)> &fails,
                unsigned maxEvaluations = 20000);

} // namespace pathcov::test
