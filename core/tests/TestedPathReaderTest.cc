// readTestedPaths drops what it does not need while parsing: the same index
// and the same problems, in the same order of precedence, as the whole-DOM
// reader it replaced (the messages below are that reader's), and a place
// for every JSON error.
#include "pathcov/format/Corpus.h"
#include "pathcov/format/InputError.h"

#include <gtest/gtest.h>

using namespace pathcov;

namespace {

std::string problemOf(const std::string &json) {
  try {
    readTestedPaths(json);
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(TestedPathReader, ReadsIdsSortedAndSkipsTheRest) {
  const TestedPathIndex index = readTestedPaths(R"({
    "format": "pathcov-corpus", "format_version": "2.0",
    "modules": [{"path": "/bin/x", "build_id": null}], "profiles": 2,
    "functions": [
      {"identity": "f", "checksum": "c1", "cfg": {"blocks": [[1, [2, {"x": []}]]]},
       "paths": [{"id": 7, "count": 1, "tests": ["a"]}, {"id": 2, "count": 3}],
       "field_paths": [{"id": 7, "count": 4}, {"id": 5, "seen": [{"report": "r"}]}]},
      {"identity": "g", "skipped": "too many paths", "paths": "whatever"},
      {"identity": "f", "checksum": "c2", "paths": [], "field_paths": null},
      {"identity": "h", "skipped": "", "checksum": "c3", "paths": [{"id": 0}]}]})");
  ASSERT_EQ(index.size(), 2u);
  const std::vector<TestedPaths> &f = index.at("f");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].checksum, "c1");
  EXPECT_EQ(f[0].ids, (std::vector<uint64_t>{2, 5, 7}));
  // Tested and field counts add up; a count left out is 0.
  EXPECT_EQ(f[0].counts, (std::vector<uint64_t>{3, 0, 5}));
  EXPECT_EQ(f[1].checksum, "c2");
  EXPECT_TRUE(f[1].ids.empty());
  EXPECT_EQ(index.at("h")[0].ids, (std::vector<uint64_t>{0}));
}

// As in a DOM, a key given twice counts with its last value.
TEST(TestedPathReader, LastDuplicateKeyWins) {
  const std::string head = R"({"format":"pathcov-corpus","format_version":"2.0","functions":)";
  EXPECT_EQ(readTestedPaths(head + R"([{"checksum":"c","paths":[{"id":"x"}],"paths":[{"id":1}],"identity":"f"}]})")
                .at("f")[0].ids,
            (std::vector<uint64_t>{1}));
  EXPECT_EQ(readTestedPaths(head + R"([{"checksum":"c","paths":[{"id":"x","id":2}],"identity":"f"}]})")
                .at("f")[0].ids,
            (std::vector<uint64_t>{2}));
  EXPECT_TRUE(readTestedPaths(head + R"([{"checksum":1}],"functions":[]})").empty());
}

TEST(TestedPathReader, SameProblemsAsTheDomReader) {
  const std::pair<std::string, std::string> cases[] = {
      {"[]",
       "the document: expected an object"},
      {"3",
       "the document: expected an object"},
      {"{}",
       "format: missing"},
      {"{\"format\":3}",
       "format: expected a string"},
      {"{\"format\":\"pathcov-report\",\"format_version\":\"1.0\",\"functions\":[]}",
       "format: \"pathcov-report\" is not \"pathcov-corpus\""},
      {"{\"format\":\"pathcov-corpus\"}",
       "format_version: missing"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"3.0\",\"functions\":[]}",
       "format_version: unsupported version \"3.0\" (this pathcov reads 2.x)"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"1.1\",\"functions\":[]}",
       "format_version: unsupported version \"1.1\" (this pathcov reads 2.x): "
       "written by an older pathcov, whose function identities differ; rebuild, "
       "re-run and re-collect with this version"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\"}",
       "functions: missing"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":{}}",
       "functions: expected an array"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":3}",
       "functions: expected an array"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[7]}",
       "functions[0]: expected an object"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[null]}",
       "functions[0]: expected an object"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"skipped\":1}]}",
       "functions[0].skipped: expected a string"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"skipped\":\"\",\"identity\":\"f\"}]}",
       "functions[0].checksum: missing"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":[1],\"identity\":\"f\"}]}",
       "functions[0].checksum: expected a string"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"identity\":\"f\"}]}",
       "functions[0].paths: missing"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":null,\"identity\":\"f\"}]}",
       "functions[0].paths: expected an array"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[{\"id\":1},5],\"identity\":\"f\"}]}",
       "functions[0].paths[1]: expected an object"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[{\"id\":1},{\"count\":2}],\"identity\":\"f\"}]}",
       "functions[0].paths[1].id: missing"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[{\"id\":-1}],\"identity\":\"f\"}]}",
       "functions[0].paths[0].id: expected a non-negative integer"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[{\"id\":1.5}],\"identity\":\"f\"}]}",
       "functions[0].paths[0].id: expected a non-negative integer"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[{\"id\":\"1\"}],\"identity\":\"f\"}]}",
       "functions[0].paths[0].id: expected a non-negative integer"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[{\"id\":99999999999999999999}],\"identity\":\"f\"}]}",
       "functions[0].paths[0].id: expected a non-negative integer"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[{\"id\":1,\"count\":\"2\"}],\"identity\":\"f\"}]}",
       "functions[0].paths[0].count: expected a non-negative integer"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[],\"field_paths\":[{\"id\":1,\"count\":-1}],\"identity\":\"f\"}]}",
       "functions[0].field_paths[0].count: expected a non-negative integer"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[],\"field_paths\":{},\"identity\":\"f\"}]}",
       "functions[0].field_paths: expected an array"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[],\"field_paths\":[{\"id\":true}],\"identity\":\"f\"}]}",
       "functions[0].field_paths[0].id: expected a non-negative integer"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[]}]}",
       "functions[0].identity: missing"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[],\"identity\":{\"a\":[1,{}]}}]}",
       "functions[0].identity: expected a string"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[{\"id\":\"x\"}],\"identity\":\"f\"},{\"checksum\":2}]}",
       "functions[0].paths[0].id: expected a non-negative integer"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":2},{\"checksum\":\"c\",\"paths\":[{\"id\":\"x\"}],\"identity\":\"f\"}]}",
       "functions[0].checksum: expected a string"},
      {"{\"functions\":[{\"checksum\":2}],\"format\":\"pathcov-corpus\",\"format_version\":\"0.9\"}",
       "format_version: unsupported version \"0.9\" (this pathcov reads 2.x): "
       "written by an older pathcov, whose function identities differ; rebuild, "
       "re-run and re-collect with this version"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[{\"id\":1}],\"identity\":\"f\"}",
       "parse error at line 1, column 114: syntax error while parsing array - unexpected end of input; expected ']'"},
      {"{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\"functions\":[{\"checksum\":\"c\",\"paths\":[{\"id\":1}],\"identity\":\"f\"}]} x",
       "parse error at line 1, column 117: syntax error while parsing value - invalid literal; last read: '\"f\"}]} x'; expected end of input"},
  };
  for (const auto &[json, problem] : cases)
    EXPECT_EQ(problemOf(json), problem) << json;
}

// A number beyond a double is an error with its place, like a syntax error.
TEST(TestedPathReader, PlacesANumberOverflow) {
  EXPECT_EQ(problemOf("{\"format\":\"pathcov-corpus\",\"format_version\":\"2.0\",\n"
                      "\"functions\":[{\"paths\":[{\"id\":1e400}]}]}"),
            "parse error at line 2, column 34: number overflow parsing '1e400'");
}
