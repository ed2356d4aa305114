#!/usr/bin/env python3
"""The plugin's own error paths: bad arguments and a missing corpus stop
the compilation with one clear error; a function it cannot number is
compiled uninstrumented with a warning (off with warn-skipped=0) and
listed in the corpus with the reason; help prints the arguments; residual
mode's stats=FILE appends one JSON line per compilation; a function only
there for inlining (extern inline) and the constructors GCC adds itself
(-fsanitize=address, --coverage) are left alone.

usage: check_plugin.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import FAILURES, check, finish  # noqa: E402


def compile_with(plugin, args, output, extra=()):
    return subprocess.run(
        ["gcc", "-O2", *extra, f"-fplugin={plugin}",
         *[f"-fplugin-arg-pathcov-{a}" for a in args],
         os.path.join(HERE, "two_diamonds.c"), "-o", output, *LINK],
        capture_output=True, text=True)


def main():
    global LINK
    plugin, runtime, pathcov, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    LINK = [runtime, "-lpthread"]
    program = os.path.join(work, "program")

    for args, message in [
            (["frobnicate=1"], "pathcov: unknown argument 'frobnicate'"),
            (["array-threshold=many"], "pathcov: bad argument "
             "'array-threshold=many': expected a number"),
            (["peel-iterations=often"], "pathcov: bad argument "
             "'peel-iterations=often': expected a number"),
            (["peel-insns=99999999999"], "pathcov: bad argument "
             "'peel-insns=99999999999': expected a number"),
            (["two-choice-slots=some"], "pathcov: bad argument "
             "'two-choice-slots=some': expected a number"),
            (["system-headers=2"], "pathcov: bad argument "
             "'system-headers=2': expected 0 or 1"),
            (["k=0"], "pathcov: bad argument 'k=0': expected a number from 1 to 16"),
            (["k=17"], "pathcov: bad argument 'k=17': expected a number from 1 to 16"),
            (["mode=residual", f"corpus={HERE}/two_diamonds.c", "k=2"],
             "pathcov: k=N is for record mode (test builds)"),
            (["mode=residual"], "pathcov: mode=residual needs corpus=FILE"),
            (["mode=residual", "corpus=/nonexistent/corpus.json"],
             "pathcov: corpus /nonexistent/corpus.json: cannot open"),
            (["mode=residual", f"corpus={HERE}"],
             f"pathcov: corpus {HERE}: not a regular file")]:
        r = compile_with(plugin, args, program)
        check(r.returncode != 0, f"{args}: fails")
        check(message in r.stderr, f"{args}: says why", r.stderr)

    # A relative corpus name: the error says where it was looked up.
    r = subprocess.run(
        ["gcc", "-O2", f"-fplugin={plugin}", "-fplugin-arg-pathcov-mode=residual",
         "-fplugin-arg-pathcov-corpus=corpus.json",
         os.path.join(HERE, "two_diamonds.c"), "-c", "-o", program + ".o"],
        capture_output=True, text=True, cwd=work)
    check(r.returncode != 0 and
          f"corpus corpus.json: cannot open: No such file or directory (looked up in "
          f"{os.path.realpath(work)}, the working directory of the compiler" in r.stderr,
          "relative corpus: names the compiler's working directory",
          r.stderr)

    # Forgetting the runtime: the linker's message says what to do.
    r = subprocess.run(["gcc", "-O2", f"-fplugin={plugin}",
                        os.path.join(HERE, "two_diamonds.c"), "-o", program],
                       capture_output=True, text=True)
    check(r.returncode != 0 and
          "__pathcov_runtime_missing_link_with_lpathcov_rt" in r.stderr,
          "no runtime: the link error names the library", r.stderr)

    r = compile_with(plugin, ["help"], program)
    check(r.returncode == 0, "help: compiles", r.stderr)
    check("array-threshold=N" in r.stderr and "mode=residual" in r.stderr and
          "peel-iterations=N" in r.stderr,
          "help: lists the arguments")

    # Cannot be numbered within the limit: skipped, never a broken build.
    r = compile_with(plugin, ["path-limit=2"], program)
    check(r.returncode == 0, "skip: compiles", r.stderr)
    # GCC quotes the name with the locale's quotes.
    check("two_diamonds" in r.stderr and " is not instrumented: the function "
          "cannot be numbered within a path limit of 2" in r.stderr,
          "skip: warns", r.stderr)
    r = compile_with(plugin, ["path-limit=2", "warn-skipped=0"], program)
    check(r.returncode == 0 and "not instrumented" not in r.stderr,
          "warn-skipped=0: compiles quietly", r.stderr)
    profiles = os.path.join(work, "profiles")
    run = subprocess.run([program], capture_output=True, text=True,
                         env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
    check(run.stdout == "2\n", "skip: the program still works", run.stdout)
    corpus = os.path.join(work, "corpus.json")
    subprocess.run([pathcov, "collect", "-o", corpus, profiles], check=True)
    functions = {f["name"]: f for f in json.load(open(corpus))["functions"]}
    check("cannot be numbered" in functions.get("two_diamonds", {})
          .get("skipped", ""), "skip: listed in the corpus with the reason",
          str(functions.get("two_diamonds")))
    check(functions.get("main", {}).get("calls") == 1,
          "skip: the rest is instrumented", str(functions.get("main")))

    # A function only here for inlining is not numbered (as gcov does not).
    inline_program = os.path.join(work, "inline")
    twice = os.path.join(work, "twice.o")
    subprocess.run(["gcc", "-O2", "-c", os.path.join(HERE, "twice.c"), "-o",
                    twice], check=True)
    r = subprocess.run(["gcc", "-O2", f"-fplugin={plugin}",
                        os.path.join(HERE, "gnu_inline.c"), twice,
                        "-o", inline_program, *LINK],
                       capture_output=True, text=True)
    check(r.returncode == 0, "gnu_inline: compiles", r.stderr)
    inline_profiles = os.path.join(work, "profiles-inline")
    subprocess.run([inline_program], capture_output=True, check=True,
                   env={**os.environ, "PATHCOV_PROFILE_DIR": inline_profiles})
    inline_corpus = os.path.join(work, "inline.json")
    subprocess.run([pathcov, "collect", "-o", inline_corpus, inline_profiles],
                   check=True)
    names = sorted(f["name"] for f in json.load(open(inline_corpus))["functions"])
    check(names == ["main"], "gnu_inline: only main is numbered", str(names))

    # Constructors GCC adds to the unit (AddressSanitizer's, gcov's) are
    # not the user's code: only two_diamonds and main are numbered.
    sanitized = os.path.join(work, "sanitized")
    r = compile_with(plugin, [], sanitized,
                     extra=["-fsanitize=address", "--coverage"])
    check(r.returncode == 0, "-fsanitize=address --coverage: compiles", r.stderr)
    sanitized_profiles = os.path.join(work, "profiles-sanitized")
    subprocess.run([sanitized], capture_output=True, check=True, cwd=work,
                   env={**os.environ, "PATHCOV_PROFILE_DIR": sanitized_profiles})
    sanitized_corpus = os.path.join(work, "sanitized.json")
    subprocess.run([pathcov, "collect", "-o", sanitized_corpus,
                    sanitized_profiles], check=True)
    names = sorted(f["name"] for f in
                   json.load(open(sanitized_corpus))["functions"])
    check(names == ["main", "two_diamonds"],
          "compiler-made constructors are not numbered", str(names))

    # Residual statistics: two_diamonds ran 2 of its 4 paths (a bytemap, its
    # one path end checked), main its only path (complete: its path end is
    # not checked). One JSON line per compilation, appended.
    r = compile_with(plugin, [], program)
    check(r.returncode == 0, "record build", r.stderr)
    profiles = os.path.join(work, "profiles-stats")
    subprocess.run([program], capture_output=True, check=True,
                   env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
    subprocess.run([pathcov, "collect", "-o", corpus, profiles], check=True)
    stats = os.path.join(work, "stats.jsonl")
    for _ in range(2):
        r = compile_with(plugin, ["mode=residual", f"corpus={corpus}",
                                  f"stats={stats}"], program)
        check(r.returncode == 0 and "residual mode" not in r.stderr,
              "stats=FILE: compiles quietly", r.stderr)
    # The first residual compilation left an index of the tested paths
    # beside the corpus, the second used it; a damaged one is ignored (the
    # stats stay right) and made again.
    cache = corpus + ".pathcov-cache"
    check(os.path.exists(cache), "cache: written beside the corpus")
    with open(cache, "r+b") as f:
        f.seek(20)
        f.write(b"\xff" * 8)
    r = compile_with(plugin, ["mode=residual", f"corpus={corpus}",
                              f"stats={stats}"], program)
    check(r.returncode == 0, "cache: a damaged one is ignored", r.stderr)
    lines = [json.loads(line) for line in open(stats)]
    want = {"unit": os.path.join(HERE, "two_diamonds.c"),
            "functions": {"bytemap": 1, "array": 0, "hashed": 0, "sorted": 0, "untested": 0,
                          "stale": 0, "complete": 1},
            # PPP numbers the bytemap function's tested paths that end
            # where a check is; the complete function has no check.
            "ppp_delta": {"1": 1, "(1,2]": 0, "(2,4]": 0, "over 4": 0},
            # No route into the checked end has every path tested: each
            # arm of the second diamond follows both of the first's.
            "path_ends": {"checked": 1, "unchecked": 1, "tested_routes": 0},
            # The bytemap function's 4 paths: 4 seen slots of 16 bytes.
            "seen_slots": {"functions": 1, "bytes": 32},
            # two_diamonds has no loop.
            "peeled": {"loops": 0, "insns": 0, "tested_routes": 0},
            # Its path ends are on the edges into the second diamond's
            # arms (they and the return hold no event), where the first
            # diamond's routes meet, each with a constant id: one tested
            # route gets its own copy of the second test (1 statement and
            # the branch).
            "threaded": {"routes": 1, "stmts": 2}}
    check(lines == [{**want, "corpus": how} for how in ("indexed", "index", "indexed")],
          "stats=FILE: one line per compilation",
          json.dumps(lines))
    r = compile_with(plugin, ["mode=residual", f"corpus={corpus}", "stats"],
                     program)
    check("residual mode: {" in r.stderr, "stats: on stderr", r.stderr)
    # The corpus is a dependency of a residual-mode object (-MD, -MMD), so
    # that the build compiles it again when the corpus changes; of a record
    # one, it is not (record mode reads no corpus without corpus=). The
    # plugin is one of every object's.
    for mode, flag in (("residual", "-MD"), ("residual", "-MMD"), ("record", "-MD")):
        depfile = os.path.join(work, f"{mode}{flag}.d")
        args = ["mode=residual", f"corpus={corpus}"] if mode == "residual" else []
        r = compile_with(plugin, args, program, extra=[flag, "-MF", depfile])
        with open(depfile, encoding="utf-8") as f:
            deps = f.read()
        check(r.returncode == 0 and (corpus in deps) == (mode == "residual")
              and plugin in deps,
              f"{mode} {flag}: the corpus is {'' if mode == 'residual' else 'not '}"
              "a dependency, the plugin is", deps + r.stderr)
    # Under a regular file: no directory there, whoever made /nonexistent.
    not_a_directory = program + ".not-a-directory"
    open(not_a_directory, "w").close()
    unwritable = os.path.join(not_a_directory, "stats.jsonl")
    r = compile_with(plugin, ["mode=residual", f"corpus={corpus}",
                              f"stats={unwritable}"], program)
    check(r.returncode == 0 and "pathcov: cannot append statistics to "
          f"{unwritable}" in r.stderr,
          "stats=FILE unwritable: warns, still builds", r.stderr)

    # A unit whose file name is not UTF-8: named as the metadata names it
    # (U+00FF for the byte 0xff), never an internal compiler error.
    odd = os.path.join(os.fsencode(work), b"odd\xffname.c")
    shutil.copy(os.path.join(HERE, "two_diamonds.c"), odd)
    odd_stats = os.path.join(work, "odd-stats.jsonl")
    r = subprocess.run(["gcc", "-O2", f"-fplugin={plugin}",
                        "-fplugin-arg-pathcov-mode=residual",
                        f"-fplugin-arg-pathcov-corpus={corpus}",
                        f"-fplugin-arg-pathcov-stats={odd_stats}", "-c", odd,
                        "-o", os.path.join(work, "odd.o")],
                       capture_output=True, text=True, errors="replace")
    check(r.returncode == 0, "non-UTF-8 unit: compiles", r.stderr)
    units = [json.loads(line)["unit"] for line in open(odd_stats)] \
        if os.path.exists(odd_stats) else []
    check(len(units) == 1 and units[0].endswith("odd\u00ffname.c"),
          "non-UTF-8 unit: named with U+00FF", str(units))

    # A cache that cannot be written (a directory has its name) is not
    # needed: the build reads the JSON and leaves no temporary file.
    blocked = os.path.join(work, "blocked")
    os.makedirs(os.path.join(blocked, "corpus.json.pathcov-cache"))
    shutil.copy(corpus, os.path.join(blocked, "corpus.json"))
    blocked_stats = os.path.join(work, "blocked-stats.jsonl")
    r = compile_with(plugin, ["mode=residual",
                              f"corpus={os.path.join(blocked, 'corpus.json')}",
                              f"stats={blocked_stats}"], program)
    check(r.returncode == 0, "cache unwritable: builds", r.stderr)
    check([json.loads(line) for line in open(blocked_stats)] ==
          [{**want, "corpus": "json",
            "corpus_unindexed": "cannot write its index: Is a directory"}],
          "cache unwritable: the same plan, and why no index")
    check(sorted(os.listdir(blocked)) == ["corpus.json",
                                          "corpus.json.pathcov-cache",
                                          "corpus.json.pathcov-cache.lock"],
          "cache unwritable: no temporary file left",
          str(os.listdir(blocked)))

    return finish(FAILURES, "ok: plugin errors, help, skipped functions and "
                  "statistics")


if __name__ == "__main__":
    sys.exit(main())
