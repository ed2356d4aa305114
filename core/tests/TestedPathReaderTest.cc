// readTestedPaths drops what it does not need while parsing: the same index
// and the same problems, in the same order of precedence, as the whole-DOM
// reader it replaced (the messages below are that reader's), and a place
// for every JSON error.
#include "pathcov/format/Corpus.h"
#include "pathcov/format/InputError.h"

#include "TestedPathScan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <random>
#include <system_error>

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

// Before stop 51 each copy of a header's static function was its unit's
// (low.c:clamp); now all are the header's (clamp.h:clamp). An older
// corpus's copies also go under the header's identity, their paths and
// counts together per CFG, as a corpus collected now has them. Both readers.
TEST(TestedPathReader, OlderCorpusCopiesOfAHeadersStaticAreOneFunction) {
  const std::string json = R"({
    "format": "pathcov-corpus", "format_version": "2.0",
    "functions": [
      {"identity": "src/low.c:clamp", "file": "src/clamp.h", "checksum": "c1",
       "paths": [{"id": 0, "count": 2}]},
      {"identity": "src/high.c:clamp", "file": "src/clamp.h", "checksum": "c1",
       "paths": [{"id": 0, "count": 1}, {"id": 2, "count": 5}]},
      {"identity": "src/mid.c:clamp", "file": "src/clamp.h", "checksum": "c9",
       "paths": [{"id": 1, "count": 1}]},
      {"identity": "src/clamp.h:clamp", "file": "src/clamp.h", "checksum": "c1",
       "paths": [{"id": 3, "count": 1}]},
      {"identity": "src/main.c:main", "file": "src/main.c", "checksum": "c2",
       "paths": [{"id": 0, "count": 1}]},
      {"identity": "_Z4pickv", "file": "src/pick.h", "checksum": "c3",
       "paths": [{"id": 0, "count": 1}]}]})";
  for (const TestedPathIndex &index :
       {readTestedPaths(json), readTestedPathsReference(json)}) {
    std::vector<std::string> identities;
    for (const auto &[identity, versions] : index)
      identities.push_back(identity);
    EXPECT_EQ(identities, (std::vector<std::string>{
                              "_Z4pickv", "src/clamp.h:clamp", "src/high.c:clamp",
                              "src/low.c:clamp", "src/main.c:main", "src/mid.c:clamp"}));
    const std::vector<TestedPaths> &clamp = index.at("src/clamp.h:clamp");
    ASSERT_EQ(clamp.size(), 2u);
    EXPECT_EQ(clamp[0].checksum, "c1");
    EXPECT_EQ(clamp[0].ids, (std::vector<uint64_t>{0, 2, 3}));
    EXPECT_EQ(clamp[0].counts, (std::vector<uint64_t>{3, 5, 1}));
    EXPECT_EQ(clamp[1].checksum, "c9");
    EXPECT_EQ(clamp[1].ids, (std::vector<uint64_t>{1}));
    EXPECT_EQ(index.at("src/low.c:clamp")[0].ids, (std::vector<uint64_t>{0}));
  }
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

// The fast reader (TestedPathScan.h) reads what the tools write, and gives
// the reference reader's index or gives up: never another index, never an
// index where the reference reader finds a problem.
namespace {

// "" when the fast reader agrees with the reference reader on `json`, else
// what differs, read in one go or streamed a few bytes a read into a small
// buffer, which grows and moves as under a long function. `plain`: the
// fast reader must not give up on it.
std::string fastReaderDisagrees(const std::string &json, bool plain) {
  const std::optional<TestedPathIndex> fast = scanTestedPaths(json);
  // Every piece and key cut across reads somewhere.
  for (size_t step : {size_t{1}, size_t{7}})
    if (scanTestedPaths(readingFrom(json, step), 16) != fast)
      return "the fast reader reads it otherwise streamed " + std::to_string(step) +
             " bytes a read";
  if (!fast)
    return plain ? "the fast reader gave up on a plain corpus" : "";
  try {
    if (*fast != readTestedPathsReference(json))
      return "the fast reader's index differs";
  } catch (const InputError &e) {
    return std::string("the fast reader accepted what the reference refuses: ") +
           e.what();
  }
  return "";
}

const char *const kHead = R"({"format":"pathcov-corpus","format_version":"2.0","functions":)";

} // namespace

