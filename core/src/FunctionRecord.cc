#include "pathcov/format/FunctionRecord.h"

#include "pathcov/format/Corpus.h"
#include "pathcov/format/InputError.h"
#include "pathcov/format/JsonFields.h"

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

bool isPolicyName(const std::string &name) {
  for (int p = 0; p < kResidualPolicies; ++p)
    if (name == residualPolicyName(static_cast<ResidualPolicy>(p)))
      return true;
  return false;
}

} // namespace

std::string recordModeRecord(const FunctionMetadata &function, bool hashed,
                             uint64_t arrayThreshold, bool atomic) {
  nlohmann::json record = withHeader(toJson(function));
  record["counting"] = hashed ? "hashed" : "array";
  record["array_threshold"] = arrayThreshold;
  record["atomic"] = atomic;
  return text(record);
}

std::string residualModeRecord(const FunctionMetadata &function,
                               const ResidualPlan &plan, bool atomic) {
  nlohmann::json record = withHeader(toJson(function));
  record["mode"] = "residual";
  record["atomic"] = atomic;
  record["policy"] = residualPolicyName(plan.policy);
  record["tested_ids"] = plan.tested;
  record["count_tested"] = plan.counted;
  if (plan.ppp.intervalSize != 0) {
    record["ppp_paths"] = plan.ppp.ids.size();
    record["ppp_interval"] = plan.ppp.intervalSize;
    record["ppp_delta"] = plan.ppp.delta;
  }
  if (plan.unmasked) {
    record["ppp_base"] = plan.pppBase;
    record["table_entries"] = plan.tableSize + 1;
  }
  if (plan.policy == ResidualPolicy::Stale)
    record["stale"] = plan.why;
  if (plan.policy == ResidualPolicy::Untested && !plan.testedVersions.empty())
    record["tested_versions"] = testedVersionsJson(plan.testedVersions);
  return text(record);
}

nlohmann::json testedVersionsJson(const std::vector<OtherVersion> &versions) {
  nlohmann::json list = nlohmann::json::array();
  for (const OtherVersion &v : versions)
    list.push_back({{"checksum", v.checksum}, {"tested_paths", v.testedPaths}});
  return list;
}

std::string skippedRecord(const FunctionMetadata &function) {
  return text(withHeader(toJson(function)));
}

std::optional<ResidualMetadata>
parseResidualMetadata(const nlohmann::json &record, const FunctionMetadata &f) {
  const JsonPath top;
  const std::string mode = top.optionalField<std::string>(record, "mode", "");
  if (mode.empty() || mode == "record")
    return std::nullopt;
  const auto in = [&f](const std::string &problem) {
    return InputError("function " + f.identity + ": " + problem);
  };
  try {
    if (mode != "residual")
      throw InputError("mode: unknown mode \"" + mode + "\"");
    if (!f.skipped.empty())
      throw InputError("mode: a skipped function has no mode");
    ResidualMetadata r;
    r.policy = top.field<std::string>(record, "policy");
    if (!isPolicyName(r.policy))
      throw InputError("policy: unknown policy \"" + r.policy + "\"");
    r.testedIds = top.field<std::vector<uint64_t>>(record, "tested_ids");
    for (size_t i = 0; i < r.testedIds.size(); ++i) {
      const std::string where = "tested_ids[" + std::to_string(i) + "]";
      if (r.testedIds[i] >= f.numPaths)
        throw InputError(where + ": path id " +
                         std::to_string(r.testedIds[i]) +
                         " is not below num_paths " +
                         std::to_string(f.numPaths));
      if (i > 0 && r.testedIds[i] <= r.testedIds[i - 1])
        throw InputError(where + ": path ids must ascend, each once");
    }
    const bool tested = r.policy != "untested" && r.policy != "stale";
    if (tested == r.testedIds.empty())
      throw InputError("tested_ids: policy " + r.policy +
                       (tested ? " needs tested paths" : " has none"));
    if (r.policy == "stale")
      r.stale = top.field<std::string>(record, "stale");
    if (record.contains("tested_versions")) {
      if (r.policy != "untested")
        throw InputError("tested_versions: only an untested function has them");
      const JsonPath versions = top.at("tested_versions");
      const nlohmann::json &list = top.field<nlohmann::json>(record, "tested_versions");
      if (!list.is_array())
        throw InputError("tested_versions: expected an array");
      for (size_t i = 0; i < list.size(); ++i) {
        const JsonPath at = versions.index(i);
        OtherVersion v{at.field<std::string>(list[i], "checksum"),
                       at.field<uint64_t>(list[i], "tested_paths")};
        if (v.checksum.size() != 16 || !isLowerHex(v.checksum))
          throw InputError(at.name("checksum") + ": expected 16 lowercase hex digits");
        if (v.testedPaths == 0)
          throw InputError(at.name("tested_paths") + ": expected at least 1");
        r.testedVersions.push_back(std::move(v));
      }
    }
    return r;
  } catch (const InputError &e) {
    throw in(e.what());
  }
}

} // namespace pathcov
