"""Residual mode on random C programs (csmith): each program's only run is
recorded into a corpus, the release build against it must print what plain
-O2 prints and report nothing (every path it runs is tested: the PPP
paper's setting), and the record build must print the same too. Checks
the instrumentation, loop peeling included, on code nobody wrote for it.

usage: csmith_differential.py PLUGIN RUNTIME PATHCOV WORKDIR OPT SEED...
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

CSMITH_INCLUDE = "/usr/include/csmith"
RUN_SECONDS = 10
# The instrumented builds may run slower; a hang still fails.
INSTRUMENTED_SECONDS = 6 * RUN_SECONDS


def run(program, env=None, seconds=RUN_SECONDS):
    """The program's output, or None when it runs too long (csmith
    programs may loop for minutes: such a seed proves nothing)."""
    try:
        r = subprocess.run([program], capture_output=True, text=True,
                           timeout=seconds, env=env)
    except subprocess.TimeoutExpired:
        return None
    return r.returncode, r.stdout


def main():
    plugin, runtime, pathcov, work, opt = sys.argv[1:6]
    seeds = sys.argv[6:]
    failures, checked, peeled = [], 0, 0
    for seed in seeds:
        d = testlib.fresh_directory(os.path.join(work, f"seed-{seed}"))
        source = os.path.join(d, "program.c")
        with open(source, "w") as f:
            # In the seed's directory: csmith writes platform.info there.
            f.write(testlib.must(["csmith", "--seed", seed],
                                 f"csmith seed {seed}", cwd=d).stdout)

        def build(variant, *plugin_args):
            """Builds d/variant; with the plugin, linked with the runtime."""
            runtime_args = [runtime, "-lpthread"] if plugin_args else []
            testlib.must(["gcc", opt, "-w", f"-I{CSMITH_INCLUDE}", *plugin_args,
                          source, "-o", os.path.join(d, variant), *runtime_args],
                         f"seed {seed}: {variant} build")

        build("plain")
        expected = run(os.path.join(d, "plain"))
        if expected is None:
            continue

        def same_output(variant, variable, directory):
            """Runs the variant's program with `variable` naming `directory`;
            notes a failure unless it printed what plain did."""
            got = run(os.path.join(d, variant),
                      dict(os.environ, **{variable: directory}),
                      INSTRUMENTED_SECONDS)
            if got != expected:
                failures.append(f"seed {seed}: the {variant} build printed "
                                f"{got!r}, plain {expected!r}")
            return got == expected

        build("record", f"-fplugin={plugin}")
        profiles = os.path.join(d, "profiles")
        if not same_output("record", "PATHCOV_PROFILE_DIR", profiles):
            continue
        corpus = os.path.join(d, "corpus.json")
        testlib.must([pathcov, "collect", "-o", corpus, profiles],
                     f"seed {seed}: collect")
        stats = os.path.join(d, "stats.jsonl")
        build("residual", f"-fplugin={plugin}",
              "-fplugin-arg-pathcov-mode=residual",
              f"-fplugin-arg-pathcov-corpus={corpus}",
              f"-fplugin-arg-pathcov-stats={stats}")
        reports = os.path.join(d, "reports")
        same_output("residual", "PATHCOV_REPORT_DIR", reports)
        if os.path.isdir(reports) and os.listdir(reports):
            failures.append(f"seed {seed}: the residual build reported "
                            f"{sorted(os.listdir(reports))} on its corpus's run")
        with open(stats) as f:
            peeled += sum(json.loads(line)["peeled"]["loops"] for line in f)
        checked += 1
    # Enough programs ran to say something, and peeling was exercised.
    if checked < len(seeds) // 2:
        failures.append(f"only {checked} of {len(seeds)} programs ran within "
                        f"{RUN_SECONDS} s")
    if opt != "-O0" and peeled == 0:
        failures.append("no loop was peeled in any program")
    return testlib.finish(failures, f"ok: {checked} csmith programs at {opt}, "
                          f"identical output, no report; {peeled} loops peeled")


if __name__ == "__main__":
    sys.exit(main())
