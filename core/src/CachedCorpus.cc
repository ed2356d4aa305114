#include "pathcov/format/CachedCorpus.h"

#include "pathcov/format/FileDescriptor.h"
#include "pathcov/format/InputError.h"
#include "pathcov/format/TestedPathCache.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pathcov {

namespace {

// All of `fd`; false with errno set on a read error.
bool readAll(int fd, std::string &bytes) {
  bytes.clear();
  char chunk[65536];
  for (;;) {
    const ssize_t got = read(fd, chunk, sizeof chunk);
    if (got == 0)
      return true;
    if (got < 0 && errno != EINTR)
      return false;
    if (got > 0)
      bytes.append(chunk, static_cast<size_t>(got));
  }
}

// Only we (or root) can add, replace or remove its entries: it is ours or
// root's, and nobody else may write it, or it is sticky (then only an
// entry's owner may replace or remove it).
bool isTrustedDirectory(const struct stat &dir) {
  return S_ISDIR(dir.st_mode) && (dir.st_uid == geteuid() || dir.st_uid == 0) &&
         ((dir.st_mode & (S_IWGRP | S_IWOTH)) == 0 || (dir.st_mode & S_ISVTX) != 0);
}

// The cache `name` in `dir`, if we wrote it: a regular file, not a link,
// ours and writable by nobody else. Checked on the open descriptor, so
// what is checked is what is read.
bool readTrustedCache(int dir, const std::string &name, std::string &bytes) {
  const FileDescriptor in(openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st;
  return in.ok() && fstat(in.get(), &st) == 0 && S_ISREG(st.st_mode) &&
         st.st_uid == geteuid() && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0 &&
         readAll(in.get(), bytes);
}

// The corpus's bytes, or the problem. A FIFO or device is refused without
// waiting for a writer (O_NONBLOCK), and nothing but a regular file is read.
std::string readCorpusFile(const std::string &file, std::string &bytes) {
  const FileDescriptor in(open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (!in.ok())
    return file + ": cannot open: " + std::strerror(errno);
  struct stat st;
  if (fstat(in.get(), &st) != 0)
    return file + ": cannot read: " + std::strerror(errno);
  if (!S_ISREG(st.st_mode))
    return file + ": not a regular file";
  if (!readAll(in.get(), bytes))
    return file + ": cannot read: " + std::strerror(errno);
  return "";
}

} // namespace

std::string loadTestedPaths(const std::string &file, TestedPathIndex &index) {
  std::string bytes;
  const std::string problem = readCorpusFile(file, bytes);
  if (!problem.empty())
    return problem;
  const uint64_t hash = fnv1a64(bytes);
  const size_t slash = file.rfind('/');
  const std::string directory =
      slash == std::string::npos ? "." : slash == 0 ? "/" : file.substr(0, slash);
  const std::string cache =
      (slash == std::string::npos ? file : file.substr(slash + 1)) + ".pathcov-cache";
  const FileDescriptor dir(open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  struct stat st;
  const bool trusted = dir.ok() && fstat(dir.get(), &st) == 0 && isTrustedDirectory(st);
  std::string cached;
  if (trusted && readTrustedCache(dir.get(), cache, cached))
    if (std::optional<TestedPathIndex> decoded = decodeTestedPathCache(cached, hash)) {
      index = std::move(*decoded);
      return "";
    }
  try {
    index = readTestedPaths(bytes);
  } catch (const InputError &e) {
    return file + ": " + e.what();
  }
  if (trusted)
    // Best effort: a cache that cannot be written is not needed. 0600:
    // nobody else would trust it anyway.
    replaceFileAt(dir.get(), cache, encodeTestedPathCache(index, hash),
                  {0600, false, false});
  return "";
}

} // namespace pathcov
