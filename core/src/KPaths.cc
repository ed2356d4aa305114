#include "pathcov/core/KPaths.h"

#include "pathcov/core/Checked.h"

#include <algorithm>
#include <stdexcept>

namespace pathcov {

namespace {

std::string notInRange(unsigned k, unsigned lowest) {
  return "k = " + std::to_string(k) + " is not in " + std::to_string(lowest) +
         ".." + std::to_string(kKPathMax);
}

// The k-IPF while make_k_ipf builds it: a prefix forest under a dummy
// root, nodes[0] (the chapter's phi).
struct PrefixForest {
  struct Node {
    size_t parent;
    uint64_t id;
    uint64_t count;
  };
  std::vector<Node> nodes{{0, 0, 0}};
  std::map<std::pair<size_t, uint64_t>, size_t> childByLabel;
};

// join_subtree(rho, gamma, d): adds every path of the k-SF that starts at
// rho and is at most d nodes long under gamma in the k-IPF, once, adding
// up the counts of the k-SF nodes it ends at. Recursion d <= kKPathMax
// deep.
void joinSubtree(const std::vector<KSlabNode> &ksf,
                 const std::vector<std::vector<size_t>> &childrenOf, size_t rho,
                 size_t gamma, unsigned d, PrefixForest &ipf) {
  const uint64_t label = ksf[rho].id;
  const auto [slot, added] =
      ipf.childByLabel.try_emplace({gamma, label}, ipf.nodes.size());
  if (added)
    ipf.nodes.push_back({gamma, label, 0});
  const size_t delta = slot->second;
  // Saturating: a profile's counts are the runtime's, not ours to trust.
  ipf.nodes[delta].count =
      saturatingAdd(ipf.nodes[delta].count, ksf[rho].count);
  if (d > 1)
    for (size_t sigma : childrenOf[rho])
      joinSubtree(ksf, childrenOf, sigma, delta, d - 1, ipf);
}

} // namespace

std::string checkKSlabForest(const std::vector<KSlabNode> &nodes, unsigned k,
                             uint64_t numPaths) {
  if (k < 2 || k > kKPathMax)
    return notInRange(k, 2);
  // Two slabs of k-1 levels each.
  const unsigned maxDepth = 2 * k - 3;
  std::vector<unsigned> depth(nodes.size());
  // (parent, id) -> the first node there; parent -1 for the roots.
  std::map<std::pair<int64_t, uint64_t>, size_t> firstWithLabel;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const KSlabNode &node = nodes[i];
    const auto at = [&] { return "nodes[" + std::to_string(i) + "]: "; };
    const auto name = [](uint64_t j) {
      return "nodes[" + std::to_string(j) + "]";
    };
    if (node.parent < -1 ||
        (node.parent >= 0 &&
         static_cast<uint64_t>(node.parent) >= nodes.size()))
      return at() + "parent " + std::to_string(node.parent) +
             " is not a node (" + std::to_string(nodes.size()) + " of them)";
    if (node.parent >= 0 && static_cast<uint64_t>(node.parent) >= i)
      return at() + "parent " + std::to_string(node.parent) +
             " does not come before it";
    if (node.id >= numPaths)
      return at() + "path " + std::to_string(node.id) + " is not in paths (" +
             std::to_string(numPaths) + " of them)";
    depth[i] = node.parent < 0 ? 0 : depth[node.parent] + 1;
    if (depth[i] > maxDepth)
      return at() + "at depth " + std::to_string(depth[i]) +
             ", below the deepest level of a " + std::to_string(k) +
             "-SF (depth " + std::to_string(maxDepth) + ")";
    const auto [first, added] =
        firstWithLabel.try_emplace({node.parent, node.id}, i);
    if (!added)
      return at() + "a second " +
             (node.parent < 0 ? std::string("root")
                              : "child of " + name(node.parent)) +
             " with path " + std::to_string(node.id) + " (" +
             name(first->second) + " is the first)";
  }
  return "";
}

