#include "FileIo.h"

#include "pathcov/format/InputError.h"
#include "pathcov/format/JsonFields.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>

namespace pathcov {

int reportError(const std::string &command, const std::string &file,
                const std::string &problem, ExitCode code) {
  std::cerr << "pathcov " << command << ": " << file << ": " << problem << '\n';
  return code;
}

namespace {
std::string errnoText() { return std::strerror(errno); }

std::string tooLarge() {
  return "larger than the input limit of " +
         std::to_string(kMaxInputBytes >> 20) + " MiB";
}

std::string kindOf(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode))
    return "a device";
  if (S_ISSOCK(mode))
    return "a socket";
  if (S_ISLNK(mode))
    return "a symbolic link";
  return "not a regular file";
}

// Reads a file descriptor a buffer at a time, at most kMaxInputBytes in all
// unless unlimited.
class InputBytes {
public:
  explicit InputBytes(int fd, bool limited = true) : fd_(fd), limited_(limited) {}

  // False at the end of the input. Throws InputError on a read error or
  // past the limit (standard input has no size to check beforehand).
  bool fill() {
    if (next_ < end_)
      return true;
    ssize_t n;
    do
      n = read(fd_, buffer_, sizeof buffer_);
    while (n < 0 && errno == EINTR);
    if (n < 0)
      throw InputError("cannot read: " + errnoText());
    total_ += static_cast<uint64_t>(n);
    if (limited_ && total_ > kMaxInputBytes)
      throw InputError(tooLarge());
    next_ = buffer_;
    end_ = buffer_ + n;
    return n > 0;
  }
  const char *next_ = nullptr, *end_ = nullptr;

private:
  int fd_;
  bool limited_;
  uint64_t total_ = 0;
  char buffer_[1 << 16];
};

// The bytes of an InputBytes as an input iterator, for nlohmann's parser.
class InputIterator {
public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char *;
  using reference = const char &;

  InputIterator() = default; // the end
  explicit InputIterator(InputBytes &bytes) : bytes_(&bytes) {}
  reference operator*() const { return *bytes_->next_; }
  InputIterator &operator++() {
    ++bytes_->next_;
    return *this;
  }
  bool operator==(const InputIterator &other) const {
    return atEnd() == other.atEnd();
  }
  bool operator!=(const InputIterator &other) const { return !(*this == other); }

private:
  bool atEnd() const { return !bytes_ || !bytes_->fill(); }
  InputBytes *bytes_ = nullptr;
};

// Standard output, a device, a FIFO: there is no file to replace.
int writeInPlace(const std::string &command, const std::string &path,
                 const std::function<bool(int fd)> &write) {
  const bool toStdout = path == "-";
  const std::string name = toStdout ? "<stdout>" : path;
  const int fd =
      toStdout ? 1 : open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    return reportError(command, name, "cannot open for writing: " + errnoText(),
                       kExitOutputError);
  bool written = write(fd);
  if (!toStdout && close(fd) != 0) // some file systems report errors only here
    written = false;
  if (!written)
    return reportError(command, name, "cannot write: " + errnoText(), kExitOutputError);
  return kExitSuccess;
}

// Replaces `path` atomically (replaceFileAt); `old` is the file being
// replaced, if any: the new one keeps its permissions, else it gets the
// usual 0666 less the umask.
int replaceFile(const std::string &command, const std::string &path,
                const std::function<bool(int fd)> &write, const struct stat *old) {
  const size_t slash = path.rfind('/');
  const std::string directory =
      slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const FileDescriptor dir(
      open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir.ok())
    return reportError(command, path, "cannot open for writing: " + errnoText(),
                       kExitOutputError);
  const int error =
      replaceFileAt(dir.get(), path.substr(slash + 1), write,
                    {old ? mode_t(old->st_mode & 07777) : mode_t(0666),
                     old != nullptr, true});
  if (error) {
    errno = error;
    return reportError(command, path, "cannot write: " + errnoText(),
                       kExitOutputError);
  }
  return kExitSuccess;
}

} // namespace

