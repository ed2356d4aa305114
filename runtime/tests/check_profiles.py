#!/usr/bin/env python3
"""Runs the runtime's test programs (which play instrumented code, see
fake_plugin.h) and checks the profiles they write against exact counts.

Usage: check_profiles.py --prog P ... SCENARIO; exits non-zero on failure."""
import argparse
import collections
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile

CHECKSUM = "0123456789abcdef"  # fake_plugin.h
PROFILE_KEYS = {"format", "format_version", "module", "build_id", "pid",
                "test", "reason", "functions"}
FUNCTION_KEYS = {"identity", "checksum", "num_paths", "calls", "paths",
                 "invalid_ids", "dropped"}


class Failure(Exception):
    pass


class Skip(Exception):
    """The scenario cannot run here (e.g. it needs root): exit status 77,
    CTest's SKIP_RETURN_CODE."""


def short(value):
    text = repr(value)
    return text if len(text) <= 2000 else text[:2000] + "..."


def difference(actual, expected):
    """Where two values differ, for messages that stay readable when the
    values are long lists (up to 65536 paths)."""
    if isinstance(actual, dict) and isinstance(expected, dict):
        for key in sorted(set(actual) | set(expected), key=str):
            if actual.get(key) != expected.get(key):
                return f"[{key!r}]" + difference(actual.get(key),
                                                 expected.get(key))
    if isinstance(actual, list) and isinstance(expected, list):
        for i, (x, y) in enumerate(zip(actual, expected)):
            if x != y:
                return f"[{i}]" + difference(x, y)
        if len(actual) != len(expected):
            first_extra = (actual + expected)[min(len(actual), len(expected))]
            return (f": length {len(actual)} instead of {len(expected)}; "
                    f"first extra {short(first_extra)}")
    return f":\n  expected {short(expected)}\n  got      {short(actual)}"


def expect(actual, expected, what):
    if actual != expected:
        raise Failure(what + difference(actual, expected))


def function(identity, num_paths, calls, paths, invalid_ids=0, dropped=0):
    return {"identity": identity, "checksum": CHECKSUM, "num_paths": num_paths,
            "calls": calls, "paths": [list(p) for p in paths],
            "invalid_ids": invalid_ids, "dropped": dropped}


def elf_build_id(path):
    """The NT_GNU_BUILD_ID note of an ELF64 little-endian file, from its
    PT_NOTE program headers (what the runtime reads in memory)."""
    with open(path, "rb") as f:
        data = f.read()
    expect(data[:6], b"\x7fELF\x02\x01", f"{path}: ELF64 LSB header")
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for i in range(phnum):
        p_type, _, offset, _, _, filesz, _, align = struct.unpack_from(
            "<IIQQQQQQ", data, phoff + i * phentsize)
        if p_type != 4:  # PT_NOTE
            continue
        align = 8 if align == 8 else 4
        pos, end = offset, offset + filesz
        while pos + 12 <= end:
            namesz, descsz, n_type = struct.unpack_from("<III", data, pos)
            desc = pos + (12 + namesz + align - 1) // align * align
            if n_type == 3 and data[pos + 12:pos + 12 + namesz] == b"GNU\0":
                return data[desc:desc + descsz].hex()
            pos = desc + (descsz + align - 1) // align * align
    return None


def check_header(doc, kind, module, pid, reason, what):
    """The fields that every profile and report starts with."""
    expect(doc["format"], f"pathcov-{kind}", f"{what}: format")
    # Reports gained calling contexts in 2.1, history in 2.2, the test in
    # 2.3; profiles a crash's signal in 2.1.
    expect(doc["format_version"], {"profile": "2.1", "report": "2.4"}[kind],
           f"{what}: format_version")
    expect(doc["module"], os.path.realpath(module), f"{what}: module")
    expect(doc["build_id"], build_id(module), f"{what}: build_id")
    expect(doc["pid"], pid, f"{what}: pid")
    expect(doc["reason"], reason, f"{what}: reason")


def build_id(path):
    """The build-id by two readers that must agree: our ELF parser and
    readelf -n."""
    ours = elf_build_id(path)
    if ours is None:
        raise Failure(f"{path} has no build-id (linker without --build-id?)")
    readelf = shutil.which("readelf")
    if readelf:
        out = subprocess.run([readelf, "-n", path], capture_output=True,
                             text=True, check=True).stdout
        expect(re.findall(r"Build ID: ([0-9a-f]+)", out), [ours],
               f"readelf -n {path}")
    return ours


