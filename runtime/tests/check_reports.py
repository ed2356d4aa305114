#!/usr/bin/env python3
"""Runs the runtime's residual-mode test programs (which play instrumented
code, see fake_plugin.h) and checks the reports they write
(docs/residual-mode.md, "Reports") against exact residual paths and counts.

Usage: check_reports.py --residual P ... SCENARIO; exits non-zero on
failure."""
import collections
import json
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time

from check_profiles import (Failure, Skip, check_header, check_profile, expect,
                            files, function, load, profile_name, run_scenario)

REPORT_KEYS = {"format", "format_version", "module", "build_id", "pid",
               "started_ns", "written_ns", "reason", "residual_paths",
               "dropped_paths", "tested_paths",
               # calling contexts: on by default (PATHCOV_CONTEXT_DEPTH)
               "context_depth", "context_period", "context_modules"}
PATH_KEYS = {"identity", "checksum", "id", "count", "first_seen_ns", "thread"}
CAPACITY = 16384  # residual.c

# The checksums of rt_residual.c's functions.
CHECKSUMS = {
    "_Z5parsePKc": "8d3c41a0e9b2f7c5",
    "sorted_fn": "1111111111111111",
    "sorted_atomic": "2222222222222222",
    "untested_fn": "3333333333333333",
    "stale_fn": "fedcba9876543210",
    'src/w"eird\\.c:f\n\x01\xff\u00e9': "4444444444444444",
    "many": "5555555555555555",
    "hot": "6666666666666666",
    "bench_sorted": "7777777777777777",
    "seen_fn": "8888888888888888",
    "seen_array": "9999999999999999",
    "seen_atomic": "aaaaaaaaaaaaaaaa",
    "words_fn": "bbbbbbbbbbbbbbbb",
    "words_atomic": "cccccccccccccccc",
    "tested_words": "dddddddddddddddd",
    "residual": "0123456789abcdef",      # rt_mixed.c
    "lib_untested": "abcdefabcdefabcd",  # rt_reslib.c
    "exe_untested": "1234123412341234",  # rt_resuseslib.c
}


def start(cmd, report_dir, env=None, stdout=subprocess.PIPE,
          stderr=subprocess.PIPE, umask=None, cwd=None, **kwargs):
    """Starts cmd in report_dir (or cwd) with PATHCOV_REPORT_DIR (and the
    profile directory) there, no core dumps, and umask if given."""
    def set_up():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if umask is not None:
            os.umask(umask)

    environment = {k: v for k, v in os.environ.items()
                   if not k.startswith("PATHCOV_")
                   and k != "RT_RESIDUAL_PREINIT_HANDLER"}
    environment["PATHCOV_REPORT_DIR"] = report_dir
    environment["PATHCOV_PROFILE_DIR"] = report_dir
    environment.update(env or {})
    return subprocess.Popen(cmd, env=environment, cwd=cwd or report_dir,
                            stdout=stdout, stderr=stderr, preexec_fn=set_up,
                            **kwargs)


def run(cmd, report_dir, status=0, stdout=None, stderr="", **kwargs):
    """Runs cmd to completion and checks its exit status (-N: killed by
    signal N), stdout (unless None) and stderr; returns (pid, stdout)."""
    proc = start(cmd, report_dir, **kwargs)
    out, err = proc.communicate()
    out = out.decode(errors="replace")
    expect(proc.returncode, status, f"exit status of {cmd} (stdout {out!r}, "
           f"stderr {err!r})")
    expect(err.decode(errors="replace"), stderr, f"stderr of {cmd}")
    if stdout is not None:
        expect(out, stdout, f"stdout of {cmd}")
    return proc.pid, out


def report_name(module, pid, sequence):
    return f"pathcov-report-{os.path.basename(module)}-{pid}-{sequence}.json"


def parse(text, what):
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise Failure(f"{what} is not valid JSON: {e}\n{text[:2000]!r}")


