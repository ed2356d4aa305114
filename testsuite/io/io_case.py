#!/usr/bin/env python3
"""How the tools read untrusted files and write outputs (docs/merge.md,
"Inputs and outputs"): one case per run.

usage: io_case.py --pathcov PATHCOV --testsuite DIR --workdir DIR CASE

Output cases: a write that fails (a file-size limit) leaves the old output
intact; a kill -9 at any moment leaves the old output or the whole new one;
a replaced output keeps its permission bits and a new one honours the umask;
concurrent writers leave one whole output. Input cases: FIFOs, symbolic
links, devices, a sparse 5 GB file and endless standard input are rejected
or skipped at once, never waited on or read to the end.
"""
import argparse
import json
import os
import random
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time

# Seconds: a tool that waits on a FIFO fails rather than hangs (shorter to
# try the cases on a tool that does wait).
TIMEOUT = int(os.environ.get("IO_CASE_TIMEOUT", 30))
ARGS = {"report": ["--format", "lcov"]}  # what a command needs besides FILE


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(command, stdin=subprocess.DEVNULL, preexec_fn=None):
    try:
        return subprocess.run(command, stdin=stdin, capture_output=True,
                              timeout=TIMEOUT, preexec_fn=preexec_fn)
    except subprocess.TimeoutExpired:
        fail(f"still running after {TIMEOUT} s: {command}")


def expect(run_result, exit_code, *texts, one_line=True):
    stderr = run_result.stderr.decode(errors="replace")
    problems = []
    if run_result.returncode != exit_code:
        problems.append(f"exit code {run_result.returncode}, expected {exit_code}")
    if one_line and stderr.count("\n") != 1:
        problems.append("standard error is not exactly one line")
    problems += [f"standard error lacks {t!r}" for t in texts if t not in stderr]
    if problems:
        fail("; ".join(problems) + f"\nstandard error was:\n{stderr}")
    print(f"ok: exit code {run_result.returncode}: {stderr.strip()}")


def leftovers(directory):
    return [n for n in os.listdir(directory) if ".pathcov-" in n]


def big_report(path, paths):
    """A report of `paths` residual paths of a function no corpus has:
    merge sets them all aside, so its output is about as large."""
    entries = ",\n".join(
        '{"identity": "big.c:f", "checksum": "0123456789abcdef", '
        f'"id": {i}, "count": 1, "first_seen_ns": {i}, "thread": 1}}'
        for i in range(paths))
    with open(path, "w") as out:
        out.write('{"format": "pathcov-report", "format_version": "2.0", '
                  '"module": "/nonexistent/big", "build_id": null, '
                  '"pid": 1, "started_ns": 1, "written_ns": 2, '
                  '"reason": "exit", "residual_paths": [\n' + entries +
                  '], "dropped_paths": 0}\n')


def case_write_failure(args, work):
    """ulimit -f: the write fails with EFBIG; the old corpus survives."""
    out = os.path.join(work, "corpus.json")
    old = b'{"old": "corpus"}\n' * 1000  # 18 KB
    with open(out, "wb") as f:
        f.write(old)
    report = os.path.join(work, "report.json")
    big_report(report, 2000)  # a merged output of about 200 KB

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))
    result = run([args.pathcov, "merge", "-o", out, args.corpus, report],
                 preexec_fn=limit)
    expect(result, 4, f"pathcov merge: {out}: cannot write: File too large")
    with open(out, "rb") as f:
        if f.read() != old:
            fail("the old output was changed by the failed write")
    if leftovers(work):
        fail(f"temporary files left behind: {leftovers(work)}")


def case_kill(args, work):
    """kill -9 while merge writes (the moment the output changes, and at
    random moments): the output is the old one or the whole new one."""
    out = os.path.join(work, "corpus.json")
    report = os.path.join(work, "report.json")
    big_report(report, 50000)  # about 5 MB out
    command = [args.pathcov, "merge", "-q", "-o", out, args.corpus, report]
    if run(command).returncode != 0:
        fail("the merge itself fails")
    with open(out, "rb") as f:
        new = f.read()
    old = b'{"old": "corpus"}\n'
    rng = random.Random(42)
    for trial in range(6):
        with open(out, "wb") as f:
            f.write(old)
        before = os.stat(out)
        process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + (rng.uniform(0, 2) if trial % 2 else TIMEOUT)
        while process.poll() is None and time.monotonic() < deadline:
            now = os.stat(out)
            if (now.st_ino, now.st_size, now.st_mtime_ns) != \
               (before.st_ino, before.st_size, before.st_mtime_ns):
                break  # the output changed: kill it right there
        process.send_signal(signal.SIGKILL)
        process.wait()
        with open(out, "rb") as f:
            content = f.read()
        if content not in (old, new):
            fail(f"trial {trial}: after kill -9 the output is {len(content)} "
                 f"bytes, neither the old {len(old)} nor the new {len(new)}")
        print(f"trial {trial}: {'new' if content == new else 'old'} output")
        for name in leftovers(work):  # a killed writer leaves its temporary
            os.unlink(os.path.join(work, name))


