#include "pathcov/core/Cfg.h"

#include "pathcov/core/Fnv1a.h"

#include <array>
#include <cstdio>

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

uint64_t Cfg::checksum() const {
  Fnv1a h;
  h.addWord(numBlocks());
  h.addWord(entry_);
  h.addWord(exit_);
  h.addWord(edges_.size());
  for (const CfgEdge &e : edges_) {
    h.addWord(e.src);
    h.addWord(e.dst);
    h.addWord(static_cast<uint64_t>(e.kind));
  }
  return h.value();
}

std::string hex64(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

} // namespace pathcov
