// The control-flow graph model shared by the plugin and the tools.
//
// It mirrors GCC's CFG closely enough that the plugin can translate a
// function one edge at a time, and is small enough that the tools can
// rebuild it from metadata: blocks are dense integers, ENTRY and EXIT are
// ordinary blocks named by the graph, and each block's successors keep the
// order in which edges were added (the numbering visits them in that order).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pathcov {

using BlockId = uint32_t;
using EdgeId = uint32_t;
inline constexpr uint32_t kNoId = UINT32_MAX;

// Thrown for a graph that breaks the model's rules (edge into ENTRY, block
// out of range, ...); the message names the problem.
class GraphError : public std::runtime_error {
public:
  explicit GraphError(const std::string &what) : std::runtime_error(what) {}
};

enum class EdgeKind : uint8_t {
  Fallthru,   // unconditional or fall-through
  True,       // condition true
  False,      // condition false
  SwitchCase, // one arm of a multiway branch
  Eh,         // exception handling: an ordinary edge that can carry code
  Abnormal,   // computed goto, setjmp, nonlocal goto: can never carry code
  Fake,       // not in the compiler's CFG (noreturn call -> EXIT, ENTRY ->
              // setjmp receiver), added as gcov adds them
};

const char *edgeKindName(EdgeKind kind);
std::optional<EdgeKind> parseEdgeKind(std::string_view name);

struct CfgEdge {
  BlockId src;
  BlockId dst;
  EdgeKind kind;
  uint64_t frequency; // the compiler's estimate; only ranks edges
};

class Cfg {
public:
  Cfg(uint32_t numBlocks, BlockId entry, BlockId exit);

  // Appends an edge; its position among src's successors is its visiting
  // order. Throws GraphError for edges the model does not allow.
  EdgeId addEdge(BlockId src, BlockId dst, EdgeKind kind,
                 uint64_t frequency = 0);

  uint32_t numBlocks() const { return static_cast<uint32_t>(succs_.size()); }
  BlockId entry() const { return entry_; }
  BlockId exit() const { return exit_; }
  const std::vector<CfgEdge> &edges() const { return edges_; }
  const CfgEdge &edge(EdgeId e) const { return edges_.at(e); }
  const std::vector<EdgeId> &succs(BlockId b) const { return succs_.at(b); }

  // Identifies the graph's shape (blocks, entry, exit, edges with their
  // kinds, in order; not frequencies): a corpus recorded for one shape is
  // never applied to another.
  uint64_t checksum() const;

private:
  BlockId entry_;
  BlockId exit_;
  std::vector<CfgEdge> edges_;
  std::vector<std::vector<EdgeId>> succs_;
};

// 16 lowercase hex digits: how records write a checksum (Cfg::checksum,
// FNV-1a of a file).
std::string hex64(uint64_t value);

} // namespace pathcov