def check_report(report, module, pid, reason, paths, signal_number=None,
                 dropped=0, ordered=True, threads=None, test=None):
    """paths: [(identity, id, count)], in first-seen order unless not
    ordered; threads: the thread every path must name (an int), a function
    of the path, or None for the pid (the main thread); test: the process's
    test (PATHCOV_TEST), or None for no `test`."""
    what = f"report of pid {pid} ({reason})"
    keys = REPORT_KEYS | ({"signal"} if signal_number is not None else set()) \
        | ({"test"} if test is not None else set())
    expect(set(report), keys, f"{what}: keys")
    check_header(report, "report", module, pid, reason, what)
    if signal_number is not None:
        expect(report["signal"], signal_number, f"{what}: signal")
    if test is not None:
        expect(report["test"], test, f"{what}: test")
    expect(report["dropped_paths"], dropped, f"{what}: dropped_paths")
    started, written = report["started_ns"], report["written_ns"]
    now = time.time_ns()
    expect(now - 600 * 10**9 < started <= written <= now, True,
           f"{what}: started_ns {started} <= written_ns {written} <= now "
           f"{now}, within 10 minutes")
    for p in report["residual_paths"]:
        expect(set(p), PATH_KEYS, f"{what}: keys of {p}")
        expect(p["checksum"], CHECKSUMS[p["identity"]],
               f"{what}: checksum of {p}")
        expect(started <= p["first_seen_ns"] <= written, True,
               f"{what}: started <= first_seen_ns <= written in {p}")
        wanted = (pid if threads is None else
                  threads(p) if callable(threads) else threads)
        expect(p["thread"], wanted, f"{what}: thread of {p}")
    seen = [p["first_seen_ns"] for p in report["residual_paths"]]
    if ordered:
        expect(seen, sorted(seen), f"{what}: paths in first-seen order")
    got = [(p["identity"], p["id"], p["count"])
           for p in report["residual_paths"]]
    keys = [(i, n) for i, n, _ in got]
    expect(len(set(keys)), len(keys), f"{what}: each path listed once")
    if ordered:
        expect(got, [tuple(p) for p in paths], f"{what}: residual paths")
    else:
        expect(sorted(got), sorted(tuple(p) for p in paths),
               f"{what}: residual paths")


def only(directory, names, what="files written"):
    """The directory holds exactly these files: no other report, and no
    temporary file left."""
    expect(files(directory), sorted(names), what)


# ---------------------------------------------------------------- scenarios

WEIRD = 'src/w"eird\\.c:f\n\x01\xff\u00e9'


# The residual paths of rt_residual counts.
COUNTS = [("_Z5parsePKc", 8, 3), ("_Z5parsePKc", 13, 1), ("_Z5parsePKc", 0, 2),
          ("sorted_fn", 3, 3), ("sorted_fn", 999, 1), ("sorted_fn", 0, 1),
          ("untested_fn", 0, 1), ("untested_fn", 5, 6), ("stale_fn", 1, 2),
          (WEIRD, 4, 1)]


def scenario_counts(a, tmp):
    # Tested counts stay in the tables, the sentinel's count stays 0.
    pid, _ = run([a.residual, "counts"], tmp,
                 stdout="array 5 0 2 1 0\nsorted 4 0 1 0 1 0\n")
    only(tmp, [report_name(a.residual, pid, 0)])  # and no profile
    report = load(tmp, report_name(a.residual, pid, 0))
    check_report(report, a.residual, pid, "exit", COUNTS)
    # Run as a test: the report names it (format 2.3).
    shutil.rmtree(tmp)
    os.makedirs(tmp)
    pid, _ = run([a.residual, "counts"], tmp, env={"PATHCOV_TEST": "suite/counts 1"},
                 stdout="array 5 0 2 1 0\nsorted 4 0 1 0 1 0\n")
    report = load(tmp, report_name(a.residual, pid, 0))
    check_report(report, a.residual, pid, "exit", COUNTS, test="suite/counts 1")
    # The tested paths that ran, with their counts (in descriptor order,
    # which the linker decides).
    expect(sorted((t["identity"], t["id"], t["count"])
                  for t in report["tested_paths"]),
           [("_Z5parsePKc", 3, 5), ("_Z5parsePKc", 11, 2),
            ("_Z5parsePKc", 19, 1), ("sorted_fn", 2, 4), ("sorted_fn", 500, 1),
            ("sorted_fn", 998, 1)], "tested_paths")


def scenario_clean(a, tmp):
    # Only tested paths, but counted ones (count-tested=1): a report with
    # their counts and no residual path, lest the counts be lost.
    pid, _ = run([a.residual, "clean"], tmp,
                 stdout="array 0 3 0 0 0\nsorted 0 2 0 0 0 0\n")
    only(tmp, [report_name(a.residual, pid, 0)])
    report = load(tmp, report_name(a.residual, pid, 0))
    check_report(report, a.residual, pid, "exit", [])
    expect(sorted((t["identity"], t["id"], t["count"])
                  for t in report["tested_paths"]),
           [("_Z5parsePKc", 7, 3), ("sorted_fn", 10, 2)], "tested_paths")


