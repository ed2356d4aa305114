#!/usr/bin/env python3
"""`make fuzz`: runs afl-fuzz on each reader of the fuzzing build's
pathcov_fuzz, one after the other, then prints what each run did. Exits 1
if any run found a crash or a hang, or could not run.

Usage: run_fuzz.py --build build-fuzz --seconds 60 [--quiet-for S] [--resume] [--keep] [READER...]
(no READER: every reader with a seed directory, build-fuzz/fuzz/seeds/).
Each run starts afresh in build-fuzz/fuzz/work/READER (afl-fuzz -o): copy
the findings of a run (its default/crashes, default/hangs) before the next.
With --resume, a run starts from the seeds and the queue the reader's last
run left there, so that runs add up until nothing new is found. With
--keep, the run's queue, minimized by afl-cmin, replaces the queue-*
seeds of testsuite/fuzz/READER/ (they are committed: a campaign on
another machine goes on from there; afl-cmin keeps an input for each
edge only one of them reaches). With --quiet-for S, a run also ends once
S seconds went by without a new path (AFL_EXIT_ON_TIME): the plateau a
campaign runs to; --seconds still bounds it.
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fuzzer_stats(out):
    stats = {}
    with open(os.path.join(out, "default", "fuzzer_stats")) as f:
        for line in f:
            key, _, value = line.partition(":")
            stats[key.strip()] = value.strip()
    return stats


def resumed_seeds(seeds, out):
    """The seeds and the queue of the last run in `out`, in one directory
    beside it (the last run's directory is about to go)."""
    merged = out + ".seeds"
    shutil.rmtree(merged, ignore_errors=True)
    shutil.copytree(seeds, merged)
    queue = os.path.join(out, "default", "queue")
    if os.path.isdir(queue):
        for name in os.listdir(queue):
            if name.startswith("id:"):
                shutil.copy(os.path.join(queue, name),
                            os.path.join(merged, "queue-" + name[3:9]))
    return merged


def keep_queue(driver, reader, out, seeds_dir):
    """The run's queue, minimized, as seeds_dir's queue-* files."""
    minimized = out + ".min"
    shutil.rmtree(minimized, ignore_errors=True)
    with open(out + ".cmin.log", "w") as log:
        subprocess.run(["afl-cmin", "-i", os.path.join(out, "default", "queue"),
                        "-o", minimized, "--", driver, reader, "@@"],
                       env=dict(os.environ, AFL_NO_AFFINITY="1"),
                       stdout=log, stderr=subprocess.STDOUT, check=True)
    os.makedirs(seeds_dir, exist_ok=True)
    for name in os.listdir(seeds_dir):
        if name.startswith("queue-"):
            os.remove(os.path.join(seeds_dir, name))
    for name in os.listdir(minimized):
        with open(os.path.join(minimized, name), "rb") as f:
            data = f.read()
        with open(os.path.join(seeds_dir, "queue-" + hashlib.sha1(data).hexdigest()[:16]),
                  "wb") as f:
            f.write(data)
    print(f"  (kept {len(os.listdir(minimized))} inputs in {seeds_dir})")


def run(driver, reader, seeds, out, seconds, quiet_for, resume):
    if resume:
        seeds = resumed_seeds(seeds, out)
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ,
               AFL_NO_UI="1",
               AFL_SKIP_CPUFREQ="1",
               # core_pattern may hand cores to a helper; the harness's
               # crashes are aborts AFL sees either way.
               AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1",
               # The machine may be shared: no core to bind to is fine.
               AFL_NO_AFFINITY="1")
    if quiet_for:
        env["AFL_EXIT_ON_TIME"] = str(quiet_for)
    command = ["afl-fuzz", "-i", seeds, "-o", out, "-V", str(seconds),
               "-t", "1000+", "--", driver, reader, "@@"]
    log = os.path.join(os.path.dirname(out), reader + ".log")
    with open(log, "w") as f:
        result = subprocess.run(command, env=env, stdout=f,
                                stderr=subprocess.STDOUT)
    if result.returncode != 0 or not os.path.exists(
            os.path.join(out, "default", "fuzzer_stats")):
        print(f"{reader}: afl-fuzz failed (exit {result.returncode}), see {log}")
        return False
    s = fuzzer_stats(out)
    since_find = int(s["last_update"]) - int(s["last_find"]) \
        if int(s["last_find"]) else None
    print(f"{reader}: {s['run_time']} s, {s['execs_done']} execs, "
          f"corpus {s['corpus_count']} ({s['corpus_found']} new), "
          f"last new path "
          + (f"{since_find} s before the end" if since_find is not None
             else "never")
          + f", crashes {s['saved_crashes']}, hangs {s['saved_hangs']}")
    return s["saved_crashes"] == "0" and s["saved_hangs"] == "0"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--quiet-for", type=int, default=0)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("readers", nargs="*")
    args = parser.parse_args()
    fuzz = os.path.join(os.path.abspath(args.build), "fuzz")
    readers = args.readers or sorted(os.listdir(os.path.join(fuzz, "seeds")))
    os.makedirs(os.path.join(fuzz, "work"), exist_ok=True)
    clean = True
    for reader in readers:
        started = time.monotonic()
        driver, out = os.path.join(fuzz, "pathcov_fuzz"), os.path.join(fuzz, "work", reader)
        ran = run(driver, reader, os.path.join(fuzz, "seeds", reader), out,
                  args.seconds, args.quiet_for, args.resume)
        if ran and args.keep:
            keep_queue(driver, reader, out,
                       os.path.join(TOP, "testsuite", "fuzz", reader))
        clean &= ran
        print(f"  ({time.monotonic() - started:.0f} s wall, findings in "
              f"{os.path.join(fuzz, 'work', reader, 'default')})")
    sys.exit(0 if clean else 1)


if __name__ == "__main__":
    main()
