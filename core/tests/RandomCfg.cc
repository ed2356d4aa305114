#include "RandomCfg.h"

#include <algorithm>
#include <numeric>
#include <sstream>
#include <utility>
#include <vector>

namespace pathcov::test {

namespace {

struct Edge {
  uint32_t from, to; // layout positions
  EdgeKind kind;
  uint64_t frequency;
};

class Draw {
public:
  explicit Draw(std::mt19937_64 &rng) : rng_(rng) {}
  uint64_t uniform(uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_);
  }
  bool chance(double p) {
    return p > 0 && std::bernoulli_distribution(std::min(p, 1.0))(rng_);
  }
  std::mt19937_64 &rng() { return rng_; }

private:
  std::mt19937_64 &rng_;
};

} // namespace

Cfg randomCfg(std::mt19937_64 &rng, const RandomCfgOptions &options) {
  Draw draw(rng);
  // Small graphs are drawn more often than large ones, so that a good share
  // has few enough paths to enumerate.
  const uint32_t maxBlocks = static_cast<uint32_t>(
      draw.uniform(options.minBlocks, options.maxBlocks));
  const uint32_t n =
      static_cast<uint32_t>(draw.uniform(options.minBlocks, maxBlocks));

  // Position p holds block at[p]; ENTRY is at position 0 and EXIT at n-1.
  std::vector<BlockId> at(n);
  std::iota(at.begin(), at.end(), 0);
  if (draw.chance(0.7))
    std::shuffle(at.begin(), at.end(), draw.rng());

  // Frequencies: all equal, a few small values (many ties), or wide.
  const int frequencyMode = static_cast<int>(draw.uniform(0, 3));
  const auto frequency = [&]() -> uint64_t {
    switch (frequencyMode) {
    case 0:
      return 0;
    case 1:
      return draw.uniform(0, 3);
    case 2:
      return draw.chance(0.5) ? draw.uniform(0, 2) * 100
                              : draw.uniform(0, 1000000);
    default:
      return draw.uniform(0, 1) ? UINT64_MAX - draw.uniform(0, 2)
                                : draw.uniform(0, 10);
    }
  };
  const auto ordinaryKind = [&]() {
    static constexpr EdgeKind kinds[] = {EdgeKind::Fallthru, EdgeKind::True,
                                         EdgeKind::False, EdgeKind::SwitchCase,
                                         EdgeKind::Eh};
    return kinds[draw.uniform(0, 4)];
  };

  std::vector<Edge> edges;
  const auto add = [&](uint32_t from, uint32_t to, EdgeKind kind) {
    // Cfg's rules: nothing into ENTRY, nothing out of EXIT.
    if (to == 0 || from == n - 1)
      return;
    edges.push_back({from, to, kind, frequency()});
  };

  // Dead ends: inner blocks that never get a successor.
  std::vector<bool> dead(n, false);
  for (uint32_t p = 1; p + 1 < n; ++p)
    dead[p] = draw.chance(0.07 * options.irregular);
  const auto liveBefore = [&](uint32_t p) {
    // A random position before p that may have successors (ENTRY always can).
    for (int tries = 0; tries < 8; ++tries) {
      const auto q = static_cast<uint32_t>(draw.uniform(0, p - 1));
      if (!dead[q])
        return q;
    }
    return uint32_t(0);
  };

  // Backbone: each inner block is entered from an earlier one, except a few
  // left unreachable from entry.
  for (uint32_t p = 1; p + 1 < n; ++p)
    if (!draw.chance(0.06 * options.irregular))
      add(liveBefore(p), p, ordinaryKind());

  // Forward successors, mostly to nearby blocks.
  for (uint32_t p = 0; p + 1 < n; ++p) {
    if (dead[p])
      continue;
    const uint64_t r = draw.uniform(0, 99);
    const int degree = r < 45 ? 1 : r < 85 ? 2 : 3;
    std::vector<uint32_t> targets;
    for (int k = 0; k < degree; ++k) {
      const uint32_t to =
          draw.chance(0.6)
              ? std::min<uint32_t>(n - 1, p + 1 + static_cast<uint32_t>(
                                                      draw.uniform(0, 2)))
              : static_cast<uint32_t>(draw.uniform(p + 1, n - 1));
      // Distinct targets: parallel edges come from the step below.
      if (std::find(targets.begin(), targets.end(), to) != targets.end())
        continue;
      targets.push_back(to);
      add(p, to, ordinaryKind());
    }
  }

  if (n > 2) {
    // Loops: back edges to earlier blocks (or the block itself).
    const uint64_t loops = draw.chance(0.75 * options.loops)
                               ? draw.uniform(1, 4)
                               : 0;
    for (uint64_t k = 0; k < loops; ++k) {
      const auto from = static_cast<uint32_t>(draw.uniform(1, n - 2));
      const auto to = draw.chance(0.25)
                          ? from
                          : static_cast<uint32_t>(draw.uniform(1, from));
      if (!dead[from])
        add(from, to, ordinaryKind());
    }
    // Irreducible regions: a cycle a<->b entered at a and, from before a,
    // at b as well.
    if (n > 3 && draw.chance(0.3 * options.loops)) {
      const auto a = static_cast<uint32_t>(draw.uniform(1, n - 3));
      const auto b = static_cast<uint32_t>(draw.uniform(a + 1, n - 2));
      add(liveBefore(a), a, ordinaryKind());
      add(a, b, ordinaryKind());
      add(b, a, ordinaryKind());
      add(liveBefore(a), b, ordinaryKind());
    }
  }

  // Parallel edges: copies of existing edges (own kind and frequency).
  if (!edges.empty() && draw.chance(0.35)) {
    const uint64_t copies = draw.uniform(1, 2);
    for (uint64_t k = 0; k < copies; ++k) {
      const Edge e = edges[draw.uniform(0, edges.size() - 1)];
      add(e.from, e.to, draw.chance(0.5) ? e.kind : ordinaryKind());
    }
  }

  // Abnormal edges anywhere (within Cfg's rules), fake edges ENTRY->x and
  // x->EXIT.
  if (draw.chance(0.3 * options.irregular)) {
    const uint64_t count = draw.uniform(1, 2);
    for (uint64_t k = 0; k < count; ++k)
      add(static_cast<uint32_t>(draw.uniform(0, n - 2)),
          static_cast<uint32_t>(draw.uniform(1, n - 1)), EdgeKind::Abnormal);
  }
  if (draw.chance(0.3 * options.irregular)) {
    const uint64_t count = draw.uniform(1, 2);
    for (uint64_t k = 0; k < count; ++k) {
      if (draw.chance(0.5))
        add(0, static_cast<uint32_t>(draw.uniform(1, n - 1)), EdgeKind::Fake);
      else
        add(static_cast<uint32_t>(draw.uniform(0, n - 2)), n - 1,
            EdgeKind::Fake);
    }
  }

  // Successor order is the order edges are added: shuffle it (mostly).
  if (draw.chance(0.8))
    std::shuffle(edges.begin(), edges.end(), draw.rng());

  Cfg cfg(n, at[0], at[n - 1]);
  for (const Edge &e : edges)
    cfg.addEdge(at[e.from], at[e.to], e.kind, e.frequency);
  return cfg;
}

