#include "pathcov/core/Cfg.h"

#include <array>

namespace pathcov {

namespace {
struct KindName {
  EdgeKind kind;
  const char *name;
};
// GCC 15's path-coverage vocabulary where it has a word for the kind.
constexpr std::array<KindName, 7> kKindNames{{
    {EdgeKind::Fallthru, "fallthru"},
    {EdgeKind::True, "true"},
    {EdgeKind::False, "false"},
    {EdgeKind::SwitchCase, "switch"},
    {EdgeKind::Eh, "throw"},
    {EdgeKind::Abnormal, "abnormal"},
    {EdgeKind::Fake, "fake"},
}};
} // namespace

const char *edgeKindName(EdgeKind kind) {
  for (const KindName &k : kKindNames)
    if (k.kind == kind)
      return k.name;
  return "?";
}

std::optional<EdgeKind> parseEdgeKind(std::string_view name) {
  for (const KindName &k : kKindNames)
    if (name == k.name)
      return k.kind;
  return std::nullopt;
}

Cfg::Cfg(uint32_t numBlocks, BlockId entry, BlockId exit)
    : entry_(entry), exit_(exit), succs_(numBlocks) {
  if (numBlocks == kNoId)
    throw GraphError("too many blocks");
  if (entry >= numBlocks || exit >= numBlocks)
    throw GraphError("entry or exit block out of range");
  if (entry == exit)
    throw GraphError("entry and exit must be different blocks");
}

EdgeId Cfg::addEdge(BlockId src, BlockId dst, EdgeKind kind,
                    uint64_t frequency) {
  const auto where = [&] {
    return "edge " + std::to_string(src) + "->" + std::to_string(dst);
  };
  if (src >= numBlocks() || dst >= numBlocks())
    throw GraphError(where() + ": block out of range");
  if (dst == entry_)
    throw GraphError(where() + ": no edge may enter the entry block");
  if (src == exit_)
    throw GraphError(where() + ": no edge may leave the exit block");
  if (kind == EdgeKind::Fake && src != entry_ && dst != exit_)
    throw GraphError(where() +
                     ": a fake edge must leave entry or enter exit");
  if (edges_.size() == kNoId - 1)
    throw GraphError("too many edges");
  const auto id = static_cast<EdgeId>(edges_.size());
  edges_.push_back({src, dst, kind, frequency});
  succs_[src].push_back(id);
  return id;
}

namespace {
// FNV-1a, 64-bit: stable across hosts and releases, unlike std::hash.
class Fnv1a {
public:
  void add(uint64_t v) {
    for (int i = 0; i < 8; ++i, v >>= 8) {
      hash_ ^= v & 0xff;
      hash_ *= 0x100000001b3ull;
    }
  }
  uint64_t value() const { return hash_; }

private:
  uint64_t hash_ = 0xcbf29ce484222325ull;
};
} // namespace

uint64_t Cfg::checksum() const {
  Fnv1a h;
  h.add(numBlocks());
  h.add(entry_);
  h.add(exit_);
  h.add(edges_.size());
  for (const CfgEdge &e : edges_) {
    h.add(e.src);
    h.add(e.dst);
    h.add(static_cast<uint64_t>(e.kind));
  }
  return h.value();
}

} // namespace pathcov