def start(cmd, profile_dir, cwd=None, test=None, env_dir=True, signals=None):
    env = dict(os.environ)
    env.pop("PATHCOV_TEST", None)
    env.pop("PATHCOV_PROFILE_DIR", None)
    env.pop("PATHCOV_SIGNALS", None)
    if signals is not None:
        env["PATHCOV_SIGNALS"] = signals
    if env_dir:
        env["PATHCOV_PROFILE_DIR"] = profile_dir
    if test is not None:
        env["PATHCOV_TEST"] = test
    return subprocess.Popen(cmd, env=env, cwd=cwd or profile_dir,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def run(cmd, profile_dir, stdout="", stderr="", **kwargs):
    """Runs cmd to completion, checks exit status 0 and its output, returns
    its pid."""
    proc = start(cmd, profile_dir, **kwargs)
    out, err = proc.communicate()
    expect(proc.returncode, 0, f"exit status of {cmd}")
    expect(err.decode(errors="replace"), stderr, f"stderr of {cmd}")
    expect(out.decode(errors="replace"), stdout, f"stdout of {cmd}")
    return proc.pid


def files(directory):
    return sorted(os.listdir(directory))


def load(directory, name):
    with open(os.path.join(directory, name), "rb") as f:
        raw = f.read()
    try:
        return json.loads(raw.decode("utf-8"))  # strict UTF-8 and JSON
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise Failure(f"{name} is not valid UTF-8 JSON: {e}\n{raw[:2000]!r}")


def check_profile(profile, module, pid, reason, functions, test=None,
                  extra=None):
    what = f"profile of pid {pid} ({reason})"
    expect(set(profile), PROFILE_KEYS | set(extra or {}), f"{what}: keys")
    check_header(profile, "profile", module, pid, reason, what)
    expect(profile["test"], test, f"{what}: test")
    for key, value in (extra or {}).items():
        expect(profile[key], value, f"{what}: {key}")
    for f in profile["functions"]:
        expect(set(f), FUNCTION_KEYS, f"{what}: keys of {f.get('identity')!r}")
    got = sorted(profile["functions"], key=lambda f: f["identity"])
    expect(got, sorted(functions, key=lambda f: f["identity"]),
           f"{what}: functions")


def profile_name(module, pid, sequence):
    return f"pathcov-{os.path.basename(module)}-{pid}-{sequence}.json"


# ---------------------------------------------------------------- scenarios


def scenario_counts(a, tmp):
    test = 'suite/"quoted"\n\ttab\\back'
    pid = run([a.prog, "counts"], tmp, test=test)
    name = profile_name(a.prog, pid, 0)
    expect(files(tmp), [name], "files written")
    check_profile(load(tmp, name), a.prog, pid, "exit", COUNTS, test=test)


COUNTS = [
    function("_Z1ai", 8, 5, [(0, 3), (3, 1), (7, 2)], invalid_ids=3),
    function("_Z1hv", 10**12, 4,
             [(5, 2), (123456789, 1), (999999999999, 1)], invalid_ids=2),
    # \xff is not UTF-8: written as U+00FF; \xc3\xa9 is.
    function('src/w"eird\\.c:f\n\x01\xff\u00e9', 1, 1, [(0, 1)]),
    # PATHCOV_FN_CALLS_ARE_PATH: 6 entries, path 0 ran 6 times.
    function("accessor", 1, 6, [(0, 6)]),
    # PATHCOV_FN_PATHS_ARE_CALLS: 5 calls, its paths' counts (the one entry
    # counted is not read).
    function("paths_are_calls", 3, 5, [(0, 2), (2, 3)]),
]


def scenario_crash(a, tmp):
    # A process dying of abort() writes its profile from the signal handler
    # (reason signal, signal 6): the counts of scenario counts, the hashed
    # function's ids sorted without qsort. The directory is the one
    # PATHCOV_PROFILE_DIR named at start-up; one that cannot be used is
    # said on stderr without stdio, and the process still dies of SIGABRT.
    def crash(directory, env_dir=True):
        proc = start([a.prog, "crash"], directory, cwd=tmp, test="death",
                     env_dir=env_dir)
        out, err = proc.communicate()
        expect((proc.returncode, out), (-signal.SIGABRT, b""),
               f"{directory}: dies of SIGABRT")
        return proc.pid, err.decode()
    pid, err = crash(tmp)
    expect(err, "", "stderr")
    name = profile_name(a.prog, pid, 0)
    expect(files(tmp), [name], "files written")
    check_profile(load(tmp, name), a.prog, pid, "signal", COUNTS, test="death",
                  extra={"signal": signal.SIGABRT})
    a_file = os.path.join(tmp, "file")
    open(a_file, "w").close()
    sub = os.path.join(a_file, "sub")
    _, err = crash(sub)
    expect(err, f"pathcov: cannot write profile {sub} (errno 20)\n",
           "a directory that is a file: stderr")
    too_long = os.path.join(tmp, "d" * 5000)
    _, err = crash(too_long)
    expect(err, "pathcov: cannot write profile $PATHCOV_PROFILE_DIR "
           "(errno 36)\n", "a directory too long: stderr")
    expect(files(tmp), sorted([name, "file"]), "nothing else written")


def scenario_terminated(a, tmp):
    # A helper process its harness ends with SIGTERM writes its profile
    # (reason signal, signal 15) and dies of SIGTERM, with no
    # PATHCOV_SIGNALS; PATHCOV_SIGNALS set to others (or to nothing)
    # replaces that default: no profile then.
    def terminate(directory, signals=None):
        os.mkdir(directory)
        proc = start([a.prog, "terminated"], directory, test="helper",
                     signals=signals)
        expect(proc.stdout.readline(), b"ready\n", f"{directory}: ready")
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate()
        expect((proc.returncode, out, err), (-signal.SIGTERM, b"", b""),
               f"{directory}: dies of SIGTERM, silently")
        return proc.pid
    by_default = os.path.join(tmp, "default")
    pid = terminate(by_default)
    name = profile_name(a.prog, pid, 0)
    expect(files(by_default), [name], "files written on SIGTERM")
    check_profile(load(by_default, name), a.prog, pid, "signal", COUNTS,
                  test="helper", extra={"signal": signal.SIGTERM})
    for signals in ("", "INT"):
        directory = os.path.join(tmp, f"signals-{signals or 'empty'}")
        terminate(directory, signals)
        expect(files(directory), [], f"PATHCOV_SIGNALS={signals!r}: no profile")


SIMPLE = [function("_Z1ai", 8, 1, [(1, 3)]),
          function("_Z1hv", 10**12, 0, [(42, 1)])]


def scenario_default_dir(a, tmp):
    cwd, elsewhere = os.path.join(tmp, "cwd"), os.path.join(tmp, "elsewhere")
    os.mkdir(cwd)
    os.mkdir(elsewhere)
    pid = run([a.prog, "simple"], elsewhere, cwd=cwd)
    expect(files(cwd), [], "files in the working directory")
    expect(files(elsewhere), [profile_name(a.prog, pid, 0)],
           "files in PATHCOV_PROFILE_DIR")
    check_profile(load(elsewhere, profile_name(a.prog, pid, 0)), a.prog, pid,
                  "exit", SIMPLE)
    for name in files(elsewhere):
        os.remove(os.path.join(elsewhere, name))
    pid = run([a.prog, "simple"], cwd, env_dir=False)
    expect(files(cwd), [profile_name(a.prog, pid, 0)],
           "files in the working directory without PATHCOV_PROFILE_DIR")
    check_profile(load(cwd, profile_name(a.prog, pid, 0)), a.prog, pid,
                  "exit", SIMPLE)
    expect(files(elsewhere), [], "files elsewhere")


def scenario_exit_handlers(a, tmp):
    pid = run([a.prog, "exit-handlers"], tmp)
    check_profile(load(tmp, profile_name(a.prog, pid, 0)), a.prog, pid,
                  "exit", [function("_Z1ai", 8, 3, [(1, 3), (4, 1), (5, 1)]),
                           function("_Z1hv", 10**12, 0, [(42, 1)])])


def scenario_threads(a, tmp):
    pid = run([a.prog, "threads"], tmp)
    threads, records = 8, 100000  # rt_prog.c
    hashed = collections.Counter()
    for t in range(threads):
        for i in range(records):
            hashed[10000 + t * 5000 + i % 5000 if i & 1 else i % 4000] += 1
    expect(files(tmp), [profile_name(a.prog, pid, 0)], "files written")
    check_profile(load(tmp, profile_name(a.prog, pid, 0)), a.prog, pid,
                  "exit", [
                      function("atomic_array", 16, threads * records,
                               [(i, threads * records // 16)
                                for i in range(16)]),
                      function("atomic_hashed", 1000000, threads * records,
                               sorted(hashed.items())),
                  ])


def scenario_fork(a, tmp):
    proc = start([a.prog, "fork"], tmp)
    out, err = proc.communicate()
    expect((proc.returncode, err), (0, b""), "exit status and stderr")
    match = re.fullmatch(rb"child (\d+)\n", out)
    if not match:
        raise Failure(f"unexpected output {out!r}")
    parent, child = proc.pid, int(match.group(1))
    expect(files(tmp), sorted([profile_name(a.prog, parent, 0),
                               profile_name(a.prog, child, 0)]),
           "files written")
    check_profile(load(tmp, profile_name(a.prog, parent, 0)), a.prog, parent,
                  "exit", [function("_Z1ai", 8, 1, [(0, 10), (2, 5)]),
                           function("_Z1hv", 10**12, 0, [(1, 15)])])
    check_profile(load(tmp, profile_name(a.prog, child, 0)), a.prog, child,
                  "exit", [function("_Z1ai", 8, 1, [(1, 3)]),
                           function("_Z1hv", 10**12, 0, [(2, 3)])])


def scenario_slots(a, tmp):
    proc = start([a.prog, "slots"], tmp)
    out, err = proc.communicate()
    expect((proc.returncode, err), (0, b""), "exit status and stderr")
    # The first run of paths 3 and 5 called the runtime, which gave each
    # its free slot and counted it there; their later runs counted there
    # inline, without a call.
    expect(out, b"slots 5 2 1\n", "counts in slots 3, 5 and 0")
    parent = proc.pid
    child = [int(n.split("-")[-2]) for n in files(tmp)
             if int(n.split("-")[-2]) != parent]
    expect(len(child), 1, "one child profile")
    # Path 19 shares slot 3 with path 3: counted in the table each time.
    check_profile(load(tmp, profile_name(a.prog, parent, 0)), a.prog, parent,
                  "exit", [function("slotted", 10**6, 1,
                                    [(0, 1), (3, 5), (5, 2), (16, 2), (19, 4)],
                                    invalid_ids=1)])
    check_profile(load(tmp, profile_name(a.prog, child[0], 0)), a.prog,
                  child[0], "exit",
                  [function("slotted", 10**6, 0, [(3, 1), (19, 1)])])


def scenario_flush(a, tmp):
    pid = run([a.prog, "flush"], tmp)
    expect(files(tmp), [profile_name(a.prog, pid, 0),
                        profile_name(a.prog, pid, 1)], "files written")
    check_profile(load(tmp, profile_name(a.prog, pid, 0)), a.prog, pid,
                  "flush", [function("_Z1ai", 8, 2, [(1, 2)]),
                            function("_Z1hv", 10**12, 0, [(10, 2)])])
    check_profile(load(tmp, profile_name(a.prog, pid, 1)), a.prog, pid,
                  "exit", [function("_Z1ai", 8, 0, [(1, 1), (2, 1)]),
                           function("_Z1hv", 10**12, 0, [(10, 1), (11, 1)])])


def scenario_large_array(a, tmp):
    # A profile reads the pages of a large array that were written, and no
    # other: 3 of its 2048 pages are in memory after the flush (a page
    # holding another variable too may make 4), and the counts are exact.
    large_array(a, tmp, [a.prog, "large-array"], range(3, 5))


def scenario_large_array_no_proc(a, tmp):
    # Without /proc (a sandbox) the profile cannot ask which pages were
    # written: it reads all 2048 (and a neighbour's), and the counts are
    # the same. A mount namespace hides /proc; where none can be made, the
    # scenario cannot run.
    hide = ["unshare", "-m", "sh", "-c",
            'mount -t tmpfs none /proc && exec "$0" large-array', a.prog]
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs none /proc"],
                           capture_output=True)
    if probe.returncode != 0:
        raise Skip("no mount namespace to hide /proc in")
    large_array(a, tmp, hide, range(2048, 2050))


def large_array(a, tmp, cmd, resident):
    """rt_prog large-array as `cmd` runs it: its pages of the array in
    memory after the flush within `resident`, and its two profiles."""
    proc = start(cmd, tmp)
    out, err = proc.communicate()
    expect((proc.returncode, err), (0, b""), "exit status and stderr")
    match = re.fullmatch(rb"resident (\d+)\n", out)
    if not match or int(match.group(1)) not in resident:
        raise Failure(f"pages of the array in memory after the flush: {out!r}")
    pid = proc.pid
    big = 2**20 - 1
    check_profile(load(tmp, profile_name(a.prog, pid, 0)), a.prog, pid,
                  "flush", [function("big", big, 1,
                                     [(7, 2), (600000, 1), (big - 1, 3)])])
    check_profile(load(tmp, profile_name(a.prog, pid, 1)), a.prog, pid,
                  "exit", [function("big", big, 1, [(8, 1)])])


def scenario_memcheck(a, tmp):
    # Test suites run under Valgrind (jq's does): the runtime's profiles,
    # of arrays, hashed functions, slots and forks, read nothing
    # uninitialised and leave no error behind (a new user's jq failed
    # its make check on one).
    if not shutil.which("valgrind"):
        raise Skip("no valgrind")
    for scenario in ("counts", "large-array", "slots", "flush", "fork", "threads"):
        proc = subprocess.run(
            ["valgrind", "-q", "--error-exitcode=99", "--trace-children=yes",
             a.prog, scenario],
            capture_output=True, text=True,
            env={**os.environ, "PATHCOV_PROFILE_DIR": os.path.join(tmp, scenario)})
        if proc.returncode != 0 or "==" in proc.stderr:
            raise Failure(f"{scenario} under memcheck: exit {proc.returncode}\n"
                          f"{proc.stderr[:3000]}")


def scenario_flush_fail(a, tmp):
    # A missing directory is created; one under a plain file cannot be.
    blocker = os.path.join(tmp, "a-file")
    open(blocker, "w").close()
    missing = os.path.join(blocker, "missing")
    proc = start([a.prog, "flush-fail", missing], tmp)
    out, err = proc.communicate()
    pid = proc.pid
    expect(proc.returncode, 0, "exit status")
    expect(out, b"flush -1 Not a directory\n", "pathcov_flush result")
    # The message names what failed: the directory.
    expect(err.decode(), f"pathcov: cannot write profile {missing}: "
           "Not a directory\n", "stderr")
    # The failed flush took nothing, not even a sequence number: the exit
    # profile has every count.
    expect(sorted(files(tmp)), sorted(["a-file", profile_name(a.prog, pid, 0)]),
           "files written")
    check_profile(load(tmp, profile_name(a.prog, pid, 0)), a.prog, pid,
                  "exit", [function("_Z1ai", 8, 1, [(0, 1), (1, 1)])])


def scenario_overflow(a, tmp):
    pid = run([a.prog, "overflow"], tmp)
    capacity, ids = 65536, 70000  # record.c, rt_prog.c
    check_profile(load(tmp, profile_name(a.prog, pid, 0)), a.prog, pid,
                  "exit", [function(
                      "overflowing", 1000000, 1,
                      [(i, i % 3 + 1) for i in range(capacity)],
                      dropped=sum(i % 3 + 1 for i in range(capacity, ids)))])


def scenario_many_processes(a, tmp):
    procs = [start([a.prog, "simple"], tmp, test=f"many/{k}")
             for k in range(200)]
    test_of = {}
    for k, proc in enumerate(procs):
        out, err = proc.communicate()
        expect((proc.returncode, out, err), (0, b"", b""),
               f"process {k}: status, stdout, stderr")
        test_of[proc.pid] = f"many/{k}"
    expect(files(tmp), sorted(profile_name(a.prog, pid, 0) for pid in test_of),
           "files written (and no temporary file left)")
    for pid, test in test_of.items():
        check_profile(load(tmp, profile_name(a.prog, pid, 0)), a.prog, pid,
                      "exit", SIMPLE, test=test)


def scenario_unwritable(a, tmp):
    a_file = os.path.join(tmp, "file")
    open(a_file, "w").close()
    # What failed: the directory, or the file in it.
    sub = os.path.join(a_file, "sub")
    cases = [(sub, lambda pid: sub, "Not a directory")]
    if os.geteuid() != 0:  # root writes anywhere
        read_only = os.path.join(tmp, "read-only")
        os.mkdir(read_only, 0o555)
        cases.append((read_only, lambda pid: os.path.join(
            read_only, profile_name(a.prog, pid, 0)), "Permission denied"))
    for directory, failed, message in cases:
        proc = start([a.prog, "simple"], directory, cwd=tmp)
        out, err = proc.communicate()
        expect((proc.returncode, out), (0, b""), f"{directory}: status, stdout")
        expect(err.decode(), f"pathcov: cannot write profile "
               f"{failed(proc.pid)}: {message}\n", f"{directory}: stderr")
    expect(files(tmp), ["file"] + (["read-only"] if len(cases) > 1 else []),
           "files written")
    # A directory that does not exist yet is made, parents too.
    made = os.path.join(tmp, "made", "for", "profiles")
    proc = start([a.prog, "simple"], made, cwd=tmp)
    proc.communicate()
    expect((proc.returncode, files(made)),
           (0, [profile_name(a.prog, proc.pid, 0)]), "profile in a new directory")


def scenario_big_file(a, tmp):
    proc = start([a.prog, "big-file"], tmp)
    out, err = proc.communicate()
    expect((proc.returncode, out), (0, b""), "status, stdout")
    expect(err.decode(), f"pathcov: cannot write profile {tmp}/"
           f"{profile_name(a.prog, proc.pid, 0)}: File too large\n", "stderr")
    expect(files(tmp), [], "files left (the temporary file is removed)")


def scenario_invalid_descriptors(a, tmp):
    module = os.path.realpath(a.badabi)
    pid = run([a.badabi], tmp, stderr=(
        f"pathcov: {module}: 2 function descriptors are not of ABI version 10 "
        "or are malformed: their paths are not counted\n"))
    check_profile(load(tmp, profile_name(a.badabi, pid, 0)), a.badabi, pid,
                  "exit", [function("good", 2, 1, [(0, 1)])],
                  extra={"invalid_descriptors": 2})


def exported_symbols(path):
    """Names of the symbols path exports: defined in .dynsym with default or
    protected visibility (ld also puts hidden __start_/__stop_ symbols in
    .dynsym, which the loader ignores)."""
    out = subprocess.run(["readelf", "-W", "--dyn-syms", path],
                         capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if (len(fields) >= 8 and fields[0].endswith(":") and fields[6] != "UND"
                and fields[5] in ("DEFAULT", "PROTECTED")):
            names.add(fields[7].split("@")[0])
    return names


def scenario_empty(a, tmp):
    run([a.empty], tmp)
    expect(files(tmp), [], "files written")


def scenario_shared_library(a, tmp, how="exit"):
    # __pathcov_master: every copy of the runtime finds the others' exec
    # hooks through it (runtime/src/exec.c).
    exported = {s for s in exported_symbols(a.shlib) if "pathcov" in s}
    expect(exported, {"pathcov_flush", "pathcov_reset", "pathcov_test_begin",
                      "pathcov_test_end", "__pathcov_master"},
           "runtime symbols the library exports")
    expect("pathcov_flush" in exported_symbols(a.useslib), True,
           "the executable exports its pathcov_flush too (ENABLE_EXPORTS)")
    pid = run([a.useslib] + (["exec"] if how == "exec" else []), tmp)
    expect(files(tmp), sorted(profile_name(m, pid, s)
                              for m in (a.useslib, a.shlib) for s in (0, 1)),
           "files written")
    check_profile(load(tmp, profile_name(a.useslib, pid, 0)), a.useslib, pid,
                  "flush", [function("exe_array", 2, 1, [(1, 1)])])
    check_profile(load(tmp, profile_name(a.useslib, pid, 1)), a.useslib, pid,
                  how, [function("exe_array", 2, 1, [(0, 1)])])
    check_profile(load(tmp, profile_name(a.shlib, pid, 0)), a.shlib, pid,
                  "flush", [function("lib_array", 4, 2, [(1, 1), (2, 1)]),
                            function("lib_hashed", 100000, 2,
                                     [(1001, 1), (1002, 1)])])
    check_profile(load(tmp, profile_name(a.shlib, pid, 1)), a.shlib, pid,
                  how, [function("lib_array", 4, 1, [(3, 1)]),
                        function("lib_hashed", 100000, 1, [(1003, 1)])])


def scenario_shared_library_exec(a, tmp):
    # The executable's exec writes the library's profile too, as at exit.
    scenario_shared_library(a, tmp, "exec")


def scenario_dlopen(a, tmp):
    # Each dlclose writes the library's profile; the second copy of the
    # runtime restarts its sequence at 0 and must not overwrite the first.
    pid = run([a.dlopen, os.path.realpath(a.shlib), tmp], tmp,
              stdout="after first dlclose: 1\nafter second dlclose: 2\n")
    expect(files(tmp), [profile_name(a.shlib, pid, 0),
                        profile_name(a.shlib, pid, 1)], "files written")
    check_profile(load(tmp, profile_name(a.shlib, pid, 0)), a.shlib, pid,
                  "exit", [function("lib_array", 4, 1, [(1, 1)]),
                           function("lib_hashed", 100000, 1, [(1005, 1)])])
    check_profile(load(tmp, profile_name(a.shlib, pid, 1)), a.shlib, pid,
                  "exit", [function("lib_array", 4, 2, [(2, 1), (3, 1)]),
                           function("lib_hashed", 100000, 2,
                                    [(1006, 1), (1007, 1)])])


def scenario_install(a, tmp):
    prefix = os.path.join(tmp, "prefix")
    subprocess.run([a.cmake, "--install", a.build_dir, "--component",
                    "runtime", "--prefix", prefix], check=True,
                   stdout=subprocess.DEVNULL)
    installed = sorted(os.path.relpath(os.path.join(d, f), prefix)
                       for d, _, fs in os.walk(prefix) for f in fs)
    for wanted in ["include/pathcov/abi.h", "include/pathcov/pathcov.h",
                   "libpathcov-rt.a", "pkgconfig/pathcov-runtime.pc",
                   "cmake/pathcov-runtime/pathcov-runtime-config.cmake"]:
        expect(any(f.endswith(wanted) for f in installed), True,
               f"{wanted} installed (installed: {installed})")
    env = dict(os.environ)
    env["PKG_CONFIG_PATH"] = os.path.dirname(
        os.path.join(prefix, next(f for f in installed if f.endswith(".pc"))))
    build = os.path.join(tmp, "build")
    for cmd in ([a.cmake, "-S", a.consumer_source, "-B", build,
                 f"-DCMAKE_PREFIX_PATH={prefix}"],
                [a.cmake, "--build", build]):
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if proc.returncode:
            raise Failure(f"{cmd} failed:\n{proc.stdout}{proc.stderr}")
    for program in ("consumer_cmake", "consumer_pkgconfig"):
        path = os.path.join(build, program)
        out = os.path.join(tmp, program)
        os.mkdir(out)
        pid = run([path], out)
        check_profile(load(out, profile_name(path, pid, 0)), path, pid, "exit",
                      [function("consumer", 3, 1, [(2, 1)]) | {
                          "checksum": "0000000000000000"}])


def run_scenario(description, options, scope):
    """Runs the scenario named on the command line: the function
    scenario_NAME of `scope` (a module's globals), given the parsed
    --OPTIONS (each required) and a fresh temporary directory."""
    parser = argparse.ArgumentParser(description=description)
    for option in options:
        parser.add_argument(f"--{option}", required=True)
    parser.add_argument("scenario")
    a = parser.parse_args()
    scenario = scope.get("scenario_" + a.scenario.replace("-", "_"))
    if scenario is None:
        parser.error(f"unknown scenario {a.scenario}")
    with tempfile.TemporaryDirectory(prefix="pathcov-rt-") as tmp:
        try:
            scenario(a, tmp)
        except Failure as e:
            print(f"FAIL {a.scenario}: {e}", file=sys.stderr)
            return 1
        except Skip as e:
            print(f"skipped {a.scenario}: {e}")
            return 77
    print(f"ok {a.scenario}")
    return 0


if __name__ == "__main__":
    sys.exit(run_scenario(__doc__, ("prog", "badabi", "empty", "shlib",
                                    "useslib", "dlopen", "build-dir", "cmake",
                                    "consumer-source"), globals()))
