// POSIX file descriptors for the readers and writers of pathcov's files
// (the tools' FileIo, the plugin's corpus cache): descriptors, not streams,
// because they are opened with flags streams cannot give (O_NOFOLLOW,
// O_NONBLOCK, O_EXCL, openat) and checked with fstat.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <sys/types.h>

namespace pathcov {

// A file descriptor, closed when it goes.
class FileDescriptor {
public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(FileDescriptor &&other) noexcept : fd_(other.fd_) {
    other.fd_ = -1;
  }
  FileDescriptor(const FileDescriptor &) = delete;
  FileDescriptor &operator=(const FileDescriptor &) = delete;
  ~FileDescriptor();
  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }
  // Gives the descriptor up: it is no longer closed here.
  void release() { fd_ = -1; }

private:
  int fd_;
};

// The first `size` bytes of the open file `fd`, mapped read-only (a
// private mapping: nothing is copied until a page is touched); unmapped
// when it goes. Empty when `size` is 0 or the mapping fails.
class MappedFile {
public:
  MappedFile() = default;
  MappedFile(int fd, size_t size);
  MappedFile(MappedFile &&other) noexcept : bytes_(other.bytes_) {
    other.bytes_ = {};
  }
  MappedFile &operator=(MappedFile &&other) noexcept;
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;
  ~MappedFile();
  std::string_view bytes() const { return bytes_; }
  bool mapped() const { return bytes_.data() != nullptr; }

private:
  std::string_view bytes_;
};

// Writes all of `bytes` to `fd`, resuming after EINTR; false with errno set.
bool writeAll(int fd, std::string_view bytes);

// How replaceFileAt creates the new file.
struct NewFile {
  mode_t mode;    // as open(2) takes it: the umask applies...
  bool exactMode; // ...unless this is set: then exactly `mode`
  bool durable;   // fsync the file, and the directory after the rename
};

// Replaces `name` in the directory `dir` (a descriptor) with `bytes`: a
// temporary file beside it, renamed over it once complete, so that readers
// see the old file or the whole new one, whatever happens (a full disk, a
// kill, a concurrent writer with its own temporary). The temporary's name
// (".NAME.pathcov-" and 16 random hex digits) cannot be guessed, and it is
// created with O_EXCL | O_NOFOLLOW: never through a file or link someone
// put there. Returns 0, or an errno value (the temporary removed).
int replaceFileAt(int dir, const std::string &name, std::string_view bytes,
                  const NewFile &how);
// The same with the bytes that `write` writes to the file's descriptor
// (false, errno set, when it could not).
int replaceFileAt(int dir, const std::string &name,
                  const std::function<bool(int fd)> &write, const NewFile &how);

} // namespace pathcov
