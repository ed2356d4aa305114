// The exit statuses shared by every pathcov subcommand.
#pragma once

namespace pathcov {

enum ExitCode : int {
  kExitSuccess = 0,
  kExitUsage = 2,          // bad command line
  kExitBadInput = 3,       // the input data is unreadable or wrong
  kExitOutputError = 4,    // the output could not be written
  kExitInternalError = 70, // a bug in pathcov (EX_SOFTWARE); 1 is left
                           // for "a coverage gate failed", as in gcovr
};

// For the --help footers: the statuses are part of the interface.
inline constexpr const char *kExitCodeHelp =
    "Exit codes: 0 success, 2 usage error, 3 bad input data, 4 cannot write "
    "the output, 70 internal error.";

} // namespace pathcov
