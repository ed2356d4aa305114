#include "pathcov/format/FunctionMetadata.h"

#include "pathcov/format/InputError.h"

#include <cstdio>

namespace pathcov {

std::string hex64(uint64_t value) {
  char text[17];
  snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

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

template <typename T>
T field(const nlohmann::json &record, const char *key) {
  const auto it = record.find(key);
  if (it == record.end())
    throw InputError(std::string(key) + ": missing");
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception &) {
    throw InputError(std::string(key) + ": wrong type");
  }
}

Cfg parseCfg(const nlohmann::json &record, size_t numBlocks) {
  Cfg cfg(static_cast<uint32_t>(numBlocks), field<BlockId>(record, "entry"),
          field<BlockId>(record, "exit"));
  const auto edges = field<nlohmann::json>(record, "edges");
  for (size_t i = 0; i < edges.size(); ++i) {
    const nlohmann::json &e = edges[i];
    const std::string where = "edges[" + std::to_string(i) + "]";
    if (!e.is_array() || e.size() != 4 || !e[0].is_number_unsigned() ||
        !e[1].is_number_unsigned() || !e[2].is_string() ||
        !e[3].is_number_unsigned())
      throw InputError(where + ": expected [src, dst, kind, frequency]");
    const auto kind = parseEdgeKind(e[2].get<std::string>());
    if (!kind)
      throw InputError(where + ": unknown edge kind");
    const auto block = [&](const nlohmann::json &b) {
      const uint64_t v = b.get<uint64_t>();
      if (v >= numBlocks)
        throw InputError(where + ": block " + std::to_string(v) +
                         " out of range");
      return static_cast<BlockId>(v);
    };
    try {
      cfg.addEdge(block(e[0]), block(e[1]), *kind, e[3].get<uint64_t>());
    } catch (const GraphError &error) {
      throw InputError(where + ": " + error.what());
    }
  }
  return cfg;
}

} // namespace

NumberedDag FunctionMetadata::number() const {
  return numberBallLarus(*cfg, pathLimit, forcedCuts);
}

FunctionMetadata parseFunctionMetadata(const nlohmann::json &record) {
  FunctionMetadata f;
  f.identity = field<std::string>(record, "identity");
  const auto in = [&f](const std::string &problem) {
    return InputError("function " + f.identity + ": " + problem);
  };
  try {
    f.assemblerName = record.value("assembler_name", f.identity);
    f.name = record.value("name", f.identity);
    f.tu = record.value("tu", "");
    f.file = record.value("file", "");
    f.line = record.value("line", 0);
    f.skipped = record.value("skipped", "");
    if (!f.skipped.empty())
      return f;
    f.checksum = field<std::string>(record, "checksum");
    for (const nlohmann::json &b : field<nlohmann::json>(record, "blocks"))
      f.blocks.push_back(
          {b.value("file", ""), b.value("lines", std::vector<int>{})});
    if (f.blocks.size() < 2)
      throw InputError("blocks: fewer than two");
    f.cfg = parseCfg(record, f.blocks.size());
    f.pathLimit = field<uint64_t>(record, "path_limit");
    f.forcedCuts = field<std::vector<BlockId>>(record, "forced_cuts");
    f.cuts = field<std::vector<BlockId>>(record, "cuts");
    f.numPaths = field<uint64_t>(record, "num_paths");
    f.acyclicPaths = {field<uint64_t>(record, "acyclic_paths"),
                      field<bool>(record, "acyclic_paths_saturated")};
  } catch (const InputError &e) {
    throw in(e.what());
  } catch (const nlohmann::json::exception &e) {
    throw in(e.what());
  }
  if (hex64(f.cfg->checksum()) != f.checksum)
    throw in("the CFG does not match its checksum (corrupt metadata)");
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