FileDescriptor openRegularFile(const std::string &path) {
  // O_NONBLOCK: opening a FIFO would otherwise wait for a writer.
  FileDescriptor file(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (file.get() < 0)
    throw InputError("cannot open: " + errnoText());
  struct stat st;
  if (fstat(file.get(), &st) != 0)
    throw InputError("cannot open: " + errnoText());
  if (!S_ISREG(st.st_mode))
    throw InputError("not a regular file: " + kindOf(st.st_mode));
  const int flags = fcntl(file.get(), F_GETFL);
  if (flags < 0 || fcntl(file.get(), F_SETFL, flags & ~O_NONBLOCK) != 0)
    throw InputError("cannot open: " + errnoText());
  return file;
}

void forEachRegularFileIn(
    const std::string &command, const std::string &directory,
    const std::function<bool(const std::string &name)> &wanted,
    const std::function<void(const std::string &path)> &visit) {
  std::error_code error;
  for (const auto &entry :
       std::filesystem::directory_iterator(directory, error)) {
    const std::string path = entry.path().string();
    if (!wanted(entry.path().filename().string()))
      continue;
    struct stat st;
    const bool found = lstat(path.c_str(), &st) == 0; // gone since listed?
    if (found && S_ISREG(st.st_mode))
      visit(path);
    else
      std::cerr << "pathcov " << command << ": " << path << ": skipped: "
                << (found ? kindOf(st.st_mode) : errnoText()) << '\n';
  }
  if (error)
    throw InputError(directory + ": cannot list: " + error.message());
}

std::vector<std::string>
regularFilesIn(const std::string &command, const std::string &directory,
               const std::function<bool(const std::string &name)> &wanted) {
  std::vector<std::string> files;
  forEachRegularFileIn(command, directory, wanted,
                       [&](const std::string &path) { files.push_back(path); });
  std::sort(files.begin(), files.end());
  return files;
}

namespace {
// `path`, or for "-" a copy of standard input (closing it leaves stdin open);
// InputBytes counts what standard input gives against the limit.
FileDescriptor openInput(const std::string &path) {
  if (path != "-") {
    FileDescriptor file = openRegularFile(path);
    struct stat st;
    if (fstat(file.get(), &st) == 0 &&
        static_cast<uint64_t>(st.st_size) > kMaxInputBytes) // fail fast
      throw InputError("is " + std::to_string(st.st_size) + " bytes, " +
                       tooLarge());
    return file;
  }
  FileDescriptor in(dup(0));
  if (in.get() < 0)
    throw InputError("cannot read: " + errnoText());
  return in;
}
} // namespace

void forEachInputFile(
    const std::string &command, const std::vector<std::string> &inputs,
    const std::function<bool(const std::string &name)> &wanted,
    const std::string &noneFound,
    const std::function<void(size_t rank, const std::string &path)> &visit,
    std::vector<std::string> *withoutFiles) {
  for (size_t rank = 0; rank < inputs.size(); ++rank) {
    const std::string &input = inputs[rank];
    std::error_code error;
    if (!std::filesystem::is_directory(input, error)) {
      // A name without an extension: a directory, most likely.
      if (input != "-" && error == std::errc::no_such_file_or_directory &&
          std::filesystem::path(input).extension().empty())
        throw InputError(input + ": cannot open: " + error.message() +
                         " (the runtime makes its report or profile directory "
                         "when a run writes the first file: runs that wrote "
                         "none leave none; `mkdir -p` it before them to tell "
                         "that from a wrong name)");
      visit(rank, input);
      continue;
    }
    bool any = false;
    forEachRegularFileIn(command, input, wanted, [&](const std::string &path) {
      visit(rank, path);
      any = true;
    });
    if (!any && !noneFound.empty())
      throw InputError(input + ": " + noneFound);
    if (!any && withoutFiles)
      withoutFiles->push_back(input);
  }
}

std::vector<std::string>
inputFiles(const std::string &command, const std::vector<std::string> &inputs,
           const std::function<bool(const std::string &name)> &wanted,
           const std::string &noneFound, std::vector<std::string> *withoutFiles) {
  std::vector<std::pair<size_t, std::string>> ranked;
  forEachInputFile(
      command, inputs, wanted, noneFound,
      [&](size_t rank, const std::string &path) { ranked.emplace_back(rank, path); },
      withoutFiles);
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> files;
  for (auto &[rank, path] : ranked)
    files.push_back(std::move(path));
  return files;
}

std::string readInput(const std::string &path) {
  const FileDescriptor file = openInput(path);
  InputBytes bytes(file.get());
  std::string text;
  while (bytes.fill()) {
    text.append(bytes.next_, bytes.end_);
    bytes.next_ = bytes.end_;
  }
  return text;
}

nlohmann::json readJson(const std::string &path) {
  const FileDescriptor file = openInput(path);
  InputBytes bytes(file.get());
  return parseJsonStream(InputIterator(bytes), InputIterator());
}

void forEachLine(const std::string &path,
                 const std::function<void(std::string_view line)> &visit) {
  const FileDescriptor file = path == "-" ? openInput(path) : openRegularFile(path);
  InputBytes bytes(file.get(), false);
  std::string line;
  while (bytes.fill()) {
    const char *newline = std::find(bytes.next_, bytes.end_, '\n');
    line.append(bytes.next_, newline);
    if (line.size() > kMaxInputBytes)
      throw InputError("a line " + tooLarge());
    bytes.next_ = newline;
    if (newline == bytes.end_)
      continue;
    ++bytes.next_;
    visit(line);
    line.clear();
  }
  if (!line.empty())
    visit(line);
}

void parseJsonStreamed(const std::string &path,
                       nlohmann::json_sax<nlohmann::json> &handler) {
  const FileDescriptor file = openRegularFile(path);
  InputBytes bytes(file.get(), false);
  nlohmann::json::sax_parse(InputIterator(bytes), InputIterator(), &handler);
}

bool throwJsonError(std::size_t end, const std::string &token,
                    const nlohmann::detail::exception &e) {
  if (dynamic_cast<const nlohmann::json::parse_error *>(&e))
    throw InputError(jsonErrorText(e)); // names the line and column
  throw InputError(placedJsonError(e, end, token.size(), std::string_view()));
}

nlohmann::json readJsonFile(const std::string &path) {
  try {
    return readJson(path);
  } catch (const InputError &e) {
    throw InputError(displayName(path) + ": " + e.what());
  }
}

int writeOutput(const std::string &command, const std::string &path,
                const std::function<bool(int fd)> &write) {
  struct stat st;
  const bool exists = path != "-" && stat(path.c_str(), &st) == 0;
  if (path == "-" || (exists && !S_ISREG(st.st_mode)))
    return writeInPlace(command, path, write);
  return replaceFile(command, path, write, exists ? &st : nullptr);
}

int writeOutput(const std::string &command, const std::string &path,
                const std::string &text) {
  return writeOutput(command, path, [&text](int fd) { return writeAll(fd, text); });
}

std::string displayName(const std::string &path) {
  return path == "-" ? "<stdin>" : path;
}

} // namespace pathcov
