// The plugin's records read back as the tools read them (FunctionRecord.h):
// what is written is what is parsed, in each mode.
#include "pathcov/format/FunctionRecord.h"
#include "pathcov/format/InputError.h"

#include "pathcov/core/Dag.h"

#include <gtest/gtest.h>

using namespace pathcov;

namespace {

// Two diamonds in a row: 4 paths.
FunctionMetadata twoDiamonds() {
  Cfg cfg(8, 0, 1);
  cfg.addEdge(0, 2, EdgeKind::Fallthru);
  cfg.addEdge(2, 3, EdgeKind::True);
  cfg.addEdge(2, 4, EdgeKind::False);
  cfg.addEdge(3, 5, EdgeKind::Fallthru);
  cfg.addEdge(4, 5, EdgeKind::Fallthru);
  cfg.addEdge(5, 6, EdgeKind::True);
  cfg.addEdge(5, 7, EdgeKind::False);
  cfg.addEdge(6, 1, EdgeKind::Fallthru);
  cfg.addEdge(7, 1, EdgeKind::Fallthru);
  FunctionMetadata f;
  f.identity = "t.c:g";
  f.assemblerName = f.name = "g";
  f.tu = f.file = "t.c";
  f.sourceRoot = "/src";
  f.optimization = "-O2";
  f.line = 3;
  f.checksum = hex64(cfg.checksum());
  f.cfg = cfg;
  f.blocks = {{}, {}, {"", {4}}, {"", {5}}, {"", {6}},
              {"", {7}}, {"", {8}}, {"", {9}}};
  f.pathLimit = kDefaultPathLimit;
  f.numPaths = 4;
  f.acyclicPaths = {4, false};
  return f;
}

// The record as the tools read it: its description, and its residual fields.
std::pair<FunctionMetadata, std::optional<ResidualMetadata>>
readBack(const std::string &text) {
  const nlohmann::json record = nlohmann::json::parse(text);
  EXPECT_EQ(record.at("format"), "pathcov-function");
  FunctionMetadata f = parseFunctionMetadata(record);
  return {f, parseResidualMetadata(record, f)};
}

} // namespace

TEST(FunctionRecord, RecordModeRoundTrips) {
  const FunctionMetadata f = twoDiamonds();
  const std::string text = recordModeRecord(f, false, 4096, true);
  const auto [read, residual] = readBack(text);
  EXPECT_EQ(toJson(read), toJson(f));
  EXPECT_EQ(read.optimization, "-O2");
  EXPECT_FALSE(residual.has_value());
  const nlohmann::json record = nlohmann::json::parse(text);
  EXPECT_EQ(record.at("counting"), "array");
  EXPECT_EQ(record.at("array_threshold"), 4096);
  EXPECT_EQ(record.at("atomic"), true);
}

