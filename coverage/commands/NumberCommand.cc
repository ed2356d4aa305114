#include "NumberCommand.h"

#include "CfgJson.h"
#include "ExitCodes.h"
#include "FileIo.h"
#include "pathcov/format/InputError.h"
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

int runNumber(const NumberOptions &options) {
  const std::string inputName = displayName(options.input);
  std::string text;
  try {
    const CfgInput input = readCfgJson(readJson(options.input));
    const FunctionNumbering numbering =
        numberFunction(input, options.pathLimit);
    text = numberingJson(input, numbering, options.allPaths).dump(2) + "\n";
  } catch (const InputError &e) {
    return reportError("number", inputName, e.what(), kExitBadInput);
  } catch (const NumberingOverflow &e) {
    return reportError("number", inputName, e.what(), kExitBadInput);
  }
  return writeOutput("number", options.output, text);
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
