#!/usr/bin/env python3
"""Residual mode's corpus and its cache under attack: a residual build must
compile exactly what the JSON corpus says, whatever else is beside it.

- links planted where the cache or its temporary file goes are never
  followed (the files they point to stay as they were);
- a cache someone else could have written (another owner, writable by
  others, in a directory others can write) is ignored, and none is written
  into such a directory;
- a damaged cache (one byte flipped) is ignored;
- the cache is written, and then used, where the compiler's clock is
  behind the one that dates files, and where the file system cannot lock;
- a FIFO as the corpus is a clear error, as the cache it is ignored: neither
  hangs the compiler; a number beyond a double in the corpus is a clear
  error naming the file and the place.

usage: check_corpus_cache.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import json
import os
import shutil
import stat
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import (FAILURES, check, finish, fresh_directory,  # noqa: E402
                     recorded_corpus)

SOURCE = os.path.join(HERE, "two_diamonds.c")


def residual(corpus, output, extra=(), env=None):
    """Compiles two_diamonds.c against `corpus`: the result, or None if the
    compiler hung (the test's failure, not its own)."""
    try:
        return subprocess.run(
            ["gcc", "-O2", f"-fplugin={PLUGIN}",
             "-fplugin-arg-pathcov-mode=residual",
             f"-fplugin-arg-pathcov-corpus={corpus}", *extra, "-c", SOURCE, "-o", output],
            capture_output=True, text=True, timeout=60, env=env)
    except subprocess.TimeoutExpired:
        return None


def why_unindexed(corpus, output):
    """What another compilation against `corpus` says of its index
    (statistics, corpus_unindexed), or None."""
    stats = output + ".stats"
    if os.path.exists(stats):
        os.remove(stats)
    residual(corpus, output, [f"-fplugin-arg-pathcov-stats={stats}"])
    if not os.path.exists(stats):
        return None
    return json.loads(open(stats).readline()).get("corpus_unindexed")


def fnv1a(data):
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def forged_cache(corpus, magic):
    """What an attacker who can read the corpus writes: an index of it in
    the plugin's own format (`magic` from one it wrote: pcovidx7), keyed by
    the corpus's stamp (stat), with every path of every function tested:
    nothing would be reported."""
    doc = json.load(open(corpus))
    st = os.stat(corpus)

    def word(v):
        return struct.pack("<Q", v)

    def text(s):
        return word(len(s)) + s.encode()
    buckets = 1
    while buckets < len(doc["functions"]) // 2:
        buckets *= 2
    records = [b""] * buckets
    for f in sorted(doc["functions"], key=lambda f: f["identity"]):
        b = fnv1a(f["identity"].encode()) & (buckets - 1)
        records[b] += text(f["identity"]) + word(1) + text(f["checksum"])
        records[b] += text(f.get("optimization", "")) + word(f["num_paths"])
        records[b] += b"".join(word(i) + word(1) for i in range(f["num_paths"]))
    size = 72 + 24 * buckets + sum(len(r) for r in records)
    head = magic + b"".join(word(v) for v in (
        st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns,
        buckets, size))
    out = head + word(fnv1a(head))
    offset = 72 + 24 * buckets
    for r in records:
        out += word(offset) + word(len(r)) + word(fnv1a(word(offset) + word(len(r)) + r))
        offset += len(r)
    return out + b"".join(records)


def write_forged(cache, forged, corpus):
    """`forged` as `cache`, dated as the plugin's own index would be: a
    clock tick after the corpus last changed."""
    with open(cache, "wb") as f:
        f.write(forged)
    later = os.stat(corpus).st_ctime_ns + 3 * 10**9
    os.utime(cache, ns=(later, later))


def setup_directory(path, mode, corpus):
    os.makedirs(path)
    os.chmod(path, mode)
    shutil.copy(corpus, os.path.join(path, "corpus.json"))
    return os.path.join(path, "corpus.json")


def same_object(what, result, output, reference):
    if result is None:
        check(False, f"{what}: does not hang the compiler")
        return
    check(result.returncode == 0, f"{what}: builds", result.stderr)
    check(os.path.exists(output) and
          open(output, "rb").read() == open(reference, "rb").read(),
          f"{what}: what the JSON says")


def main():
    global PLUGIN
    PLUGIN, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)

    # The corpus: two_diamonds ran 2 of its 4 paths.
    corpus = recorded_corpus(PLUGIN, runtime, pathcov, [SOURCE], work,
                             os.path.join(work, "corpus.json"))

    # What the JSON says, and the cache the plugin leaves.
    home = setup_directory(os.path.join(work, "home"), 0o755, corpus)
    cache = home + ".pathcov-cache"
    reference = os.path.join(work, "reference.o")
    r = residual(home, reference)
    check(r is not None and r.returncode == 0, "reference build",
          r.stderr if r else "hung")
    # When it was not, a second compilation's statistics say why.
    check(os.path.isfile(cache), "cache: written", "" if os.path.isfile(cache)
          else residual(home, output, ["-fplugin-arg-pathcov-stats"]).stderr)
    check(os.path.isfile(cache) and
          stat.S_IMODE(os.stat(cache).st_mode) == 0o600,
          "cache: mode 0600", oct(os.stat(cache).st_mode) if os.path.exists(cache) else "")
    check(sorted(os.listdir(os.path.dirname(home))) ==
          ["corpus.json", "corpus.json.pathcov-cache",
           "corpus.json.pathcov-cache.lock"] and
          stat.S_IMODE(os.stat(cache + ".lock").st_mode) == 0o600,
          "cache: no temporary file left (the lock stays, mode 0600)",
          str(os.listdir(os.path.dirname(home))))
    good = open(cache, "rb").read()
    output = os.path.join(work, "out.o")
    same_object("cache: used", residual(home, output), output, reference)

    # File systems as CI machines have them (fs_quirks.c preloaded into the
    # compiler): the cache is still written, once, and then used.
    quirks = os.path.join(work, "fs_quirks.so")
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", quirks,
                    os.path.join(HERE, "fs_quirks.c"), "-ldl"], check=True)
    for what, quirk in (("clock 5 s behind the file system's",
                         "PATHCOV_QUIRK_CLOCK_BEHIND"),
                        ("file system without locks", "PATHCOV_QUIRK_NO_LOCKS")):
        env = dict(os.environ, LD_PRELOAD=quirks, **{quirk: "5"})
        there = setup_directory(os.path.join(work, quirk), 0o755, corpus)
        stats = there + ".stats"
        for turn in ("indexed", "index"):
            same_object(f"{what}: {turn}",
                        residual(there, output,
                                 [f"-fplugin-arg-pathcov-stats={stats}"], env),
                        output, reference)
        lines = [json.loads(line) for line in open(stats)] \
            if os.path.exists(stats) else []
        check([line["corpus"] for line in lines] == ["indexed", "index"],
              f"{what}: the cache written, then used", str(lines))

    # Links where the cache and its temporary go (the temporary's old name
    # was the compiler's pid: a -wrapper learns it, as an attacker
    # guessing pids would).
    victims = [os.path.join(work, name) for name in ("victim1", "victim2")]
    for victim in victims:
        with open(victim, "w") as f:
            f.write("secret\n")
        os.chmod(victim, 0o600)
    linked = setup_directory(os.path.join(work, "linked"), 0o755, corpus)
    os.symlink(victims[0], linked + ".pathcov-cache")
    wrapper = os.path.join(work, "plant-links.sh")
    with open(wrapper, "w") as f:
        f.write(f'#!/bin/sh\nln -s {victims[1]} {linked}.pathcov-cache.$$.tmp\n'
                'exec "$@"\n')
    os.chmod(wrapper, 0o755)
    same_object("links", residual(linked, output, ["-wrapper", wrapper]),
                output, reference)
    for victim in victims:
        check(open(victim, "rb").read() == b"secret\n" and
              stat.S_IMODE(os.stat(victim).st_mode) == 0o600,
              f"links: {os.path.basename(victim)} untouched")

    # Forged caches: right key, right format, all paths "tested".
    forged = forged_cache(home, good[:8])
    if os.geteuid() == 0:
        write_forged(cache, forged, home)
        os.chown(cache, 65534, 65534)
        same_object("cache owned by another user", residual(home, output),
                    output, reference)
    os.remove(cache)
    write_forged(cache, forged, home)
    # The control: trusted, the forgery is read (every path tested), so the
    # refusals below are the checks' doing, not a malformed file's.
    os.chmod(cache, 0o600)
    result = residual(home, output)
    check(result is not None and result.returncode == 0 and
          open(output, "rb").read() != open(reference, "rb").read(),
          "a trusted forged cache is read",
          result.stderr if result else "hung")
    os.chmod(cache, 0o666)
    same_object("cache writable by others", residual(home, output), output,
                reference)
    shared = setup_directory(os.path.join(work, "shared"), 0o777, corpus)
    same_object("directory writable by others", residual(shared, output),
                output, reference)
    reason = why_unindexed(shared, output)
    check(reason == "its directory could be written by others",
          "directory writable by others: the statistics say so", str(reason))
    check(not os.path.exists(shared + ".pathcov-cache"),
          "directory writable by others: no cache written")
    write_forged(shared + ".pathcov-cache", forged_cache(shared, good[:8]), shared)
    os.chmod(shared + ".pathcov-cache", 0o600)
    same_object("directory writable by others: its cache ignored",
                residual(shared, output), output, reference)
    sticky = setup_directory(os.path.join(work, "sticky"), 0o1777, corpus)
    same_object("sticky directory", residual(sticky, output), output, reference)
    check(os.path.exists(sticky + ".pathcov-cache"),
          "sticky directory: cache written")
    # The indexing lock squatted: by a link to a victim, and (as root) by
    # another user's file that user could hold forever. Nobody waits or
    # follows the link; the build is what the JSON says.
    os.remove(sticky + ".pathcov-cache")
    os.remove(sticky + ".pathcov-cache.lock")
    os.symlink(victims[0], sticky + ".pathcov-cache.lock")
    same_object("lock a link", residual(sticky, output), output, reference)
    reason = why_unindexed(sticky, output)
    check(reason == "its indexing lock is not a file of the user's own",
          "lock a link: the statistics say so", str(reason))
    check(not os.path.exists(sticky + ".pathcov-cache"),
          "lock a link: no index written without the lock")
    check(open(victims[0], "rb").read() == b"secret\n" and
          stat.S_IMODE(os.stat(victims[0]).st_mode) == 0o600,
          "lock a link: victim untouched")
    if os.geteuid() == 0:
        os.remove(sticky + ".pathcov-cache.lock")
        with open(sticky + ".pathcov-cache.lock", "w"):
            pass
        os.chmod(sticky + ".pathcov-cache.lock", 0o666)
        os.chown(sticky + ".pathcov-cache.lock", 65534, 65534)
        holder = subprocess.Popen(
            [sys.executable, "-c", "import fcntl, os, sys, time; "
             "os.setgid(65534); os.setuid(65534); "
             "f = open(sys.argv[1], 'r+'); fcntl.flock(f, fcntl.LOCK_EX); "
             "print('held', flush=True); time.sleep(120)",
             sticky + ".pathcov-cache.lock"], stdout=subprocess.PIPE, text=True)
        held = holder.stdout.readline().strip() == "held"
        same_object("lock another user's and held", residual(sticky, output),
                    output, reference)
        check(held, "lock another user's and held: it was held")
        holder.kill()
        holder.wait()

    # Damage: one byte flipped, every 7th in turn (core/tests flip them
    # all): 7 is prime to the 8 of a word, so every byte of some word.
    for at in range(0, len(good), 7):
        damaged = bytearray(good)
        damaged[at] ^= 0x01
        os.remove(cache)
        with open(cache, "wb") as f:
            f.write(damaged)
        os.chmod(cache, 0o600)
        before = len(FAILURES)
        same_object(f"cache byte {at} flipped", residual(home, output), output,
                    reference)
        if len(FAILURES) > before:
            break

    # FIFOs: the corpus is refused, the cache ignored; neither hangs.
    os.remove(cache)
    os.mkfifo(cache)
    same_object("cache a FIFO", residual(home, output), output, reference)
    fifo = os.path.join(work, "fifo.json")
    os.mkfifo(fifo)
    r = residual(fifo, output)
    check(r is not None, "corpus a FIFO: does not hang")
    check(r is not None and r.returncode != 0 and
          f"pathcov: corpus {fifo}: not a regular file" in r.stderr and
          "internal compiler error" not in r.stderr,
          "corpus a FIFO: a clear error", r.stderr if r else "")

    # A number beyond a double.
    overflow = os.path.join(work, "overflow.json")
    with open(overflow, "w") as f:
        f.write('{"format": "pathcov-corpus", "format_version": "2.0",\n'
                ' "functions": [{"identity": "f", "checksum": "c",\n'
                '   "paths": [{"id": 1e400}]}]}\n')
    r = residual(overflow, output)
    check(r is not None and r.returncode != 0 and
          f"pathcov: corpus {overflow}: parse error at line 3, column 25: "
          "number overflow parsing '1e400'" in r.stderr and
          "internal compiler error" not in r.stderr,
          "1e400: a clear error with its place", r.stderr if r else "")

    return finish(FAILURES, "ok: the corpus cache is trusted only when it "
                  "can be")


if __name__ == "__main__":
    sys.exit(main())
