#include "Metadata.h"


namespace pathcov {

namespace {
nlohmann::json withHeader(nlohmann::json record) {
  record["format"] = "pathcov-function";
  record["format_version"] = "2.0";
  return record;
}

std::string text(const nlohmann::json &record) {
  return record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
} // namespace

std::string metadataRecord(const FunctionMetadata &function, bool hashed,
                           const PluginOptions &options) {
  nlohmann::json record = withHeader(toJson(function));
  record["counting"] = hashed ? "hashed" : "array";
  record["array_threshold"] = options.arrayThreshold;
  record["atomic"] = options.atomic;
  return text(record);
}

std::string residualRecord(const FunctionMetadata &function,
                           const ResidualPlan &plan,
                           const PluginOptions &options) {
  nlohmann::json record = withHeader(toJson(function));
  record["mode"] = "residual";
  record["atomic"] = options.atomic;
  record["policy"] = residualPolicyName(plan.policy);
  record["tested_ids"] = plan.tested;
  record["count_tested"] = plan.counted;
  if (plan.ppp.intervalSize != 0) {
    record["ppp_interval"] = plan.ppp.intervalSize;
    record["ppp_delta"] = plan.ppp.delta;
  }
  if (plan.policy == ResidualPolicy::Stale)
    record["stale"] = plan.why;
  return text(record);
}

std::string skippedRecord(const FunctionMetadata &function) {
  return text(withHeader(toJson(function)));
}

} // namespace pathcov