TEST(FunctionRecord, ResidualModeRoundTripsEveryPolicyItWrites) {
  const FunctionMetadata f = twoDiamonds();
  const NumberedDag numbered = f.number();
  ResidualLimits limits;
  struct Case {
    std::string corpusChecksum;
    std::vector<uint64_t> tested;
    const char *policy;
  } cases[] = {
      {f.checksum, {0, 3}, "bytemap"},
      {f.checksum, {}, "untested"},
      {"0000000000000001", {1}, "stale"},
      {f.checksum, {0, 1, 2, 3}, "complete"},
  };
  for (const Case &c : cases) {
    const ResidualPlan plan = planResidual(numbered, f.cfg->checksum(),
                                           c.corpusChecksum, c.tested, limits);
    ASSERT_EQ(residualPolicyName(plan.policy), std::string(c.policy));
    const auto [read, residual] = readBack(residualModeRecord(f, plan, false));
    EXPECT_EQ(toJson(read), toJson(f)) << c.policy;
    ASSERT_TRUE(residual.has_value()) << c.policy;
    EXPECT_EQ(residual->policy, c.policy);
    EXPECT_EQ(residual->testedIds, plan.tested) << c.policy;
    EXPECT_EQ(residual->stale, plan.why) << c.policy;
  }
  // The PPP array: its tested ids and interval.
  limits.bytemapPaths = 0;
  const ResidualPlan array =
      planResidual(numbered, f.cfg->checksum(), f.checksum, {1, 2}, limits);
  ASSERT_EQ(array.policy, ResidualPolicy::Array);
  const std::string text = residualModeRecord(f, array, true);
  EXPECT_EQ(readBack(text).second->testedIds, (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(nlohmann::json::parse(text).at("ppp_interval"),
            array.ppp.intervalSize);
  EXPECT_EQ(nlohmann::json::parse(text).at("ppp_paths"), 2u);
}

TEST(FunctionRecord, SkippedRoundTrips) {
  FunctionMetadata f;
  f.identity = f.assemblerName = f.name = "h";
  f.tu = f.file = "t.c";
  f.skipped = "an abnormal edge cannot be instrumented";
  const auto [read, residual] = readBack(skippedRecord(f));
  EXPECT_EQ(read.skipped, f.skipped);
  EXPECT_FALSE(residual.has_value());
}

TEST(FunctionRecord, ResidualFieldsAreChecked) {
  const FunctionMetadata f = twoDiamonds();
  const NumberedDag numbered = f.number();
  const ResidualPlan plan = planResidual(numbered, f.cfg->checksum(),
                                         f.checksum, {0, 3}, ResidualLimits{});
  const nlohmann::json good = nlohmann::json::parse(residualModeRecord(f, plan, false));
  const auto refused = [&](const char *field, nlohmann::json value) {
    nlohmann::json record = good;
    record[field] = std::move(value);
    EXPECT_THROW(parseResidualMetadata(record, f), InputError) << field;
  };
  refused("policy", "interval");
  refused("tested_ids", nlohmann::json::array({3, 0}));
  refused("tested_ids", nlohmann::json::array({0, 4})); // 4 paths
  refused("tested_ids", nlohmann::json::array());
  refused("mode", "replay");
}

// An untested function's other CFGs that the tests ran (the plugin sets
// them): written only for untested, read back as written, refused where
// malformed or on another policy.
TEST(FunctionRecord, UntestedFunctionsOtherTestedVersions) {
  const FunctionMetadata f = twoDiamonds();
  const NumberedDag numbered = f.number();
  ResidualPlan untested =
      planResidual(numbered, f.cfg->checksum(), f.checksum, {}, ResidualLimits{});
  ASSERT_EQ(untested.policy, ResidualPolicy::Untested);
  EXPECT_FALSE(nlohmann::json::parse(residualModeRecord(f, untested, false))
                   .contains("tested_versions"));
  untested.testedVersions = {{"00000000000000a1", 3}, {"00000000000000b2", 1}};
  const nlohmann::json good = nlohmann::json::parse(residualModeRecord(f, untested, false));
  EXPECT_EQ(parseResidualMetadata(good, f)->testedVersions, untested.testedVersions);

  const auto refused = [&](nlohmann::json record, const std::string &problem) {
    try {
      parseResidualMetadata(record, f);
      ADD_FAILURE() << "accepted " << record.dump();
    } catch (const InputError &e) {
      EXPECT_NE(std::string(e.what()).find(problem), std::string::npos) << e.what();
    }
  };
  nlohmann::json record = good;
  record["tested_versions"][0]["checksum"] = "A1";
  refused(record, "tested_versions[0].checksum");
  record = good;
  record["tested_versions"][1]["tested_paths"] = 0;
  refused(record, "tested_versions[1].tested_paths");
  record = good;
  record["tested_versions"] = "d5af841ba5e17fa2";
  refused(record, "tested_versions: expected an array");
  ResidualPlan tested =
      planResidual(numbered, f.cfg->checksum(), f.checksum, {0}, ResidualLimits{});
  record = nlohmann::json::parse(residualModeRecord(f, tested, false));
  record["tested_versions"] = good["tested_versions"];
  refused(record, "only an untested function");
}
