// Reading and writing the tools' files, with errors the user can act on.
#pragma once

#include "ExitCodes.h"

#include <nlohmann/json.hpp>

#include <string>

namespace pathcov {

// The whole of `path` ("-": standard input). Throws InputError.
std::string readInput(const std::string &path);

// Parses JSON text. Throws InputError naming the line and column.
nlohmann::json parseJson(const std::string &text);

// readInput + parseJson, with the file named in the error.
nlohmann::json readJsonFile(const std::string &path);

// How the tools name a path in messages: "-" is <stdin>.
std::string displayName(const std::string &path);

// Prints "pathcov COMMAND: FILE: PROBLEM" and returns `code`.
int reportError(const std::string &command, const std::string &file,
                const std::string &problem, ExitCode code);

// Writes `text` to `path` ("-": standard output); on failure reports it for
// `command` and returns kExitOutputError.
int writeOutput(const std::string &command, const std::string &path,
                const std::string &text);

} // namespace pathcov