def case_modes(args, work):
    """A replaced output keeps its mode; a new one gets 0666 less umask."""
    out = os.path.join(work, "corpus.json")
    with open(out, "w") as f:
        f.write("old\n")
    os.chmod(out, 0o604)
    os.umask(0o027)
    if run([args.pathcov, "merge", "-o", out, args.corpus]).returncode:
        fail("merge failed")
    if stat.S_IMODE(os.stat(out).st_mode) != 0o604:
        fail(f"mode {oct(os.stat(out).st_mode)} after replacing a 0604 file")
    fresh = os.path.join(work, "new.json")
    if run([args.pathcov, "merge", "-o", fresh, args.corpus]).returncode:
        fail("merge failed")
    if stat.S_IMODE(os.stat(fresh).st_mode) != 0o640:
        fail(f"new file mode {oct(os.stat(fresh).st_mode)}, umask 027")
    # A symbolic link at the output is replaced, not written through.
    target = os.path.join(work, "target.json")
    with open(target, "w") as f:
        f.write("target\n")
    link = os.path.join(work, "link.json")
    os.symlink(target, link)
    if run([args.pathcov, "merge", "-o", link, args.corpus]).returncode:
        fail("merge failed")
    if os.path.islink(link) or open(target).read() != "target\n":
        fail("merge wrote through the symbolic link at its output")
    print("ok: modes kept, umask honoured, link replaced")


def case_concurrent(args, work):
    """Writers of one output: it ends up one whole output, never a mix."""
    out = os.path.join(work, "corpus.json")
    outputs = []
    commands = []
    for n in range(4):
        report = os.path.join(work, f"report{n}.json")
        big_report(report, 5000 * (n + 1))
        expected = os.path.join(work, f"expected{n}.json")
        if run([args.pathcov, "merge", "-o", expected, report]).returncode:
            fail("merge failed")
        outputs.append(open(expected, "rb").read())
        commands.append([args.pathcov, "merge", "-q", "-o", out, report])
    for trial in range(5):
        processes = [subprocess.Popen(c) for c in commands]
        if any(p.wait(timeout=TIMEOUT) for p in processes):
            fail("a merge failed")
        if open(out, "rb").read() not in outputs:
            fail(f"trial {trial}: the output is not one writer's whole output")
    if leftovers(work):
        fail(f"temporary files left behind: {leftovers(work)}")
    print("ok: one whole output each time")


def make_fifo(work, name):
    path = os.path.join(work, name)
    os.mkfifo(path)
    return path


def case_fifo_in_directory(args, work):
    """merge DIR: a FIFO, a link and a subdirectory named *.json are
    skipped, one line each, and the corpus beside them is merged."""
    reports = os.path.join(work, "reports")
    os.mkdir(reports)
    shutil.copy(args.corpus, os.path.join(reports, "a.json"))
    fifo = make_fifo(reports, "fifo.json")
    link = os.path.join(reports, "link.json")
    os.symlink("/etc/passwd", link)
    os.mkdir(os.path.join(reports, "sub.json"))
    out = os.path.join(work, "out.json")
    result = run([args.pathcov, "merge", "-o", out, reports])
    expect(result, 0, f"pathcov merge: {fifo}: skipped: a FIFO",
           f"pathcov merge: {link}: skipped: a symbolic link",
           one_line=False)
    if result.stderr.decode().count("\n") != 3:
        fail("expected one line for each of the three skipped entries")
    json.load(open(out))
    profiles = os.path.join(work, "profiles")
    os.mkdir(profiles)
    fifo = make_fifo(profiles, "pathcov-1.json")
    expect(run([args.pathcov, "collect", profiles]), 3,
           f"pathcov collect: {fifo}: skipped: a FIFO",
           f"pathcov collect: no pathcov-*.json profile in {profiles}",
           one_line=False)


def case_fifo_named(args, work):
    """A FIFO named as an input, a --binary or a report's module: exit 3,
    one line naming it."""
    fifo = make_fifo(work, "x.json")
    for command in ("merge", "show", "decode", "collect", "report", "gate"):
        expect(run([args.pathcov, command, *ARGS.get(command, []), fifo]), 3,
               f"pathcov {command}: {fifo}: not a regular file: a FIFO")
    expect(run([args.pathcov, "number", fifo]), 3,
           f"pathcov number: {fifo}: not a regular file: a FIFO")
    expect(run([args.pathcov, "collect", "--binary", fifo, args.profile]), 3,
           f"pathcov collect: {fifo}: not a regular file: a FIFO")
    expect(run([args.pathcov, "decode", "--binary", fifo, args.report]), 3,
           f"pathcov decode: {fifo}: not a regular file: a FIFO")
    module = make_fifo(work, "module")
    for name, source, command in (("report.json", args.report, "decode"),
                                  ("profile.json", args.profile, "collect")):
        doc = json.load(open(source))
        doc["module"] = module
        doc["build_id"] = None
        path = os.path.join(work, name)
        json.dump(doc, open(path, "w"))
        expect(run([args.pathcov, command, path]), 3,
               f"pathcov {command}: {path}: {module}: not a regular file: a FIFO")
    config = make_fifo(work, "gate.cfg")
    expect(run([args.pathcov, "gate", "--config", config, args.corpus]), 2,
           f"{config}: cannot open the config file: not a regular file: a FIFO")


