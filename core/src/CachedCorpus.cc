#include "pathcov/format/CachedCorpus.h"

#include "pathcov/format/InputError.h"

#include "TestedPathScan.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <system_error>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pathcov {

namespace {

// How long after a file's change time (a clock tick) a later change may
// still get the same time. Linux stamps files with a clock that advances a
// jiffy at a time (10 ms at worst); a change time of a whole second is taken
// to come from a file system of coarse timestamps (FAT's: 2 s).
uint64_t clockTickNs(uint64_t changedNs) {
  return changedNs % 1'000'000'000 == 0 ? 2'000'000'000 : 50'000'000;
}
uint64_t nanoseconds(const timespec &t) {
  return static_cast<uint64_t>(t.tv_sec) * 1'000'000'000 +
         static_cast<uint64_t>(t.tv_nsec);
}

CorpusStamp stampOf(const struct stat &st) {
  return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino),
          static_cast<uint64_t>(st.st_size), nanoseconds(st.st_mtim),
          nanoseconds(st.st_ctim)};
}

// Whether the file `fd` is dated `from` or later by its own file system's
// clock, the one the corpus's change time came from (ours may disagree: a
// file server's runs on its own, and a local change may be dated finer
// than our coarse clock). Waits for that clock when it is at most `tick`
// short, re-dating the file; false with errno set if it stays short.
bool datedFrom(int fd, uint64_t from, uint64_t tick) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    struct stat st;
    if (fstat(fd, &st) != 0)
      return false;
    const uint64_t dated = nanoseconds(st.st_mtim);
    if (dated >= from)
      return true;
    if (from - dated > tick)
      break;
    const uint64_t wait = from - dated + 1'000'000;
    const timespec pause{static_cast<time_t>(wait / 1'000'000'000),
                         static_cast<long>(wait % 1'000'000'000)};
    nanosleep(&pause, nullptr);
    if (futimens(fd, nullptr) != 0)
      return false;
  }
  errno = ETIME;
  return false;
}

// All of `fd`, read straight into `bytes` (`size` expected: a corpus is
// large, and growing a string as it comes copies it over and over); false
// with errno set on a read error.
bool readAll(int fd, size_t size, std::string &bytes) {
  bytes.resize(size + 1); // one more: the end is seen without a resize
  size_t done = 0;
  for (;;) {
    if (done == bytes.size())
      bytes.resize(2 * bytes.size());
    const ssize_t got = read(fd, &bytes[done], bytes.size() - done);
    if (got == 0) {
      bytes.resize(done);
      return true;
    }
    if (got < 0 && errno != EINTR)
      return false;
    if (got > 0)
      done += static_cast<size_t>(got);
  }
}

// The corpus in `fd` (`size` bytes expected): streamed by the fast reader,
// which holds one function at a time, or, when it is not of the plain
// shape, read again whole for the reference reader, which words its
// problem (InputError). Throws std::system_error when a read fails.
TestedPathIndex readCorpusFile(int fd, size_t size) {
  const ReadSome readSome = [fd](char *into, size_t room) {
    return read(fd, into, room);
  };
  if (std::optional<TestedPathIndex> plain = scanTestedPaths(readSome))
    return std::move(*plain);
  std::string bytes;
  if (lseek(fd, 0, SEEK_SET) != 0 || !readAll(fd, size, bytes))
    throw std::system_error(errno, std::generic_category());
  return readTestedPathsReference(bytes);
}

// Only we (or root) can add, replace or remove its entries: it is ours or
// root's, and nobody else may write it, or it is sticky (then only an
// entry's owner may replace or remove it).
bool isTrustedDirectory(const struct stat &dir) {
  return S_ISDIR(dir.st_mode) && (dir.st_uid == geteuid() || dir.st_uid == 0) &&
         ((dir.st_mode & (S_IWGRP | S_IWOTH)) == 0 || (dir.st_mode & S_ISVTX) != 0);
}

// The index `name` in `dir`, mapped into `mapped`, if we wrote it (a
// regular file, not a link, ours and writable by nobody else) from the
// corpus as `stamp` describes it, late enough. Checked on the open
// descriptor, so what is checked is what is mapped.
std::optional<TestedPathCache> mapTrustedIndex(int dir, const std::string &name,
                                               const CorpusStamp &stamp,
                                               MappedFile &mapped) {
  const FileDescriptor in(
      openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st;
  if (!in.ok() || fstat(in.get(), &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0 ||
      nanoseconds(st.st_mtim) < stamp.changedNs + clockTickNs(stamp.changedNs))
    return std::nullopt;
  mapped = MappedFile(in.get(), static_cast<size_t>(st.st_size));
  return TestedPathCache::open(mapped.bytes(), stamp);
}

// The lock that serializes indexing, `name` in `dir`: a file only we can
// open (created 0600, never through a link, and used only if it is ours
// and nobody else may write it), so that only our own compilations can
// hold it and waiting for it is safe. Returned open and locked (merely
// open where the file system cannot lock: then compilations index side by
// side, each renaming a whole index into place), or -1 when it is not ours
// (someone else's file squats the name in a sticky directory: then nobody
// waits or indexes).
int lockIndexing(int dir, const std::string &name) {
  FileDescriptor lock(openat(dir, name.c_str(),
                             O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
                             0600));
  struct stat st;
  if (!lock.ok() || fstat(lock.get(), &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    return -1;
  while (flock(lock.get(), LOCK_EX) != 0 && errno == EINTR) {
  }
  const int fd = lock.get();
  lock.release();
  return fd;
}

const std::vector<TestedPaths> kNoVersions;

} // namespace

const char *corpusSourceName(CorpusLookup::Source source) {
  switch (source) {
  case CorpusLookup::Source::Index:
    return "index";
  case CorpusLookup::Source::IndexedNow:
    return "indexed";
  case CorpusLookup::Source::Json:
    return "json";
  }
  return "json";
}

std::string CorpusLookup::open(const std::string &file) {
  file_ = file;
  const size_t slash = file.rfind('/');
  directory_ = slash == std::string::npos ? "." : slash == 0 ? "/" : file.substr(0, slash);
  indexName_ = (slash == std::string::npos ? file : file.substr(slash + 1)) +
               ".pathcov-cache";
  return load(true);
}

// The index when `tryIndex` and it can be trusted, else the JSON (a FIFO
// or device is refused without waiting for a writer), indexed for the
// next compilations when that is safe.
std::string CorpusLookup::load(bool tryIndex) {
  const FileDescriptor corpus(::open(file_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (!corpus.ok())
    return file_ + ": cannot open: " + std::strerror(errno);
  struct stat st;
  if (fstat(corpus.get(), &st) != 0)
    return file_ + ": cannot read: " + std::strerror(errno);
  if (!S_ISREG(st.st_mode))
    return file_ + ": not a regular file";
  const CorpusStamp stamp = stampOf(st);
  const FileDescriptor dir(::open(directory_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  struct stat dirStat;
  const bool trusted =
      dir.ok() && fstat(dir.get(), &dirStat) == 0 && isTrustedDirectory(dirStat);
  unindexed_ = trusted ? "" : "its directory could be written by others";
  if (trusted && tryIndex &&
      (index_ = mapTrustedIndex(dir.get(), indexName_, stamp, mapped_))) {
    source_ = Source::Index;
    return "";
  }
  // Released when closed.
  const FileDescriptor lock(trusted ? lockIndexing(dir.get(), indexName_ + ".lock") : -1);
  const bool mayIndex = lock.ok();
  if (trusted && !mayIndex)
    unindexed_ = "its indexing lock is not a file of the user's own";
  if (mayIndex && tryIndex &&
      (index_ = mapTrustedIndex(dir.get(), indexName_, stamp, mapped_))) {
    source_ = Source::Index; // another compilation indexed it meanwhile
    return "";
  }
  index_.reset();
  mapped_ = MappedFile();
  TestedPathIndex all;
  try {
    all = readCorpusFile(corpus.get(), static_cast<size_t>(st.st_size));
  } catch (const InputError &e) {
    return file_ + ": " + e.what();
  } catch (const std::system_error &e) {
    return file_ + ": cannot read: " + std::strerror(e.code().value());
  }
  source_ = Source::Json;
  struct stat after;
  const bool indexing =
      mayIndex && fstat(corpus.get(), &after) == 0 && stampOf(after) == stamp;
  if (mayIndex && !indexing)
    unindexed_ = "it changed while being read";
  const std::string encoded = indexing ? encodeTestedPathCache(all, stamp) : "";
  // What the index gave stays: the same paths, and callers hold them.
  found_.merge(all);
  if (!indexing)
    return "";
  // An index made within a clock tick of the corpus's last change is never
  // trusted (CachedCorpus.h): it is dated after the tick or not written.
  // Best effort: an index that cannot be written is not needed. 0600:
  // nobody else would trust it anyway.
  const uint64_t tick = clockTickNs(stamp.changedNs);
  const auto writeIndex = [&](int fd) {
    return writeAll(fd, encoded) && datedFrom(fd, stamp.changedNs + tick, tick);
  };
  const int error = replaceFileAt(dir.get(), indexName_, writeIndex, {0600, false, false});
  if (error == 0)
    source_ = Source::IndexedNow;
  else
    unindexed_ = error == ETIME ? "the file system's clock stayed short of a tick after its change"
                                : std::string("cannot write its index: ") + std::strerror(error);
  return "";
}

const std::vector<TestedPaths> &CorpusLookup::find(const std::string &identity,
                                                   std::string &problem) {
  const auto known = found_.find(identity);
  if (known != found_.end())
    return known->second;
  if (!index_)
    return kNoVersions; // found_ holds the whole corpus
  if (std::optional<std::vector<TestedPaths>> versions = index_->find(identity))
    return found_.emplace(identity, std::move(*versions)).first->second;
  // A damaged index: nothing more of it is used.
  problem = load(false);
  if (!problem.empty())
    return kNoVersions;
  return find(identity, problem);
}

} // namespace pathcov
