// pathcov: the path-coverage command-line tool, one subcommand per job.
#include "CollectCommand.h"
#include "DecodeCommand.h"
#include "ExitCodes.h"
#include "GateCommand.h"
#include "MergeCommand.h"
#include "SightingsCommand.h"
#include "NumberCommand.h"
#include "ReportCommand.h"
#include "ShowCommand.h"

#include <CLI/CLI.hpp>

#include <csignal>
#include <exception>
#include <iostream>
#include <string>

namespace {

// argv as a POSIX shell takes it back: each word bare if it is made of
// characters no shell treats specially, else in single quotes.
std::string shellCommandLine(int argc, char **argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    const std::string word = argv[i];
    if (i > 0)
      line += ' ';
    const bool bare = !word.empty() &&
                      word.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                             "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                             "0123456789@%+=:,./_-") ==
                          std::string::npos;
    if (bare) {
      line += word;
      continue;
    }
    line += '\'';
    for (const char c : word)
      line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"pathcov: path coverage with Ball-Larus and preferential path "
               "profiling numbering"};
  app.set_version_flag("--version", "pathcov " PATHCOV_VERSION);
  app.require_subcommand(1);
  app.footer(pathcov::kExitCodeHelp); // subcommands added later inherit it

  // A file-size limit (ulimit -f) then fails the write with EFBIG, which
  // writeOutput reports and cleans up after, rather than killing the tool.
  std::signal(SIGXFSZ, SIG_IGN);

  int exitCode = pathcov::kExitSuccess;
  pathcov::addNumberCommand(app, exitCode);
  pathcov::addCollectCommand(app, exitCode);
  pathcov::addShowCommand(app, exitCode);
  pathcov::addDecodeCommand(app, exitCode);
  pathcov::addReportCommand(app, exitCode, shellCommandLine(argc, argv));
  pathcov::addGateCommand(app, exitCode);
  pathcov::addMergeCommand(app, exitCode);
  pathcov::addSightingsCommand(app, exitCode);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    // CLI11 has its own exit codes (105, 106, ...); pathcov promises 2 for
    // every usage error, and 0 for --help and --version.
    if (e.get_exit_code() == 0) {
      app.exit(e);
      return pathcov::kExitSuccess;
    }
    // Prefixed like every other error of the tools ("pathcov gate: ..."),
    // which CLI11's own message ("Value 200 not in range ...") is not.
    std::string who = "pathcov";
    for (const CLI::App *command : app.get_subcommands())
      who += " " + command->get_name();
    std::cerr << who << ": " << e.what()
              << "\nRun with --help for more information.\n";
    return pathcov::kExitUsage;
  } catch (const std::exception &e) {
    std::cerr << "pathcov: internal error: " << e.what() << '\n';
    return pathcov::kExitInternalError;
  }
  return exitCode;
}
