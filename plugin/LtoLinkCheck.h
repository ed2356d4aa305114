// -flto's link-time compiler (lto1) loads the plugin when the link's flags
// name the spec file, but instruments nothing: the compilations did. With
// the spec file only in LDFLAGS (a Makefile whose CFLAGS= on the make line
// dropped it), no object is instrumented, the runtime stays out of the link
// and the program writes no profile and no report, silently (a new user's
// first -flto build of zstd). lto1 sees the whole link's code, so it can
// tell: once per link (WPA, or lto1 without WPA; never in LTRANS).
#pragma once

#include "GccIncludes.h"

namespace pathcov {

// An IPA pass for lto1, after "whole-program": a warning when the
// link compiles functions and no object it read carries the plugin's
// instrumentation or metadata.
opt_pass *makeLtoLinkCheckPass(gcc::context *ctx);

} // namespace pathcov
