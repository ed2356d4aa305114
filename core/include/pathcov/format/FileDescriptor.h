// POSIX file descriptors for the readers and writers of pathcov's files
// (the tools' FileIo, the plugin's corpus cache): descriptors, not streams,
// because they are opened with flags streams cannot give (O_NOFOLLOW,
// O_NONBLOCK, O_EXCL, openat) and checked with fstat.
#pragma once

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

private:
  int fd_;
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

} // namespace pathcov
