#include "pathcov/format/FileDescriptor.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pathcov {

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0)
    close(fd_);
}

MappedFile::MappedFile(int fd, size_t size) {
  if (size == 0)
    return;
  void *at = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (at != MAP_FAILED)
    bytes_ = std::string_view(static_cast<const char *>(at), size);
}

MappedFile &MappedFile::operator=(MappedFile &&other) noexcept {
  if (this != &other) {
    this->~MappedFile();
    bytes_ = other.bytes_;
    other.bytes_ = {};
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (bytes_.data())
    munmap(const_cast<char *>(bytes_.data()), bytes_.size());
}

bool writeAll(int fd, std::string_view bytes) {
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno != EINTR)
      return false;
    if (n > 0)
      done += static_cast<size_t>(n);
  }
  return true;
}

namespace {

// ".NAME.pathcov-" and 16 hex digits from getrandom.
bool temporaryName(const std::string &name, std::string &temporary) {
  uint64_t bits;
  if (getrandom(&bits, sizeof bits, 0) != sizeof bits)
    return false;
  static const char digits[] = "0123456789abcdef";
  temporary = "." + name + ".pathcov-";
  for (int shift = 60; shift >= 0; shift -= 4)
    temporary += digits[(bits >> shift) & 15];
  return true;
}

} // namespace

int replaceFileAt(int dir, const std::string &name, std::string_view bytes,
                  const NewFile &how) {
  return replaceFileAt(
      dir, name, [bytes](int fd) { return writeAll(fd, bytes); }, how);
}

int replaceFileAt(int dir, const std::string &name,
                  const std::function<bool(int fd)> &write, const NewFile &how) {
  std::string temporary;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 4; ++attempt) {
    if (!temporaryName(name, temporary))
      return errno;
    fd = openat(dir, temporary.c_str(),
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, how.mode);
    if (fd < 0 && errno != EEXIST)
      return errno;
  }
  if (fd < 0)
    return EEXIST;
  bool done = (!how.exactMode || fchmod(fd, how.mode) == 0) &&
              write(fd) && (!how.durable || fsync(fd) == 0);
  int error = done ? 0 : errno;
  if (close(fd) != 0 && done) // some file systems report errors only here
    error = errno, done = false;
  if (!done || renameat(dir, temporary.c_str(), dir, name.c_str()) != 0) {
    error = error ? error : errno ? errno : EIO; // a writer that set no errno
    unlinkat(dir, temporary.c_str(), 0);
    return error;
  }
  // Makes the rename durable. The new file is in place already, so a file
  // system that cannot sync a directory is no reason to fail.
  if (how.durable)
    fsync(dir);
  return 0;
}

} // namespace pathcov
