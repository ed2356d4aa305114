#include "pathcov/format/FileDescriptor.h"

#include <cerrno>
#include <unistd.h>

namespace pathcov {

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0)
    close(fd_);
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

} // namespace pathcov
