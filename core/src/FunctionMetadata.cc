#include "pathcov/format/FunctionMetadata.h"

#include "pathcov/format/InputError.h"
#include "pathcov/format/JsonFields.h"
#include "pathcov/core/KPaths.h"

#include <cstdio>

namespace pathcov {

std::string wellFormedUtf8(const std::string &bytes) {
  std::string text;
  const auto *s = reinterpret_cast<const unsigned char *>(bytes.data());
  const size_t size = bytes.size();
  for (size_t i = 0; i < size;) {
    size_t n = s[i] < 0x80 ? 1 : (s[i] & 0xe0) == 0xc0 ? 2
                           : (s[i] & 0xf0) == 0xe0 ? 3
                           : (s[i] & 0xf8) == 0xf0 ? 4 : 0;
    uint32_t cp = n == 1 ? s[i] : s[i] & (0x7f >> n);
    for (size_t k = 1; k < n; ++k) {
      if (i + k >= size || (s[i + k] & 0xc0) != 0x80) {
        n = 0;
        break;
      }
      cp = cp << 6 | (s[i + k] & 0x3f);
    }
    static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (n > 1 && (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)))
      n = 0;
    if (n == 0) { // U+00XX in UTF-8
      text += static_cast<char>(0xc0 | s[i] >> 6);
      text += static_cast<char>(0x80 | (s[i] & 0x3f));
      ++i;
    } else {
      text.append(bytes, i, n);
      i += n;
    }
  }
  return text;
}

namespace {

Cfg parseCfg(const nlohmann::json &record, size_t numBlocks) {
  const JsonPath top;
  const auto blockAt = [numBlocks](uint64_t b, const std::string &where) {
    if (b >= numBlocks)
      throw InputError(where + ": block " + std::to_string(b) +
                       " out of range (" + std::to_string(numBlocks) +
                       " blocks)");
    return static_cast<BlockId>(b);
  };
  try {
    Cfg cfg(static_cast<uint32_t>(numBlocks),
            blockAt(top.field<uint64_t>(record, "entry"), "entry"),
            blockAt(top.field<uint64_t>(record, "exit"), "exit"));
    const nlohmann::json &edges = top.field<const nlohmann::json &>(record, "edges");
    if (!edges.is_array())
      throw InputError("edges: expected an array");
    for (size_t i = 0; i < edges.size(); ++i) {
      const JsonPath at = top.at("edges").index(i);
      const nlohmann::json &e = edges[i];
      if (!e.is_array() || e.size() != 4)
        throw InputError(at.where() + ": expected [src, dst, kind, frequency]");
      const auto kind = parseEdgeKind(get<std::string>(e[2], at.where() + "[2]"));
      if (!kind)
        throw InputError(at.where() + "[2]: unknown edge kind");
      try {
        cfg.addEdge(blockAt(get<uint64_t>(e[0], at.where() + "[0]"), at.where()),
                    blockAt(get<uint64_t>(e[1], at.where() + "[1]"), at.where()),
                    *kind, get<uint64_t>(e[3], at.where() + "[3]"));
      } catch (const GraphError &error) {
        throw InputError(at.where() + ": " + error.what());
      }
    }
    return cfg;
  } catch (const GraphError &error) {
    throw InputError(std::string("entry, exit: ") + error.what());
  }
}

} // namespace

void FunctionMetadata::requirePath(uint64_t id, const std::string &where) const {
  if (id >= numPaths)
    throw InputError(where + ": " + std::to_string(id) + " is not a path of " +
                     identity + " (" + std::to_string(numPaths) + " paths)");
}

NumberedDag FunctionMetadata::number() const {
  return numberBallLarus(*cfg, pathLimit, forcedCuts);
}

std::string functionIdentity(bool linkerMerged, bool headerStatic,
                             const std::string &tu, const std::string &file,
                             const std::string &assemblerName) {
  if (linkerMerged)
    return assemblerName;
  const bool byFile = headerStatic && !file.empty() && file != tu;
  return (byFile ? file : tu) + ":" + assemblerName;
}

std::string headerIdentityOf(const std::string &identity, const std::string &file) {
  // Assembler names have no ':'; one with no ':' is a linker-merged one.
  const size_t colon = identity.rfind(':');
  if (colon == std::string::npos || file.empty() ||
      identity.compare(0, colon, file) == 0)
    return "";
  return file + identity.substr(colon);
}

bool sameCfgOptimizationClass(const std::string &a, const std::string &b) {
  return a.empty() || b.empty() || (a == "-O0") == (b == "-O0");
}