def scenario_mixed(a, tmp):
    module = os.path.realpath(a.mixed)
    pid, _ = run([a.mixed], tmp, stdout="", stderr=(
        f"pathcov: {module}: 1 function descriptors are not of ABI version 10 "
        "or are malformed: their paths are not counted\n"))
    only(tmp, [profile_name(a.mixed, pid, 0), report_name(a.mixed, pid, 0)])
    check_profile(load(tmp, profile_name(a.mixed, pid, 0)), a.mixed, pid,
                  "exit", [function("recorded", 4, 1, [(2, 1)])],
                  extra={"invalid_descriptors": 1})
    check_report(load(tmp, report_name(a.mixed, pid, 0)), a.mixed, pid,
                 "exit", [("residual", 3, 2)])


def scenario_invalid_descriptors(a, tmp):
    """rt_mixed.c without its record-mode function (rt_resbadabi), so
    without record.c: it says so of the descriptor of another ABI version
    too (module.c), writes no profile, and reports the valid function's
    residual path."""
    module = os.path.realpath(a.resbadabi)
    pid, _ = run([a.resbadabi], tmp, stdout="", stderr=(
        f"pathcov: {module}: 1 function descriptors are not of ABI version 10 "
        "or are malformed: their paths are not counted\n"))
    only(tmp, [report_name(a.resbadabi, pid, 0)])
    check_report(load(tmp, report_name(a.resbadabi, pid, 0)), a.resbadabi, pid,
                 "exit", [("residual", 3, 2)])


