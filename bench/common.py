"""Shared helpers of the benchmark harness: running commands, inputs, checksums."""

import hashlib
import os
import random
import resource
import shlex
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_DIR = os.path.join(TOP, "bench")
COMMANDS = []  # every command the harness ran that matters, for the docs


class BenchError(Exception):
    pass


class BuildError(BenchError):
    """A build step failed: the command, its directory and the compiler's output."""

    def __init__(self, msg, cmd, cwd, output):
        super().__init__(msg)
        self.cmd, self.cwd, self.output = cmd, cwd, output


def log(msg):
    print("bench: " + msg, flush=True)


def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(cmd, cwd=None, env=None, quiet=False, record=True, check=True, build=False):
    """Runs cmd (a list, or a string for the shell); returns (stdout+stderr text, seconds):
    wall seconds, or with build=True the CPU seconds (user + system) of the build's
    processes, which the other core's load barely changes. With build=True a failure
    raises BuildError (kept for the docs' failure section)."""
    shell = isinstance(cmd, str)
    text = cmd if shell else " ".join(shlex.quote(c) for c in cmd)
    if record:
        COMMANDS.append((cwd, text))
    if not quiet:
        log("$ " + text + (f"   (in {cwd})" if cwd else ""))
    t0, cpu0 = time.monotonic(), children_cpu_seconds()
    p = subprocess.run(cmd, cwd=cwd, env=env, shell=shell,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace")
    dt = children_cpu_seconds() - cpu0 if build else time.monotonic() - t0
    if check and p.returncode != 0:
        sys.stdout.write(p.stdout[-6000:])
        msg = f"command failed ({p.returncode}): {text}" + (f"   (in {cwd})" if cwd else "")
        if build:
            raise BuildError(msg, text, cwd, p.stdout)
        raise BenchError(msg)
    return p.stdout, dt


def make_input(path, size):
    """Deterministic text-like data with some binary runs: compresses about 3:1."""
    if os.path.exists(path) and os.path.getsize(path) == size:
        return
    rng = random.Random(20250520)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 10)))
             for _ in range(4000)]
    weights = [1.0 / (i + 1) for i in range(len(words))]
    out = bytearray()
    while len(out) < size:
        line = " ".join(rng.choices(words, weights, k=rng.randint(4, 16)))
        if rng.random() < 0.2:
            line += " %d" % rng.randint(0, 10 ** 9)
        out += line.encode() + b"\n"
        if rng.random() < 0.002:
            out += rng.randbytes(rng.randint(16, 4096))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(out[:size])
    os.replace(tmp, path)


def sha256(path, normalize=None):
    h = hashlib.sha256()
    if normalize:
        with open(path, "rb") as f:
            h.update(normalize(f.read()))
        return h.hexdigest()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
