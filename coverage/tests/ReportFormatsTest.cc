// The table of report formats (formats/ReportFormats.h): every format once,
// each name resolving to its writer, and each writer writing its format.
#include "Fixture.h"
#include "formats/ReportFormats.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace pathcov;

namespace {

using FileWriter = std::string (*)(const ReportInput &);
using DirectoryWriter = int (*)(const ReportInput &, const std::string &);

struct ExpectedFormat {
  std::string name;
  FileWriter writeFile;
  DirectoryWriter writeDirectory;
  std::string begins; // how its output (html: index.html) begins
};

const std::vector<ExpectedFormat> kExpected{
    {"lcov", writeLcov, nullptr, "TN:\nSF:loops.c\nFN:2,loops\n"},
    {"gcovr", writeGcovrJson, nullptr,
     "{\n \"files\": [\n  {\n   \"file\": \"loops.c\",\n   \"functions\": [\n    {\n     \"execution_count\""},
    {"cobertura", writeCobertura, nullptr,
     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE coverage"},
    {"sonarqube", writeSonarQube, nullptr,
     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- pathcov"},
    {"sarif", writeSarif, nullptr,
     "{\n \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\""},
    {"json", writeSummary, nullptr,
     "{\n \"files\": [\n  {\n   \"file\": \"loops.c\",\n   \"functions\": [\n    {\n     \"calls\""},
    {"html", nullptr, writeHtml, "<!DOCTYPE html>\n"},
};

std::string fileText(const std::string &path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

TEST(ReportFormats, EveryFormatListedOnce) {
  std::vector<std::string> names;
  for (const ReportFormat &format : reportFormats()) {
    names.push_back(format.name);
    EXPECT_NE(std::string(format.description), "") << format.name;
    // A writer of a file or of a directory, never both.
    EXPECT_NE(format.writeFile == nullptr, format.writeDirectory == nullptr)
        << format.name;
  }
  std::vector<std::string> expected;
  for (const ExpectedFormat &format : kExpected)
    expected.push_back(format.name);
  EXPECT_EQ(names, expected);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(),
            names.size());
}

TEST(ReportFormats, EachNameResolvesToItsWriter) {
  for (const ExpectedFormat &expected : kExpected) {
    const ReportFormat *format = findReportFormat(expected.name);
    ASSERT_NE(format, nullptr) << expected.name;
    EXPECT_EQ(format->name, expected.name);
    EXPECT_EQ(format->writeFile, expected.writeFile) << expected.name;
    EXPECT_EQ(format->writeDirectory, expected.writeDirectory) << expected.name;
  }
  EXPECT_EQ(findReportFormat("pdf"), nullptr);
  EXPECT_EQ(findReportFormat("LCOV"), nullptr);
  EXPECT_EQ(findReportFormat(""), nullptr);
}

TEST(ReportFormats, EachWriterWritesItsFormat) {
  const Corpus corpus = reportFixture();
  const CorpusProjection projection = projectCorpus(corpus);
  const FieldRuns field = fieldRunsByFunction(corpus);
  const SourceFiles sources({});
  const ReportSettings settings;
  const std::map<FieldKey, SourceContexts> contexts;
  const ReportInput input{corpus, projection, field, sources, settings, contexts};
  const std::string dir = testing::TempDir() + "/pathcov-report-formats";
  for (const ExpectedFormat &expected : kExpected) {
    const ReportFormat &format = *findReportFormat(expected.name);
    std::string text;
    if (format.writeFile) {
      text = format.writeFile(input);
    } else {
      std::filesystem::remove_all(dir);
      ASSERT_EQ(format.writeDirectory(input, dir), 0) << expected.name;
      text = fileText(dir + "/index.html");
    }
    EXPECT_EQ(text.substr(0, expected.begins.size()), expected.begins)
        << expected.name << " wrote:\n"
        << text.substr(0, 200);
  }
  std::filesystem::remove_all(dir);
}