TEST(TestedPathScan, ReadsAPlainCorpusAsTheReferenceDoes) {
  const std::string json = std::string(R"({
    "format": "pathcov-corpus", "format_version": "2.1", "profiles": 2,
    "modules": [{"path": "/bin/x", "build_id": null}],
    "functions": [
      {"identity": "f", "checksum": "c1", "optimization": "-O2",
       "blocks": [{"lines": [1, 2]}], "edges": [[0, 1, "true", 1.5e3]],
       "paths": [{"id": 7, "count": 1, "tests": ["a\"b", "\u00e9"]},
                 {"id": 2, "count": 18446744073709551615}],
       "field_paths": [{"id": 2, "count": 4}, {"id": 5, "seen": [{"report": "r"}]}]},
      {"identity": "g", "skipped": "too many paths", "paths": []},
      {"identity": "f", "checksum": "c2", "paths": [], "acyclic_paths_saturated": false},
      {"identity": "h", "skipped": "", "checksum": "c3", "paths": [{"\u0069d": 0}]}],
    "set_aside": [{"x": [true, false, null, -0.5e-3, {}]}]})");
  const std::optional<TestedPathIndex> fast = scanTestedPaths(json);
  ASSERT_TRUE(fast);
  const std::vector<TestedPaths> &f = fast->at("f");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].ids, (std::vector<uint64_t>{2, 5, 7}));
  // 2^64 - 1 + 4 saturates.
  EXPECT_EQ(f[0].counts, (std::vector<uint64_t>{UINT64_MAX, 0, 1}));
  EXPECT_EQ(f[0].optimization, "-O2");
  EXPECT_EQ(fast->count("g"), 0u);
  EXPECT_EQ(fast->at("h")[0].ids, (std::vector<uint64_t>{0}));
  EXPECT_EQ(fastReaderDisagrees(json, true), "");
}

// Anything the fast reader does not expect is the reference reader's to
// decide, also what the reference reader accepts.
TEST(TestedPathScan, GivesUpWhereTheReferenceDecides) {
  const std::string head = kHead;
  const std::string f = R"({"identity":"f","checksum":"c","paths":[{"id":1}]})";
  const std::string cases[] = {
      head + "[" + f + "],\"functions\":[]}",                     // repeated key
      head + R"([{"identity":"f","identity":"g","checksum":"c","paths":[]}]})",
      head + R"([{"identity":"f","checksum":"c","paths":[{"id":1,"id":2}]}]})",
      head + R"([{"identity":"f","checksum":"c","paths":[],"field_paths":null}]})",
      head + R"([{"identity":"f","checksum":"c","paths":[{"id":1.0}]}]})",
      head + R"([{"identity":"f","checksum":"c","paths":[{"id":-1}]}]})",
      head + R"([{"identity":"f","checksum":"c","paths":[{"id":1,"count":null}]}]})",
      head + R"([{"identity":"f","skipped":"x","paths":[{"id":-1}]}]})",
      head + R"([{"identity":"f","skipped":"x","paths":"whatever"}]})",
      head + "[" + f + "],\"x\":123456789012345678901234567890}", // a big integer
      "\xef\xbb\xbf" + head + "[" + f + "]}",                         // a byte-order mark
      head + "[" + f + "]} x",
      head + "[" + f + "]",
      head + "[" + f + "],\"x\":1e400}",
      head + "[" + f + "],\"x\":\"\\ud800\"}",
      head + "[" + f + "],\"x\":nul}",
      head + "[" + f + "],\"x\":[1,]}",
      head + "[" + f + "],\"x\":,\"y\":1}",                         // no value
      head + "[" + f + "],\"x\":}",
      std::string(R"({"format":"pathcov-corpus","format_version":"1.0","functions":[]})"),
      std::string(R"({"format":"pathcov-corpus","functions":[]})"),
  };
  for (const std::string &json : cases) {
    EXPECT_FALSE(scanTestedPaths(json)) << json;
    EXPECT_EQ(fastReaderDisagrees(json, false), "") << json;
  }
  // Through readTestedPaths, the reference reader's answer.
  EXPECT_EQ(readTestedPaths(cases[0]).size(), 0u);
  EXPECT_EQ(readTestedPaths(cases[1]).at("g")[0].checksum, "c");
  EXPECT_EQ(problemOf(cases[5]), "functions[0].paths[0].id: expected a non-negative integer");
  EXPECT_EQ(readTestedPaths(cases[9]).at("f")[0].ids, (std::vector<uint64_t>{1}));
}

