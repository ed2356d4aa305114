#include "Metadata.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace pathcov {

namespace {

std::string hex64(uint64_t v) {
  char text[17];
  snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

nlohmann::json recordHeader(const FunctionIdentity &id) {
  return {{"format", "pathcov-function"},
          {"format_version", "1.0"},
          {"identity", id.identity},
          {"assembler_name", id.assemblerName},
          {"name", id.name},
          {"tu", id.tu},
          {"file", id.file},
          {"line", id.line},
          {"public", id.isPublic}};
}

} // namespace

std::string metadataRecord(const FunctionIdentity &id,
                           const FunctionRecord &function,
                           const PluginOptions &options) {
  nlohmann::json record = recordHeader(id);
  nlohmann::json blocks = nlohmann::json::array();
  for (const BlockSource &source : function.sources) {
    nlohmann::json block{{"lines", source.lines}};
    if (!source.file.empty())
      block["file"] = source.file;
    blocks.push_back(std::move(block));
  }
  nlohmann::json edges = nlohmann::json::array();
  for (const CfgEdge &e : function.cfg.edges())
    edges.push_back({e.src, e.dst, edgeKindName(e.kind), e.frequency});
  const NumberedDag &n = function.numbered;
  record["checksum"] = hex64(function.cfg.checksum());
  record["entry"] = function.cfg.entry();
  record["exit"] = function.cfg.exit();
  record["blocks"] = std::move(blocks);
  record["edges"] = std::move(edges);
  record["path_limit"] = options.pathLimit;
  record["forced_cuts"] = function.forcedCuts;
  record["cuts"] = n.dag.cuts;
  record["num_paths"] = n.ballLarus.totalPaths;
  record["acyclic_paths"] = function.acyclicPaths.count;
  record["acyclic_paths_saturated"] = function.acyclicPaths.saturated;
  record["counting"] = function.hashed ? "hashed" : "array";
  record["array_threshold"] = options.arrayThreshold;
  record["atomic"] = options.atomic;
  return record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string skippedRecord(const FunctionIdentity &id,
                          const std::string &reason) {
  nlohmann::json record = recordHeader(id);
  record["skipped"] = reason;
  return record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace pathcov
