#include "NumberCommand.h"

#include "CfgJson.h"
#include "ExitCodes.h"
#include "InputError.h"
#include "Numbering.h"
#include "NumberingJson.h"

#include "pathcov/core/Checked.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

namespace pathcov {

namespace {

struct NumberOptions {
  std::string input = "-";
  std::string output = "-";
  uint64_t pathLimit = kDefaultPathLimit;
  bool allPaths = false;
};

int reportError(const std::string &file, const std::string &problem,
                ExitCode code) {
  std::cerr << "pathcov number: " << file << ": " << problem << '\n';
  return code;
}

std::string errnoText() { return std::strerror(errno); }

// stdio rather than iostreams: fread reports a read error (a directory, an
// I/O error) where an istream would take it for the end of the file.
std::string readAll(std::FILE *file) {
  std::string text;
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0)
    text.append(buffer, n);
  if (std::ferror(file))
    throw InputError("cannot read: " + errnoText());
  return text;
}

std::string readInput(const std::string &path) {
  if (path == "-")
    return readAll(stdin);
  struct Closer {
    void operator()(std::FILE *file) const { std::fclose(file); }
  };
  const std::unique_ptr<std::FILE, Closer> file(std::fopen(path.c_str(), "rb"));
  if (!file)
    throw InputError("cannot open: " + errnoText());
  return readAll(file.get());
}

nlohmann::json parseJson(const std::string &text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error &e) {
    // what() starts with "[json.exception.parse_error.101] ": an id that
    // means nothing to the user. The rest names the line and column.
    const std::string what = e.what();
    const size_t idEnd = what.find("] ");
    throw InputError(idEnd == std::string::npos ? what
                                                : what.substr(idEnd + 2));
  }
}

// Writes to `path`, or standard output if it is "-".
int writeOutput(const std::string &path, const std::string &text) {
  const bool toStdout = path == "-";
  const std::string name = toStdout ? "<stdout>" : path;
  std::FILE *file = toStdout ? stdout : std::fopen(path.c_str(), "wb");
  if (!file)
    return reportError(name, "cannot open for writing: " + errnoText(),
                       kExitOutputError);
  // Flushing (fclose for a file, which some file systems only report
  // errors on) is what really writes; after a failed fwrite it fails too,
  // so errno then tells why either way.
  const bool written =
      std::fwrite(text.data(), 1, text.size(), file) == text.size();
  const bool flushed = (toStdout ? std::fflush(file) : std::fclose(file)) == 0;
  if (!written || !flushed)
    return reportError(name, "cannot write: " + errnoText(), kExitOutputError);
  return kExitSuccess;
}

int runNumber(const NumberOptions &options) {
  const std::string inputName =
      options.input == "-" ? "<stdin>" : options.input;
  std::string text;
  try {
    const CfgInput input = readCfgJson(parseJson(readInput(options.input)));
    const FunctionNumbering numbering =
        numberFunction(input, options.pathLimit);
    text = numberingJson(input, numbering, options.allPaths).dump(2) + "\n";
  } catch (const InputError &e) {
    return reportError(inputName, e.what(), kExitBadInput);
  } catch (const NumberingOverflow &e) {
    return reportError(inputName, e.what(), kExitBadInput);
  }
  return writeOutput(options.output, text);
}

} // namespace

void addNumberCommand(CLI::App &app, int &exitCode) {
  // The options outlive this function: the callback reads them after
  // parsing.
  const auto options = std::make_shared<NumberOptions>();
  CLI::App *number = app.add_subcommand(
      "number", "Number the paths of a CFG (Ball-Larus and preferential path "
                "profiling) and print the numbering as JSON");
  number
      ->add_option("FILE", options->input,
                   "The CFG and its interesting paths as JSON "
                   "(pathcov-cfg 1.x); - reads standard input")
      ->capture_default_str();
  number
      ->add_option("-o,--output", options->output,
                   "Write the JSON to this file; - is standard output")
      ->capture_default_str();
  number
      ->add_option("--path-limit", options->pathLimit,
                   "Cut the graph so that every path id is below this")
      ->check(CLI::Range(uint64_t(1), kDefaultPathLimit))
      ->capture_default_str();
  number->add_flag("--all-paths", options->allPaths,
                   "Also list every path with its ids (at most " +
                       std::to_string(kMaxListedPaths) + " paths)");
  number->callback([options, &exitCode] { exitCode = runNumber(*options); });
}

} // namespace pathcov