FunctionMetadata parseFunctionMetadata(const nlohmann::json &record) {
  const JsonPath top;
  FunctionMetadata f;
  f.identity = top.field<std::string>(record, "identity");
  const auto in = [&f](const std::string &problem) {
    return InputError("function " + f.identity + ": " + problem);
  };
  try {
    f.assemblerName = top.field<std::string>(record, "assembler_name");
    f.name = top.field<std::string>(record, "name");
    f.tu = top.field<std::string>(record, "tu");
    f.file = top.field<std::string>(record, "file");
    f.sourceRoot = top.optionalField<std::string>(record, "source_root", "");
    f.line = top.field<int>(record, "line");
    f.optimization = top.optionalField<std::string>(record, "optimization", "");
    f.skipped = top.optionalField<std::string>(record, "skipped", "");
    if (!f.skipped.empty())
      return f;
    f.checksum = top.field<std::string>(record, "checksum");
    const uint64_t k = top.optionalField<uint64_t>(record, "k", 1);
    if (k < 1 || k > kKPathMax)
      throw InputError("k: expected 1 to " + std::to_string(kKPathMax) +
                       ", not " + std::to_string(k));
    f.k = unsigned(k);
    const nlohmann::json &blocks = top.field<const nlohmann::json &>(record, "blocks");
    if (!blocks.is_array() || blocks.size() < 2)
      throw InputError("blocks: expected an array of at least two blocks");
    for (size_t i = 0; i < blocks.size(); ++i) {
      const JsonPath at = top.at("blocks").index(i);
      f.blocks.push_back({at.optionalField<std::string>(blocks[i], "file", ""),
                          at.field<std::vector<int>>(blocks[i], "lines")});
    }
    f.cfg = parseCfg(record, f.blocks.size());
    f.pathLimit = top.field<uint64_t>(record, "path_limit");
    f.forcedCuts = top.field<std::vector<BlockId>>(record, "forced_cuts");
    f.cuts = top.field<std::vector<BlockId>>(record, "cuts");
    f.numPaths = top.field<uint64_t>(record, "num_paths");
    f.acyclicPaths = {top.field<uint64_t>(record, "acyclic_paths"),
                      top.field<bool>(record, "acyclic_paths_saturated")};
  } catch (const InputError &e) {
    throw in(e.what());
  }
  if (hex64(numberingChecksum(*f.cfg, f.cuts, f.forcedCuts)) != f.checksum)
    throw in("the CFG and its cuts do not match its checksum (corrupt metadata)");
  NumberedDag numbered;
  try {
    numbered = f.number();
  } catch (const std::exception &e) {
    throw in(std::string("cannot be numbered: ") + e.what());
  }
  if (numbered.dag.cuts != f.cuts ||
      numbered.ballLarus.totalPaths != f.numPaths)
    throw in("numbering does not reproduce the recorded cuts and path count "
             "(metadata from another pathcov version?)");
  return f;
}

nlohmann::json toJson(const FunctionMetadata &f) {
  nlohmann::json j{{"identity", wellFormedUtf8(f.identity)},
                   {"assembler_name", wellFormedUtf8(f.assemblerName)},
                   {"name", wellFormedUtf8(f.name)},
                   {"tu", wellFormedUtf8(f.tu)},
                   {"file", wellFormedUtf8(f.file)},
                   {"line", f.line}};
  if (!f.sourceRoot.empty())
    j["source_root"] = wellFormedUtf8(f.sourceRoot);
  if (!f.optimization.empty())
    j["optimization"] = f.optimization;
  if (!f.skipped.empty()) {
    j["skipped"] = f.skipped;
    return j;
  }
  nlohmann::json blocks = nlohmann::json::array();
  for (const SourceBlock &b : f.blocks) {
    nlohmann::json block{{"lines", b.lines}};
    if (!b.file.empty())
      block["file"] = wellFormedUtf8(b.file);
    blocks.push_back(std::move(block));
  }
  nlohmann::json edges = nlohmann::json::array();
  for (const CfgEdge &e : f.cfg->edges())
    edges.push_back({e.src, e.dst, edgeKindName(e.kind), e.frequency});
  j["checksum"] = f.checksum;
  if (f.k > 1)
    j["k"] = f.k;
  j["entry"] = f.cfg->entry();
  j["exit"] = f.cfg->exit();
  j["blocks"] = std::move(blocks);
  j["edges"] = std::move(edges);
  j["path_limit"] = f.pathLimit;
  j["forced_cuts"] = f.forcedCuts;
  j["cuts"] = f.cuts;
  j["num_paths"] = f.numPaths;
  j["acyclic_paths"] = f.acyclicPaths.count;
  j["acyclic_paths_saturated"] = f.acyclicPaths.saturated;
  return j;
}

} // namespace pathcov