KSlabBuilder::KSlabBuilder(unsigned k) : k_(k) {
  if (k < 2 || k > kKPathMax)
    throw std::invalid_argument("k-slab forest: " + notInRange(k, 2));
}

int64_t KSlabBuilder::findOrAddChild(int64_t parent, uint64_t r) {
  const auto [slot, added] = childByLabel_.try_emplace(
      {parent, r}, static_cast<int64_t>(nodes_.size()));
  if (added)
    nodes_.push_back({parent, r, 0});
  return slot->second;
}

void KSlabBuilder::processBlPathId(uint64_t r) {
  if (r == kStreamStart) {
    n_ = 0;
    top_ = -1;
    return;
  }
  if (n_ % (k_ - 1) == 0) {
    // A chunk starts: the previous chunk's path goes on in the lower slab
    // (none before a sequence's first chunk, whatever tau is), and the
    // chunk's own path starts at the root labelled r.
    bottom_ = n_ == 0 ? -1 : top_;
    top_ = findOrAddChild(-1, r);
  } else {
    top_ = findOrAddChild(top_, r);
  }
  // Lines 27/29: an n-gram within a chunk is in both slabs; only the
  // lower one counts it (the upper only in a sequence's first chunk,
  // which has no lower), so each id is counted once.
  if (bottom_ != -1) {
    bottom_ = findOrAddChild(bottom_, r);
    ++nodes_[bottom_].count;
  } else {
    ++nodes_[top_].count;
  }
  ++n_;
}

std::map<std::vector<uint64_t>, uint64_t>
makeKIpf(const std::vector<KSlabNode> &nodes, unsigned k) {
  if (k < 1 || k > kKPathMax)
    throw std::invalid_argument("k-iteration path forest: " + notInRange(k, 1));
  std::vector<std::vector<size_t>> childrenOf(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].parent >= 0)
      childrenOf[nodes[i].parent].push_back(i);
  // Lines 2-7: I, the labels, and s(r), the nodes labelled r.
  std::map<uint64_t, std::vector<size_t>> nodesByLabel;
  for (size_t i = 0; i < nodes.size(); ++i)
    nodesByLabel[nodes[i].id].push_back(i);
  // Every occurrence of an n-gram (n <= k) ends at a counted node whose
  // path holds the whole n-gram (chunks of k-1: at most two of them), so
  // joining the subtrees of depth < k from every node counts each once.
  PrefixForest ipf;
  for (const auto &[r, s] : nodesByLabel)
    for (size_t rho : s)
      joinSubtree(nodes, childrenOf, rho, 0, k, ipf);
  // Flattened, without the dummy root: a node's sequence is its path.
  std::map<std::vector<uint64_t>, uint64_t> counts;
  for (size_t i = 1; i < ipf.nodes.size(); ++i) {
    if (ipf.nodes[i].count == 0)
      continue;
    std::vector<uint64_t> sequence;
    for (size_t j = i; j != 0; j = ipf.nodes[j].parent)
      sequence.push_back(ipf.nodes[j].id);
    std::reverse(sequence.begin(), sequence.end());
    counts.emplace(std::move(sequence), ipf.nodes[i].count);
  }
  return counts;
}

std::map<std::vector<uint64_t>, uint64_t>
countNGrams(const std::vector<uint64_t> &stream, unsigned k) {
  std::map<std::vector<uint64_t>, uint64_t> counts;
  size_t sequenceStart = 0;
  for (size_t end = 0; end < stream.size(); ++end) {
    if (stream[end] == kStreamStart) {
      sequenceStart = end + 1;
      continue;
    }
    // The n-grams that end here.
    for (size_t n = 1; n <= k && n <= end + 1 - sequenceStart; ++n)
      ++counts[std::vector<uint64_t>(stream.begin() + (end + 1 - n),
                                     stream.begin() + (end + 1))];
  }
  return counts;
}

} // namespace pathcov