def case_huge_file(args, work):
    """A sparse 5 GB file: rejected from its size, at once."""
    huge = os.path.join(work, "huge.json")
    with open(huge, "wb") as f:
        f.truncate(5 << 30)
    for command in ("merge", "show", "collect", "decode", "number"):
        expect(run([args.pathcov, command, huge]), 3,
               f"pathcov {command}: {huge}: is 5368709120 bytes, larger than "
               "the input limit of 512 MiB")


def case_devices(args, work):
    """/dev/zero named: not a regular file; as standard input: not JSON
    from its first byte; endless blanks on standard input: the limit."""
    for command in ("merge", "show", "number"):
        expect(run([args.pathcov, command, "/dev/zero"]), 3,
               f"pathcov {command}: /dev/zero: not a regular file: a device")
    with open("/dev/zero", "rb") as zero:
        expect(run([args.pathcov, "show", "-"], stdin=zero), 3,
               "pathcov show: <stdin>: parse error at line 1, column 1")
    blanks = subprocess.Popen(
        [sys.executable, "-c",
         "import sys\nb = b' ' * (1 << 20)\n"
         "try:\n while True: sys.stdout.buffer.write(b)\n"
         "except BrokenPipeError: pass"],
        stdout=subprocess.PIPE)
    expect(run([args.pathcov, "show", "-"], stdin=blanks.stdout), 3,
           "pathcov show: <stdin>: larger than the input limit of 512 MiB")
    blanks.kill()
    blanks.wait()


def leaves(doc, where=()):
    """The places of the scalars and empty containers in `doc`."""
    items = (doc.items() if isinstance(doc, dict) else
             enumerate(doc) if isinstance(doc, list) else ())
    found = False
    for key, value in items:
        found = True
        yield from leaves(value, where + (key,))
    if not found:
        yield where


def replaced(doc, where, value):
    if not where:
        return value
    copy = json.loads(json.dumps(doc))
    parent = copy
    for key in where[:-1]:
        parent = parent[key]
    parent[where[-1]] = value
    return copy


def case_mutations(args, work):
    """Every value of a good profile, corpus, report and CFG replaced by
    one of another type or out of range: each command says which file is
    bad (exit 3) or takes it; never an internal error (exit 70)."""
    others = [None, "x", {}, 18446744073709551616]
    inputs = [("collect", args.profile), ("show", args.corpus),
              ("gate", args.corpus), ("report", args.corpus),
              ("merge", args.report), ("merge", args.corpus),
              ("number", os.path.join(args.testsuite,
                                      "number/ppp-figure3.json"))]
    path = os.path.join(work, "mutant.json")
    runs = 0
    for command, source in inputs:
        doc = json.load(open(source))
        for where in leaves(doc):
            for value in others:
                json.dump(replaced(doc, where, value), open(path, "w"))
                result = run([args.pathcov, command,
                              *ARGS.get(command, []), path])
                runs += 1
                stderr = result.stderr.decode(errors="replace")
                if result.returncode not in (0, 1, 3) or \
                   (result.returncode == 3 and
                    f"pathcov {command}: {path}: " not in stderr):
                    fail(f"{command} {source} with {list(where)} = "
                         f"{json.dumps(value)}: exit code "
                         f"{result.returncode}: {stderr}")
    print(f"ok: {runs} mutants")


CASES = {
    "mutations": case_mutations,
    "write-failure": case_write_failure,
    "kill": case_kill,
    "modes": case_modes,
    "concurrent": case_concurrent,
    "fifo-in-directory": case_fifo_in_directory,
    "fifo-named": case_fifo_named,
    "huge-file": case_huge_file,
    "devices": case_devices,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pathcov", required=True)
    parser.add_argument("--testsuite", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("case", choices=CASES)
    args = parser.parse_args()
    args.corpus = os.path.join(args.testsuite, "collect/good/corpus.json")
    args.profile = os.path.join(args.testsuite, "collect/good/profile.json")
    args.report = os.path.join(args.testsuite, "decode/good/report-exit.json")
    work = os.path.join(args.workdir, args.case)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    CASES[args.case](args, work)


if __name__ == "__main__":
    main()