namespace {

// A random corpus of the plain shape: keys in any order, metadata the
// reader skips (nested, with escapes and every kind of number), ids
// repeated between paths and field paths, counts near 2^64.
std::string randomCorpus(std::mt19937_64 &rng) {
  const auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  std::function<std::string(int)> junk = [&](int depth) -> std::string {
    switch (pick(depth > 3 ? 5 : 7)) {
    case 0: return std::to_string(rng() % 1000);
    case 1: return "-12.5e-3";
    case 2: return R"("a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00")";
    case 3: return pick(2) ? "true" : "false";
    case 4: return "null";
    case 5: {
      std::string s = "[";
      for (int k = pick(3); k > 0; --k)
        s += junk(depth + 1) + (k > 1 ? "," : "");
      return s + "]";
    }
    default: {
      std::string s = "{";
      for (int k = pick(3); k > 0; --k)
        s += "\"k" + std::to_string(k) + "\":" + junk(depth + 1) + (k > 1 ? "," : "");
      return s + "}";
    }
    }
  };
  const auto id = [&] { return std::to_string(pick(4) ? rng() % 16 : rng()); };
  const auto count = [&] {
    return std::to_string(pick(4) ? rng() % 100 : UINT64_MAX - rng() % 3);
  };
  const auto pathList = [&] {
    std::string s = "[";
    for (int k = pick(5); k > 0; --k) {
      std::vector<std::string> keys = {"\"id\":" + id()};
      if (pick(3))
        keys.push_back("\"count\":" + count());
      if (pick(2))
        keys.push_back("\"tests\":" + junk(2));
      std::shuffle(keys.begin(), keys.end(), rng);
      s += "{";
      for (size_t j = 0; j < keys.size(); ++j)
        s += (j ? "," : "") + keys[j];
      s += std::string("}") + (k > 1 ? "," : "");
    }
    return s + "]";
  };
  std::string functions = "[";
  for (int n = pick(6); n > 0; --n) {
    std::vector<std::string> keys = {"\"identity\":\"f" + std::to_string(pick(3)) + "\"",
                                     "\"checksum\":\"c" + std::to_string(pick(2)) + "\"",
                                     "\"paths\":" + pathList()};
    if (pick(2))
      keys.push_back("\"field_paths\":" + pathList());
    if (pick(2))
      keys.push_back("\"optimization\":\"-O" + std::to_string(pick(4)) + "\"");
    if (pick(5) == 0)
      keys.push_back(std::string("\"skipped\":\"") + (pick(2) ? "too many" : "") + "\"");
    for (int k = pick(3); k > 0; --k)
      keys.push_back("\"m" + std::to_string(k) + "\":" + junk(1));
    std::shuffle(keys.begin(), keys.end(), rng);
    functions += "{";
    for (size_t j = 0; j < keys.size(); ++j)
      functions += (j ? ",\n" : "") + keys[j];
    functions += std::string("}") + (n > 1 ? ",\n" : "");
  }
  functions += "]";
  std::vector<std::string> top = {R"("format":"pathcov-corpus")",
                                  R"("format_version":"2.0")",
                                  "\"functions\":" + functions,
                                  "\"modules\":" + junk(1)};
  std::shuffle(top.begin(), top.end(), rng);
  std::string json = "{";
  for (size_t j = 0; j < top.size(); ++j)
    json += (j ? ", " : " ") + top[j];
  return json + "}\n";
}

} // namespace

// Property: on random plain corpora the fast reader gives the reference's
// index; on the same corpora with a byte changed, added or removed, it
// gives that index or gives up.
TEST(TestedPathScan, AgreesWithTheReferenceOnRandomCorpora) {
  std::mt19937_64 rng(20261126);
  int mutatedAccepted = 0;
  for (int round = 0; round < 5000; ++round) {
    std::string json = randomCorpus(rng);
    ASSERT_EQ(fastReaderDisagrees(json, true), "") << json;
    const size_t at = rng() % json.size();
    const char byte = "{}[],:\"\\ 0123456789-+.eEtfnu"[rng() % 28];
    switch (rng() % 3) {
    case 0: json[at] = byte; break;
    case 1: json.insert(json.begin() + at, byte); break;
    default: json.erase(at, 1); break;
    }
    ASSERT_EQ(fastReaderDisagrees(json, false), "") << json;
    mutatedAccepted += scanTestedPaths(json).has_value();
  }
  // Some changes keep a plain corpus (a digit of an id): they were compared.
  EXPECT_GT(mutatedAccepted, 100);
}

// A read that fails is an error of its own, never a corpus that is not
// plain (which the reference reader would then read and word otherwise).
TEST(TestedPathScan, StreamedReadErrorThrows) {
  const std::string json = std::string(kHead) + "[]}";
  size_t reads = 0;
  const ReadSome failing = [&](char *into, size_t room) -> ssize_t {
    if (reads++ == 0) {
      const size_t n = std::min(room, size_t{10});
      std::memcpy(into, json.data(), n);
      return static_cast<ssize_t>(n);
    }
    errno = EIO;
    return -1;
  };
  try {
    scanTestedPaths(failing);
    FAIL() << "no error";
  } catch (const std::system_error &e) {
    EXPECT_EQ(e.code().value(), EIO);
  }
  EXPECT_EQ(reads, 2u);
}
