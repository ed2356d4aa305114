#include "FileIo.h"

#include "pathcov/format/InputError.h"
#include "pathcov/format/JsonFields.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>

namespace pathcov {

int reportError(const std::string &command, const std::string &file,
                const std::string &problem, ExitCode code) {
  std::cerr << "pathcov " << command << ": " << file << ": " << problem << '\n';
  return code;
}

namespace {
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

} // namespace

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
    throw InputError(jsonErrorText(e)); // names the line and column
  }
}

// Writes to `path`, or standard output if it is "-".
int writeOutput(const std::string &command, const std::string &path,
                const std::string &text) {
  const bool toStdout = path == "-";
  const std::string name = toStdout ? "<stdout>" : path;
  std::FILE *file = toStdout ? stdout : std::fopen(path.c_str(), "wb");
  if (!file)
    return reportError(command, name, "cannot open for writing: " + errnoText(),
                       kExitOutputError);
  // Flushing (fclose for a file, which some file systems only report
  // errors on) is what really writes; after a failed fwrite it fails too,
  // so errno then tells why either way.
  const bool written =
      std::fwrite(text.data(), 1, text.size(), file) == text.size();
  const bool flushed = (toStdout ? std::fflush(file) : std::fclose(file)) == 0;
  if (!written || !flushed)
    return reportError(command, name, "cannot write: " + errnoText(), kExitOutputError);
  return kExitSuccess;
}

nlohmann::json readJsonFile(const std::string &path) {
  try {
    return parseJson(readInput(path));
  } catch (const InputError &e) {
    throw InputError(displayName(path) + ": " + e.what());
  }
}

std::string displayName(const std::string &path) {
  return path == "-" ? "<stdin>" : path;
}

} // namespace pathcov
