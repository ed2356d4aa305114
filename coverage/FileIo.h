// Reading and writing the tools' files, with errors the user can act on.
#pragma once

#include "ExitCodes.h"
#include "pathcov/format/FileDescriptor.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pathcov {

// The most a tool reads of one input (a file's size, or what standard input
// gives): more than the corpus of a large project needs, little enough that
// a stray file or device costs no more memory than such a corpus.
inline constexpr uint64_t kMaxInputBytes = uint64_t(512) << 20;

// Opens `path` for reading without blocking on a FIFO, and checks that it is
// a regular file (a FIFO or device would hang the tool or never end); of
// any size: an ELF module is mapped, not read. Throws InputError.
FileDescriptor openRegularFile(const std::string &path);

// The regular files of `directory` whose names `wanted` accepts, sorted.
// Anything else by such a name (a FIFO, a device, a subdirectory, a
// symbolic link) is skipped with one line on standard error for `command`:
// anyone may drop things into a directory of field reports. A link named on
// the command line is followed; one found in a directory is not. Throws
// InputError if the directory cannot be listed.
std::vector<std::string>
regularFilesIn(const std::string &command, const std::string &directory,
               const std::function<bool(const std::string &name)> &wanted);
// The same, each file visited as listed (in no particular order): for
// directories too large to hold the list of (a fleet's reports).
void forEachRegularFileIn(
    const std::string &command, const std::string &directory,
    const std::function<bool(const std::string &name)> &wanted,
    const std::function<void(const std::string &path)> &visit);

// A command's inputs: the files named, and in each directory named the
// files regularFilesIn finds with `wanted`. A directory with none is an
// InputError ("DIRECTORY: `noneFound`") unless `noneFound` is empty; then
// it is added to `withoutFiles`, if given.
std::vector<std::string>
inputFiles(const std::string &command, const std::vector<std::string> &inputs,
           const std::function<bool(const std::string &name)> &wanted,
           const std::string &noneFound,
           std::vector<std::string> *withoutFiles = nullptr);
// The same, visited as found: each with its rank among `inputs` (a
// directory's files share their directory's), a directory's in no
// particular order. For inputs too many to hold (a fleet's reports).
void forEachInputFile(
    const std::string &command, const std::vector<std::string> &inputs,
    const std::function<bool(const std::string &name)> &wanted,
    const std::string &noneFound,
    const std::function<void(size_t rank, const std::string &path)> &visit,
    std::vector<std::string> *withoutFiles = nullptr);

// The whole of `path` ("-": standard input), at most kMaxInputBytes.
// Throws InputError.
std::string readInput(const std::string &path);

// Parses the JSON document in `path` ("-": standard input) as it reads it,
// so that a bad byte stops the reading. Throws InputError naming the place of
// the problem.
nlohmann::json readJson(const std::string &path);

// Each line of `path` ("-": standard input) without its newline, read as
// visited, whatever the input's size (a line at most kMaxInputBytes).
// Throws InputError, not naming the file.
void forEachLine(const std::string &path,
                 const std::function<void(std::string_view line)> &visit);

// Parses the JSON document in `path` (a regular file) with `handler` as it
// reads it, whatever its size: for readers that keep only what they need of
// a document (pathcov merge's corpora). Throws InputError, not naming the
// file; a handler's parse_error should be throwJsonError.
void parseJsonStreamed(const std::string &path,
                       nlohmann::json_sax<nlohmann::json> &handler);
// What a streamed document's syntax error is: an InputError with its place,
// as readJson words it.
bool throwJsonError(std::size_t end, const std::string &token,
                    const nlohmann::detail::exception &e);

// readJson, with the file named in the error.
nlohmann::json readJsonFile(const std::string &path);

// How the tools name a path in messages: "-" is <stdin>.
std::string displayName(const std::string &path);

// Prints "pathcov COMMAND: FILE: PROBLEM" and returns `code`.
int reportError(const std::string &command, const std::string &file,
                const std::string &problem, ExitCode code);

// Writes `text` to `path` ("-": standard output); on failure reports it for
// `command` and returns kExitOutputError. A regular file (or a new one) is
// replaced atomically: readers and a failure or crash midway see the old
// file or the new one, never part of it. A device or FIFO is written to.
int writeOutput(const std::string &command, const std::string &path,
                const std::string &text);
// The same with what `write` writes to the output's descriptor (false,
// errno set, when it could not): for outputs too large to hold.
int writeOutput(const std::string &command, const std::string &path,
                const std::function<bool(int fd)> &write);

} // namespace pathcov