def scenario_benchmark(a, tmp):
    repeated, new, alternating = 20000000, 10000, 4000000  # rt_residual.c
    pid, out = run([a.residual, "bench"], tmp)
    print(out, end="")
    cpu = {}
    for line in out.splitlines():
        m = re.fullmatch(r"(\w+) ([\d.]+) ns/call \(cpu\) ([\d.]+) ns/call "
                         r"\(wall\) (\d+) calls", line)
        if m:
            cpu[m.group(1)] = float(m.group(2))
    expect(sorted(cpu), ["alternating_residual", "baseline_atomic_call",
                         "new_residual", "repeated_residual", "sorted_hit"],
           "measurements")
    expect("sorted_exact 1024" in out.splitlines(), True,
           "each tested id of the sorted table counted exactly")
    check_report(load(tmp, report_name(a.residual, pid, 0)), a.residual, pid,
                 "exit", [("hot", 42, repeated + 1),
                          ("hot", 100, alternating // 2 + 1),
                          ("hot", 101, alternating // 2 + 1)]
                 + [("many", i, 1) for i in range(new)])
    # The last-hit cache: a repeated residual path is a load, two compares
    # and an atomic add. Generous bounds (a shared, noisy machine).
    if cpu["repeated_residual"] > 40:
        raise Failure(f"a repeated residual path costs "
                      f"{cpu['repeated_residual']} ns/call (cpu)")
    if cpu["sorted_hit"] > 150:
        raise Failure(f"a sorted lookup hit costs {cpu['sorted_hit']} ns/call")


def scenario_threads(a, tmp):
    threads, records = 8, 200000  # rt_residual.c
    pid, out = run([a.residual, "threads"], tmp)
    tids = {}
    for line in out.splitlines():
        m = re.fullmatch(r"thread (\d+) (\d+)", line)
        if m:
            tids[int(m.group(1))] = int(m.group(2))
    expect(sorted(tids), list(range(threads)), "thread ids printed")
    tested = collections.Counter(
        1 if i % 3 == 0 else 4 if i % 3 == 1 else 9 for i in range(records))
    expect(re.findall(r"^atomic .*$", out, re.M),
           [f"atomic {tested[1] * threads} {tested[4] * threads} "
            f"{tested[9] * threads} 0"], "tested counts (atomic lookups)")
    paths = [("many", k, threads * records // 64) for k in range(64)]
    owner = {}
    for t in range(threads):
        for j in range(100):
            paths.append(("many", 1000 + t * 100 + j, records // 100))
            owner[1000 + t * 100 + j] = tids[t]
    paths.append(("hot", 7, threads * records))
    paths.append(("sorted_atomic", 5, threads * ((records + 9) // 10)))
    # Counted by the runtime, then in the seen slots, atomically: exact.
    paths += [("seen_atomic", k, threads * records // 20) for k in range(20)]
    # Every run in the seen words, atomically, the first ones while other
    # threads' runs wait for the path to be recorded: exact.
    paths += [("words_atomic", k, threads * records // 20) for k in range(20)]
    any_worker = set(tids.values())

    def thread_of(p):
        if p["identity"] == "many" and p["id"] in owner:
            return owner[p["id"]]
        return p["thread"] if p["thread"] in any_worker else -1

    only(tmp, [report_name(a.residual, pid, 0)])
    check_report(load(tmp, report_name(a.residual, pid, 0)), a.residual, pid,
                 "exit", paths, ordered=False, threads=thread_of)


BEFORE_CRASH = [("untested_fn", 9, 3), ("stale_fn", 2, 1),
                ("_Z5parsePKc", 8, 2)]


def crash(a, tmp, how, signal_number, test=None, env=None):
    env = dict(env or {}, **({"PATHCOV_TEST": test} if test else {}))
    pid, _ = run([a.residual, "crash", how], tmp, status=-signal_number,
                 stdout="crashing\n", env=env or None)
    only(tmp, [report_name(a.residual, pid, 0)])
    check_report(load(tmp, report_name(a.residual, pid, 0)), a.residual, pid,
                 "signal", BEFORE_CRASH, signal_number=signal_number, test=test)


def scenario_segv(a, tmp):
    # The test's name, read in the handler.
    crash(a, tmp, "segv", signal.SIGSEGV, test="suite/segv")


def scenario_underscore_exit(a, tmp):
    # _exit writes as a crash's handler does (it may run in one): into the
    # start-up directory, though the program changed PATHCOV_REPORT_DIR
    # since; a start-up directory too long said without stdio.
    later = os.path.join(tmp, "later")
    os.makedirs(later)
    pid, _ = run([a.residual, "underscore-exit", later], tmp)
    only(tmp, [report_name(a.residual, pid, 0), "later"])
    only(later, [], "nothing where PATHCOV_REPORT_DIR names later")
    check_report(load(tmp, report_name(a.residual, pid, 0)), a.residual, pid,
                 "exit", BEFORE_CRASH)
    run([a.residual, "underscore-exit", later], tmp,
        env={"PATHCOV_REPORT_DIR": os.path.join(tmp, "d" * 5000)},
        stderr="pathcov: cannot write report $PATHCOV_REPORT_DIR (errno 36)\n")
    only(later, [], "nothing where PATHCOV_REPORT_DIR names later")


def scenario_segv_thread(a, tmp):
    crash(a, tmp, "thread", signal.SIGSEGV)


def scenario_stack_overflow(a, tmp):
    # The handler runs on the alternate stack.
    crash(a, tmp, "overflow", signal.SIGSEGV)


def scenario_abort(a, tmp):
    crash(a, tmp, "abort", signal.SIGABRT)


def scenario_kill(a, tmp):
    # SIGBUS sent with kill(2): no fault recurs, the handler raises it again.
    crash(a, tmp, "kill", signal.SIGBUS)


def scenario_ending_signals(a, tmp):
    # Signals that end the process by default write a report only on
    # request (PATHCOV_SIGNALS): without it, SIGTERM loses the run; with
    # it, each listed signal writes one, then the process dies of it.
    pid, _ = run([a.residual, "crash", "term"], tmp, status=-signal.SIGTERM,
                 stdout="crashing\n")
    only(tmp, [], "nothing on SIGTERM without PATHCOV_SIGNALS")
    for how, number, requested in (("term", signal.SIGTERM, "TERM,PIPE"),
                                   ("pipe", signal.SIGPIPE, "sigpipe"),
                                   ("alarm", signal.SIGALRM, "all")):
        directory = os.path.join(tmp, how)
        os.mkdir(directory)
        crash(a, directory, how, number, env={"PATHCOV_SIGNALS": requested})
    # Not listed, or a name it does not know: said, and nothing written.
    pid, _ = run([a.residual, "crash", "term"], tmp, status=-signal.SIGTERM,
                 stdout="crashing\n", env={"PATHCOV_SIGNALS": "INT,TERMINATE"},
                 stderr="pathcov: PATHCOV_SIGNALS: unknown signal 'TERMINATE' "
                 "(TERM, INT, HUP, PIPE, QUIT, ALRM, USR1, USR2, XCPU, XFSZ, "
                 "VTALRM, PROF or all)\n")
    only(tmp, ["term", "pipe", "alarm"], "nothing for an unlisted signal")
    # Two modules: both handlers run, the later chaining to the earlier,
    # which it raises the signal again for, whatever its si_code (SIGALRM's
    # is positive, as a fault's: no fault recurs here).
    for how, number in (("term", signal.SIGTERM), ("alarm", signal.SIGALRM)):
        both = os.path.join(tmp, "both-" + how)
        os.mkdir(both)
        pid, _ = run([a.resuseslib, how], both, status=-number, stdout="",
                     env={"PATHCOV_SIGNALS": "TERM,ALRM"})
        only(both, [report_name(a.resuseslib, pid, 0), report_name(a.reslib, pid, 0)])
        check_report(load(both, report_name(a.resuseslib, pid, 0)), a.resuseslib,
                     pid, "signal", EXE, signal_number=number)
        check_report(load(both, report_name(a.reslib, pid, 0)), a.reslib, pid,
                     "signal", LIB, signal_number=number)


def scenario_fpe(a, tmp):
    crash(a, tmp, "fpe", signal.SIGFPE)


def scenario_ill(a, tmp):
    crash(a, tmp, "ill", signal.SIGILL)


PROGRAM_HANDLER = "program handler: signal 11 code M addr 0\n"


def scenario_chained(a, tmp):
    # The program's handler, installed before the runtime's constructor,
    # runs after the report, with the fault's own siginfo (SEGV_MAPERR at
    # address 0), and decides the exit status.
    pid, _ = run([a.residual, "crash", "segv"], tmp, status=42,
                 env={"RT_RESIDUAL_PREINIT_HANDLER": "1"},
                 stdout="crashing\n" + PROGRAM_HANDLER)
    only(tmp, [report_name(a.residual, pid, 0)])
    check_report(load(tmp, report_name(a.residual, pid, 0)), a.residual, pid,
                 "signal", BEFORE_CRASH, signal_number=signal.SIGSEGV)


def scenario_replaced(a, tmp):
    # Installed after the runtime's, the program's handler replaces it: no
    # report (documented).
    run([a.residual, "replaced"], tmp, status=42,
        stdout="crashing\n" + PROGRAM_HANDLER)
    only(tmp, [])


def scenario_fork(a, tmp):
    pid, out = run([a.residual, "fork"], tmp)
    m = re.fullmatch(r"child (\d+)\n", out)
    if not m:
        raise Failure(f"unexpected output {out!r}")
    child = int(m.group(1))
    only(tmp, [report_name(a.residual, pid, 0),
               report_name(a.residual, child, 0)])
    parent_report = load(tmp, report_name(a.residual, pid, 0))
    child_report = load(tmp, report_name(a.residual, child, 0))
    check_report(parent_report, a.residual, pid, "exit",
                 [("untested_fn", 1, 3), ("untested_fn", 3, 5)])
    check_report(child_report, a.residual, child, "exit",
                 [("untested_fn", 2, 4), ("untested_fn", 1, 1)],
                 threads=child)
    expect(parent_report["started_ns"] < child_report["started_ns"], True,
           "the child's report starts at the fork")


def scenario_seen(a, tmp):
    # The slots ({tag, count}: tag id + 1) show which runs the runtime saw;
    # the words count every run since the runtime last armed them (once a
    # context period: 4 here).
    pid, out = run([a.residual, "seen"], tmp,
                   env={"PATHCOV_CONTEXT_PERIOD": "4"})
    m = re.fullmatch(r"seen 0 0 2 9 3 2 0 0\n"
                     r"seen_array 5 1 8 5\n"
                     r"words 0 0 0 0 0 0 0 0\n"
                     r"tested_words t4 2 t0 0\n"
                     r"child seen 0 0 0 0 0 0 0 0\n"
                     r"child seen_array 0 0 0 0\n"
                     r"child words 0 0 0 0 0 0 0 0\n"
                     r"child seen 0 0 6 2 0 0 0 0\n"
                     r"child words 0 0 2 0 0 0 0 0\n"
                     r"seen 0 0 2 10 3 2 0 0\n"
                     r"words 0 0 1 0 0 0 0 0\n"
                     r"child (\d+)\n", out)
    if not m:
        raise Failure(f"unexpected output {out!r}")
    child = int(m.group(1))
    only(tmp, [report_name(a.residual, pid, 0),
               report_name(a.residual, child, 0)])
    # The entry's count (the runtime's) plus the slot's; the colliding path
    # 5 counted by the runtime alone.
    check_report(load(tmp, report_name(a.residual, pid, 0)), a.residual, pid,
                 "exit", [("seen_fn", 1, 11), ("seen_fn", 5, 4),
                          ("seen_fn", 2, 3), ("seen_array", 7, 6),
                          ("seen_array", 4, 2), ("words_fn", 2, 6),
                          ("words_fn", 7, 7), ("tested_words", 1, 3)])
    # Neither the parent's entries nor its slots' and words' counts.
    check_report(load(tmp, report_name(a.residual, child, 0)), a.residual,
                 child, "exit", [("seen_fn", 5, 3), ("seen_fn", 1, 2),
                                 ("words_fn", 2, 3)],
                 threads=child)


def scenario_api(a, tmp):
    many = [("many", i, i % 5 + 1) for i in range(2000)]
    read_end, write_end = os.pipe()
    chunks = []
    reader = threading.Thread(target=lambda: chunks.extend(
        iter(lambda: os.read(read_end, 65536), b"")))
    try:
        proc = start([a.residual, "api", tmp, str(write_end)], tmp,
                     pass_fds=[write_end])
        os.close(write_end)
        reader.start()
        out, err = proc.communicate()
        reader.join()
    finally:
        os.close(read_end)
    pid = proc.pid
    expect((proc.returncode, err), (0, b""), "exit status and stderr")
    expect(out.decode(), "empty 1\nwrite 0\nwrite_fd 0\n"
           'small 1 9 {"format"\nbig 1 1\nexact 1 1\nshort 1 1 1\n'
           "missing -1 No such file or directory\n"
           "bad_fd -1 Bad file descriptor\n"
           "closed_fd -1 Bad file descriptor\n", "stdout")
    only(tmp, ["api.json", "buffer.json", "empty.json",
               report_name(a.residual, pid, 0)])
    check_report(load(tmp, "empty.json"), a.residual, pid, "request", [])
    piped = b"".join(chunks).decode()
    if len(piped) <= 65536:
        raise Failure(f"the report is {len(piped)} bytes: too short to fill "
                      "the pipe")
    requested = {"file": load(tmp, "api.json"),
                 "fd": parse(piped, "the report written to the pipe"),
                 "buffer": load(tmp, "buffer.json")}
    for how, report in requested.items():
        check_report(report, a.residual, pid, "request", many)
    check_report(load(tmp, report_name(a.residual, pid, 0)), a.residual, pid,
                 "exit", many)
    # One formatter: the same report but for the time it was written.
    texts = {how: re.sub(r'"written_ns": \d+', "", json.dumps(r))
             for how, r in requested.items()}
    expect(len(set(texts.values())), 1, "the same report on every way")


def scenario_report_off(a, tmp):
    for how, status in (("exit", 0), ("crash", -signal.SIGSEGV)):
        directory = os.path.join(tmp, how)
        os.mkdir(directory)
        pid, _ = run([a.residual, "report-off", directory, how], directory,
                     status=status, env={"PATHCOV_REPORT": "0"},
                     stdout="write 0\n")
        only(directory, ["asked.json"], f"{how}: files written")
        check_report(load(directory, "asked.json"), a.residual, pid,
                     "request", [("untested_fn", 6, 2)])


def scenario_dropped(a, tmp):
    # seen_fn's path 9, dropped, claims no slot: its 5 runs are all counted;
    # so are words_fn's path 3's 4, none left in its word.
    pid, _ = run([a.residual, "dropped"], tmp,
                 stdout="seen 0 0 0 0 0 0 0 0\nwords 0 0 0 0 0 0 0 0\n")
    paths = [("many", i, i % 3 + 1 + (7 if i == 5 else 0))
             for i in range(CAPACITY)]
    check_report(load(tmp, report_name(a.residual, pid, 0)), a.residual, pid,
                 "exit", paths,
                 dropped=sum(i % 3 + 1 for i in range(CAPACITY,
                                                      CAPACITY + 100)) + 5 + 4)


LIB = [("lib_untested", 51, 2), ("lib_untested", 52, 1)]
EXE = [("exe_untested", 7, 1)]


def scenario_shared_library(a, tmp, how="exit"):
    pid, _ = run([a.resuseslib] + (["exec"] if how == "exec" else []), tmp,
                 stdout="")
    only(tmp, [report_name(a.resuseslib, pid, 0),
               report_name(a.reslib, pid, 0)])
    check_report(load(tmp, report_name(a.resuseslib, pid, 0)), a.resuseslib,
                 pid, how, EXE)
    check_report(load(tmp, report_name(a.reslib, pid, 0)), a.reslib, pid,
                 how, LIB)
    if how == "exec":
        return
    # Through the API: each module's call reaches its own runtime.
    api = os.path.join(tmp, "api")
    os.mkdir(api)
    pid, out = run([a.resuseslib, "api"], api)
    lib, exe = out.split("----\n")
    check_report(parse(lib, "the library's report"), a.reslib, pid,
                 "request", LIB)
    check_report(parse(exe, "the executable's report"), a.resuseslib, pid,
                 "request", EXE)


def scenario_shared_library_exec(a, tmp):
    # The executable's exec writes the library's report too, as at exit.
    scenario_shared_library(a, tmp, "exec")


def scenario_shared_library_crash(a, tmp):
    # The executable's handler (installed last) runs first, then puts the
    # library's back and the fault recurs: both modules report.
    pid, _ = run([a.resuseslib, "crash"], tmp, status=-signal.SIGSEGV,
                 stdout="")
    only(tmp, [report_name(a.resuseslib, pid, 0),
               report_name(a.reslib, pid, 0)])
    check_report(load(tmp, report_name(a.resuseslib, pid, 0)), a.resuseslib,
                 pid, "signal", EXE, signal_number=signal.SIGSEGV)
    check_report(load(tmp, report_name(a.reslib, pid, 0)), a.reslib, pid,
                 "signal", LIB, signal_number=signal.SIGSEGV)


def scenario_dlopen(a, tmp):
    pid, _ = run([a.resdlopen, os.path.realpath(a.reslib)], tmp,
                 status=-signal.SIGSEGV,
                 stdout="before dlopen: default 1\nloaded: default 0\n"
                        "after dlclose: default 1\n")
    only(tmp, [report_name(a.reslib, pid, 0)])
    check_report(load(tmp, report_name(a.reslib, pid, 0)), a.reslib, pid,
                 "exit", [("lib_untested", 55, 1)])


# ---------------------------------------------------- hostile surroundings


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def scenario_secure(a, tmp):
    # Set-user-ID root programs run by nobody, umask 000, with the
    # environment naming a directory only root can write: nothing automatic
    # is written (no report at exit, crash or exec, no profile). A report the
    # program asks for, to a path it chose, is written, mode 0600.
    if os.geteuid() != 0:
        raise Skip("needs root (to make set-user-ID programs)")
    os.chmod(tmp, 0o755)  # nobody reaches the programs
    programs = os.path.join(tmp, "bin")
    os.mkdir(programs, 0o755)
    setuid = {}
    for name, path in (("residual", a.residual), ("prog", a.prog),
                       ("resuseslib", a.resuseslib)):
        setuid[name] = shutil.copy(path, programs)
        os.chown(setuid[name], 0, 0)
        os.chmod(setuid[name], 0o4755)
    etc = os.path.join(tmp, "etc")
    os.mkdir(etc, 0o755)
    asked = os.path.join(etc, "asked")
    os.mkdir(asked, 0o755)
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    hostile = {"PATHCOV_REPORT_DIR": os.path.join(etc, "x", "sub"),
               "PATHCOV_PROFILE_DIR": os.path.join(etc, "p"),
               "PATHCOV_DIAGNOSTICS": "always"}
    for cmd, status, stdout in (
            ([setuid["residual"], "counts"], 0, None),
            ([setuid["residual"], "crash", "segv"], -signal.SIGSEGV,
             "crashing\n"),
            ([setuid["prog"], "simple"], 0, ""),
            ([setuid["resuseslib"], "exec"], 0, ""),
            ([setuid["residual"], "report-off", asked, "exit"], 0,
             "write 0\n")):
        run(nobody + cmd, etc, status=status, stdout=stdout, env=hostile,
            umask=0)
    expect(files(etc), ["asked"], "files written where the caller said")
    only(asked, ["asked.json"], "the report the program asked for")
    expect((mode(os.path.join(asked, "asked.json")),
            os.stat(os.path.join(asked, "asked.json")).st_uid), (0o600, 0),
           "its mode and owner")


def scenario_modes(a, tmp):
    # umask 000: what the runtime makes is its user's only, directories
    # 0700, files 0600; an existing directory is left as it is.
    made = os.path.join(tmp, "made", "for", "output")
    proc = start([a.mixed], made, umask=0, cwd=tmp)
    proc.communicate()
    expect(proc.returncode, 0, "exit status")
    only(made, [profile_name(a.mixed, proc.pid, 0),
                report_name(a.mixed, proc.pid, 0)])
    expect([mode(os.path.join(made, name)) for name in files(made)],
           [0o600, 0o600], "modes of the profile and report")
    expect([mode(os.path.join(tmp, d)) for d in
            ("made", "made/for", "made/for/output")], [0o700] * 3,
           "modes of the directories made")
    os.chmod(made, 0o755)
    pid, _ = run([a.residual, "report-off", made, "exit"], made,
                 env={"PATHCOV_REPORT": "0"}, stdout="write 0\n", umask=0)
    expect((mode(os.path.join(made, "asked.json")), mode(made)),
           (0o600, 0o755), "the API's file and the existing directory")


def scenario_symlinks(a, tmp):
    # The report directory itself is never reached through a link; an
    # earlier component is, if root or this user owns the link.
    elsewhere = os.path.join(tmp, "elsewhere")
    os.mkdir(elsewhere)
    link = os.path.join(tmp, "link")
    os.symlink(elsewhere, link)
    loop = os.strerror(40)  # ELOOP
    run([a.residual, "counts"], tmp, env={"PATHCOV_REPORT_DIR": link},
        stdout=None, stderr=f"pathcov: cannot write report {link}: {loop}\n")
    run([a.residual, "crash", "segv"], tmp, env={"PATHCOV_REPORT_DIR": link},
        status=-signal.SIGSEGV, stdout="crashing\n",
        stderr=f"pathcov: cannot write report {link} (errno 40)\n")
    expect(files(elsewhere), [], "files written through the link")
    # A directory too long to keep at start-up: the crash says so.
    too_long = os.path.join(tmp, "d" * 5000)
    run([a.residual, "crash", "segv"], tmp,
        env={"PATHCOV_REPORT_DIR": too_long}, status=-signal.SIGSEGV,
        stdout="crashing\n",
        stderr="pathcov: cannot write report $PATHCOV_REPORT_DIR (errno 36)\n")
    pid, _ = run([a.residual, "counts"], tmp, stdout=None,
                 env={"PATHCOV_REPORT_DIR": os.path.join(link, "sub")})
    only(os.path.join(elsewhere, "sub"), [report_name(a.residual, pid, 0)],
         "through a link of this user's")
    if os.geteuid() != 0:
        return  # only root can give a link to another user
    planted = os.path.join(tmp, "planted")
    os.symlink(elsewhere, planted)
    os.lchown(planted, 65534, 65534)
    target = os.path.join(planted, "other")
    run([a.residual, "counts"], tmp, env={"PATHCOV_REPORT_DIR": target},
        stdout=None, stderr=f"pathcov: cannot write report {target}: {loop}\n")
    expect(files(elsewhere), ["sub"], "files written through nobody's link")


def scenario_planted_names(a, tmp):
    # Another user who knows the pid takes the names the report could have:
    # the temporary names of the old runtime (pid and counter), the first
    # final names (links to elsewhere). The report still lands, at the
    # first free name, and nothing planted changes.
    elsewhere = os.path.join(tmp, "elsewhere")
    os.mkdir(elsewhere)
    victim = os.path.join(elsewhere, "victim")
    with open(victim, "w") as f:
        f.write("victim\n")
    directory = os.path.join(tmp, "reports")
    os.mkdir(directory)

    def plant():
        pid = os.getpid()  # in the child: the program's
        for n in range(10):
            os.symlink(victim, os.path.join(
                directory, report_name(a.residual, pid, n)))
        final = report_name(a.residual, pid, 10)  # the first free one
        for n in range(100):
            open(os.path.join(directory, f".{final}-{pid}-{n}.tmp"),
                 "w").close()
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    proc = subprocess.Popen(
        [a.residual, "counts"], cwd=tmp, preexec_fn=plant,
        env={"PATHCOV_REPORT_DIR": directory}, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE)
    _, err = proc.communicate()
    expect((proc.returncode, err), (0, b""), "exit status and stderr")
    names = files(directory)
    expect(len(names), 10 + 100 + 1, "files: the planted ones and the report")
    expect(report_name(a.residual, proc.pid, 10) in names, True,
           "the report at the first free name")
    with open(victim) as f:
        expect(f.read(), "victim\n", "the planted links' target")
    check_report(load(directory, report_name(a.residual, proc.pid, 10)),
                 a.residual, proc.pid, "exit", COUNTS)


def scenario_diagnostics(a, tmp):
    # A program whose descriptor 2 is a data file (not opened for
    # appending) finds no diagnostic in it; a log opened for appending
    # does, and PATHCOV_DIAGNOSTICS=always writes whatever it is.
    blocker = os.path.join(tmp, "a-file")
    open(blocker, "w").close()
    unwritable = {"PATHCOV_REPORT_DIR": os.path.join(blocker, "sub")}
    data = os.path.join(tmp, "data")
    for cmd, status in (([a.residual, "counts"], 0),
                        ([a.residual, "crash", "segv"], -signal.SIGSEGV),
                        ([a.mixed], 0)):  # a start-up warning (module.c)
        for how, env, append, written in (
                ("data", {}, False, False),
                ("log", {}, True, True),
                ("forced", {"PATHCOV_DIAGNOSTICS": "always"}, False, True)):
            with open(data, "wb") as f:
                f.write(b"user data\n")
            with open(data, "ab" if append else "r+b") as f:
                f.seek(0, os.SEEK_END)
                proc = start(cmd, tmp, env={**unwritable, **env},
                             stdout=subprocess.DEVNULL, stderr=f)
                proc.communicate()
            expect(proc.returncode, status, f"{cmd} {how}: exit status")
            with open(data, "rb") as f:
                text = f.read()
            expect((text.startswith(b"user data\npathcov: "),
                    text == b"user data\n"), (written, not written),
                   f"{cmd} {how}: diagnostics in the file {text!r}")


if __name__ == "__main__":
    sys.exit(run_scenario(__doc__, ("residual", "mixed", "resbadabi", "reslib",
                                    "resuseslib", "resdlopen", "prog"),
                          globals()))
