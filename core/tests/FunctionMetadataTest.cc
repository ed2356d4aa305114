#include "pathcov/format/FunctionMetadata.h"
#include "pathcov/format/InputError.h"

#include <gtest/gtest.h>

using namespace pathcov;

TEST(WellFormedUtf8, KeepsUtf8AndSpellsOtherBytesAsLatin1) {
  EXPECT_EQ(wellFormedUtf8("plain/dir/f.c"), "plain/dir/f.c");
  EXPECT_EQ(wellFormedUtf8("caf\xc3\xa9.c"), "caf\xc3\xa9.c");   // é
  EXPECT_EQ(wellFormedUtf8("caf\xe9.c"), "caf\xc3\xa9.c");       // Latin-1 é
  EXPECT_EQ(wellFormedUtf8("\xc0\xaf"), "\xc3\x80\xc2\xaf");      // overlong /
  EXPECT_EQ(wellFormedUtf8("\xed\xa0\x80"), "\xc3\xad\xc2\xa0\xc2\x80"); // surrogate
  EXPECT_EQ(wellFormedUtf8("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80"); // U+1F600
  EXPECT_EQ(wellFormedUtf8("\xe2\x82"), "\xc3\xa2\xc2\x82");      // cut short
  EXPECT_EQ(wellFormedUtf8(wellFormedUtf8("x\xff")), wellFormedUtf8("x\xff"));
}

namespace {
nlohmann::json diamondRecord() {
  Cfg cfg(5, 0, 1);
  cfg.addEdge(0, 2, EdgeKind::Fallthru);
  cfg.addEdge(2, 3, EdgeKind::True);
  cfg.addEdge(2, 4, EdgeKind::False);
  cfg.addEdge(3, 1, EdgeKind::Fallthru);
  cfg.addEdge(4, 1, EdgeKind::Fallthru);
  FunctionMetadata f;
  f.identity = f.assemblerName = f.name = "f";
  f.tu = f.file = "f.c";
  f.line = 1;
  f.checksum = hex64(cfg.checksum());
  f.cfg = cfg;
  f.blocks = {{}, {}, {"", {2}}, {"", {3}}, {"", {4}}};
  f.pathLimit = kDefaultPathLimit;
  f.numPaths = 2;
  f.acyclicPaths = {2, false};
  return toJson(f);
}
} // namespace

TEST(FunctionMetadata, RoundTripsAndRenumbers) {
  const FunctionMetadata f = parseFunctionMetadata(diamondRecord());
  EXPECT_EQ(f.number().ballLarus.totalPaths, 2u);
  EXPECT_EQ(toJson(f), diamondRecord());
}

TEST(FunctionMetadata, RefusesRecordsThatDoNotRenumber) {
  nlohmann::json record = diamondRecord();
  record["num_paths"] = 3;
  EXPECT_THROW(parseFunctionMetadata(record), InputError);
  record = diamondRecord();
  record["checksum"] = "0000000000000000";
  EXPECT_THROW(parseFunctionMetadata(record), InputError);
  record = diamondRecord();
  record["edges"][1][1] = 9; // no such block
  EXPECT_THROW(parseFunctionMetadata(record), InputError);
  record = diamondRecord();
  record.erase("cuts");
  EXPECT_THROW(parseFunctionMetadata(record), InputError);
}
