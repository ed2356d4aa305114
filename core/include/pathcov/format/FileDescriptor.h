// POSIX file descriptors for the readers and writers of pathcov's files
// (the tools' FileIo, the plugin's corpus cache): descriptors, not streams,
// because they are opened with flags streams cannot give (O_NOFOLLOW,
// O_NONBLOCK, O_EXCL, openat) and checked with fstat.
#pragma once

#include <string_view>

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

} // namespace pathcov
