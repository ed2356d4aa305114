// The exit statuses shared by every pathcov subcommand.
#pragma once

#include <stdexcept>

namespace pathcov {

// A command line that cannot be carried out (bad option values, a
// --function that matches nothing): reported as "pathcov CMD: WHAT",
// exit kExitUsage.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum ExitCode : int {
  kExitSuccess = 0,
  kExitUsage = 2,          // bad command line
  kExitBadInput = 3,       // the input data is unreadable or wrong
  kExitOutputError = 4,    // the output could not be written
  kExitPartial = 5,        // the output was written without some inputs,
                           // as asked (collect --skip-stale): a distinct
                           // status, so that a script sees the loss
  kExitInternalError = 70, // a bug in pathcov (EX_SOFTWARE); 1 is left
                           // for "a coverage gate failed", as in gcovr
};

// A failed gate (pathcov gate): kExitGateFailed plus one bit per failed
// criterion, both baseline criteria sharing one, and both overall ratios
// (paths, loop transitions) another, so that every sum stays below 128
// (shells, make and CI read 128 + N as "killed by signal N"). Every sum is
// odd and at least 9, so none is 2, 3, 4, 5 or 70.
constexpr int kExitGateFailed = 1;
constexpr int kGateBitOverall = 8; // --fail-under-paths
constexpr int kGateBitKPaths = 8;  // --fail-under-k-paths
constexpr int kGateBitFunction = 16;
constexpr int kGateBitUntestedFunctions = 32;
constexpr int kGateBitBaseline = 64; // --no-new-untested, --no-new-residual

// For the --help footers: the statuses are part of the interface.
inline constexpr const char *kExitCodeHelp =
    "Exit codes: 0 success, 2 usage error, 3 bad input data, 4 cannot write "
    "the output, 70 internal error.";

} // namespace pathcov