std::string describeCfg(const Cfg &cfg) {
  std::ostringstream os;
  os << "blocks " << cfg.numBlocks() << " entry " << cfg.entry() << " exit "
     << cfg.exit() << ":";
  const char *sep = " ";
  for (const CfgEdge &e : cfg.edges()) {
    os << sep << e.src << "->" << e.dst << ' ' << edgeKindName(e.kind) << ' '
       << e.frequency;
    sep = ", ";
  }
  return os.str();
}

Cfg parseCfg(const std::string &text) {
  std::istringstream is(text);
  std::string word;
  uint32_t n = 0, entry = 0, exit = 0;
  is >> word >> n >> word >> entry >> word >> exit >> word; // "exit N:"
  if (!is)
    throw GraphError("parseCfg: bad header in '" + text + "'");
  Cfg cfg(n, entry, exit);
  std::string edge, kind;
  uint64_t frequency = 0;
  while (is >> edge >> kind >> frequency) {
    const auto arrow = edge.find("->");
    const auto parsedKind = parseEdgeKind(kind);
    if (arrow == std::string::npos || !parsedKind)
      throw GraphError("parseCfg: bad edge '" + edge + " " + kind + "'");
    cfg.addEdge(static_cast<BlockId>(std::stoul(edge.substr(0, arrow))),
                static_cast<BlockId>(std::stoul(edge.substr(arrow + 2))),
                *parsedKind, frequency);
    is >> std::ws;
    if (is.peek() == ',')
      is.get();
  }
  return cfg;
}

namespace {

struct Graph {
  uint32_t n;
  BlockId entry, exit;
  std::vector<CfgEdge> edges;

  static Graph of(const Cfg &cfg) {
    return {cfg.numBlocks(), cfg.entry(), cfg.exit(), cfg.edges()};
  }
  Cfg build() const {
    Cfg cfg(n, entry, exit);
    for (const CfgEdge &e : edges)
      cfg.addEdge(e.src, e.dst, e.kind, e.frequency);
    return cfg;
  }
  // Without block b (not ENTRY or EXIT) and its edges; later ids move down.
  Graph withoutBlock(BlockId b) const {
    const auto renumber = [b](BlockId x) { return x > b ? x - 1 : x; };
    Graph g{n - 1, renumber(entry), renumber(exit), {}};
    for (const CfgEdge &e : edges)
      if (e.src != b && e.dst != b)
        g.edges.push_back(
            {renumber(e.src), renumber(e.dst), e.kind, e.frequency});
    return g;
  }
};

} // namespace

Cfg minimizeCfg(const Cfg &cfg, const std::function<bool(const Cfg &)> &fails,
                unsigned maxEvaluations) {
  Graph best = Graph::of(cfg);
  unsigned evaluations = 0;
  const auto tryGraph = [&](const Graph &g) {
    if (evaluations >= maxEvaluations)
      return false;
    ++evaluations;
    try {
      if (!fails(g.build()))
        return false;
    } catch (...) {
      return false; // the candidate broke Cfg's rules: not a reproducer
    }
    best = g;
    return true;
  };

  for (bool shrunk = true; shrunk && evaluations < maxEvaluations;) {
    shrunk = false;
    for (size_t i = best.edges.size(); i-- > 0;) {
      if (i >= best.edges.size())
        continue;
      Graph g = best;
      g.edges.erase(g.edges.begin() + static_cast<std::ptrdiff_t>(i));
      shrunk |= tryGraph(g);
    }
    for (BlockId b = best.n; b-- > 0;) {
      if (b >= best.n || b == best.entry || b == best.exit)
        continue;
      shrunk |= tryGraph(best.withoutBlock(b));
    }
  }
  for (size_t i = 0; i < best.edges.size(); ++i) {
    if (best.edges[i].frequency != 0) {
      Graph g = best;
      g.edges[i].frequency = 0;
      tryGraph(g);
    }
    const EdgeKind kind = best.edges[i].kind;
    if (kind != EdgeKind::Fallthru && kind != EdgeKind::Abnormal &&
        kind != EdgeKind::Fake) {
      Graph g = best;
      g.edges[i].kind = EdgeKind::Fallthru;
      tryGraph(g);
    }
  }
  return best.build();
}

} // namespace pathcov::test
