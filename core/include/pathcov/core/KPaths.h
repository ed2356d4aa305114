// k-iteration path profiling (k-BLPP; the thesis chapter "Multi-iteration
// Path Profiling"): how often a function took each sequence of up to k
// Ball-Larus paths in a row, i.e. its paths across up to k loop
// iterations. The runtime keeps the chapter's k-slab forest (k-SF), which
// costs at most two node updates a path; the tools turn it into the
// k-iteration path forest (k-IPF), the counts themselves.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pathcov {

// The largest k (abi.h, PATHCOV_KPATH_MAX).
constexpr unsigned kKPathMax = 16;

// The chapter's `*` in a stream of path ids: a routine entry, or any break
// that no sequence may cross. No path id is UINT64_MAX (ids are below a
// function's path count).
constexpr uint64_t kStreamStart = UINT64_MAX;

// One node of a k-SF as the runtime writes it into a profile. A node's
// parent comes before it in the list; parent = -1 for a root. `id` is the
// node's label, a Ball-Larus path id. `count` is the chapter's counter:
// how many times the stream ended a path of the forest here (lines 27/29
// of process_bl_path_id), so the counts add up to the ids processed.
struct KSlabNode {
  int64_t parent;
  uint64_t id;
  uint64_t count;
};

// "" if `nodes` is a well-formed k-SF for k (2 <= k <= kKPathMax): parents
// in range and before their children, at most 2k-2 levels (depth at most
// 2k-3), no two roots and no two siblings with the same id, ids below
// numPaths; else what is wrong, naming the node.
std::string checkKSlabForest(const std::vector<KSlabNode> &nodes, unsigned k,
                             uint64_t numPaths);

// The k-SF of a stream, built as the chapter's process_bl_path_id builds
// it: a reference for what the runtime does, for tests. Nodes are listed
// in the order they are made, so parents come first.
class KSlabBuilder {
public:
  // 2 <= k <= kKPathMax, else std::invalid_argument.
  explicit KSlabBuilder(unsigned k);

  // One item of the stream: a path id, or kStreamStart.
  void processBlPathId(uint64_t r);

  unsigned k() const { return k_; }
  const std::vector<KSlabNode> &nodes() const { return nodes_; }

private:
  // The child of `parent` (-1: the roots, the chapter's table R) labelled
  // r, made with a zero count if there is none.
  int64_t findOrAddChild(int64_t parent, uint64_t r);

  unsigned k_;
  std::vector<KSlabNode> nodes_;
  std::map<std::pair<int64_t, uint64_t>, int64_t> childByLabel_;
  // The chapter's per-activation state: ids since the last `*`, the node
  // in the upper slab (tau) and the one in the lower slab (beta); -1 is
  // null.
  uint64_t n_ = 0;
  int64_t top_ = -1;
  int64_t bottom_ = -1;
};

// The k-IPF of a k-SF (nodes checked for this k, or a larger one: a k-SF
// holds every smaller k's IPF too), by the chapter's make_k_ipf and
// join_subtree, flattened: each sequence of 1 to k path ids the stream
// took, with how often it took it. Only nonzero counts. 1 <= k <=
// kKPathMax, else std::invalid_argument.
std::map<std::vector<uint64_t>, uint64_t>
makeKIpf(const std::vector<KSlabNode> &nodes, unsigned k);

// The same counts by brute force, for tests: every n-gram (1 <= n <= k) of
// the stream that crosses no kStreamStart.
std::map<std::vector<uint64_t>, uint64_t>
countNGrams(const std::vector<uint64_t> &stream, unsigned k);

} // namespace pathcov
