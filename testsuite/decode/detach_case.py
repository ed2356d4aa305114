#!/usr/bin/env python3
"""Metadata detached from a stripped binary, found by build-id (docs/
residual-mode.md, "Where the metadata lives").

Builds programs/field.c in record mode, runs its tests and collects a
corpus; builds it in residual mode against that corpus, runs it so that it
writes a report, and checks that:
  - the records are in .debug.pathcov, not allocated (no A flag), and the
    binary has no other pathcov metadata section;
  - dwz (Debian's dh_dwz) takes a -g build, and its output decodes as
    before (dwz refused .debug_pathcov, an unknown DWARF section);
  - after `objcopy --only-keep-debug` and `strip -g`, the binary has no
    .debug.pathcov, and `pathcov decode --debug-dir DIR` (the records in
    DIR/.build-id/xx/rest.debug) prints exactly what it printed before
    stripping, as text and as JSON;
  - without --debug-dir, decode fails (exit 3) naming the build-id and the
    path it looked for under /usr/lib/debug;
  - a detached file with another build-id is refused, naming it;
  - a binary of an older plugin (the records in .debug_pathcov, here
    compressed by objcopy, as -gz did) decodes like the plain one;
  - record mode: `pathcov collect` of a stripped binary's profiles with
    --debug-dir (and with --binary) makes the same corpus as before
    stripping;
  - a binary that moved, another build in its place: `decode --binary`
    prints what decode printed before, its calling contexts' functions
    and lines too (found by build-id in the file named).
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import METADATA_SECTION, must, run  # noqa: E402
from decode_program import (FIELD_RUN, Program, arguments,  # noqa: E402
                            one_report)

failures = []


def fail(message):
    failures.append(message)


def sections(binary):
    """{name: flags} of binary's sections (readelf -S)."""
    found = {}
    for line in must(["readelf", "-SW", binary], "readelf -S").stdout \
            .splitlines():
        # "  [NN] NAME TYPE ADDRESS OFF SIZE ES FLG LK INF AL"
        if not line.strip().startswith("[") or "]" not in line:
            continue
        fields = line.split("]", 1)[1].split()
        if len(fields) >= 9 and fields[1] != "Type":
            # NAME TYPE ADDRESS OFF SIZE ES [FLG] LK INF AL: FLG is absent
            # when empty.
            found[fields[0]] = fields[6] if len(fields) == 10 else ""
    return found


def build_id(binary):
    for line in must(["readelf", "-n", binary], "readelf -n").stdout \
            .splitlines():
        if "Build ID:" in line:
            return line.split("Build ID:")[1].strip()
    sys.exit(f"FAIL: {binary} has no build-id")


def detach(binary, debug_dir):
    """objcopy --only-keep-debug, strip -g, the metadata placed where
    --debug-dir finds it; returns that path."""
    bid = build_id(binary)
    meta = os.path.join(debug_dir, ".build-id", bid[:2], bid[2:] + ".debug")
    os.makedirs(os.path.dirname(meta), exist_ok=True)
    must(["objcopy", "--only-keep-debug", binary, meta], "objcopy")
    must(["strip", "-g", binary], "strip -g")
    if METADATA_SECTION in sections(binary):
        fail(f"strip -g left {METADATA_SECTION} in {binary}")
    if METADATA_SECTION not in sections(meta):
        fail(f"objcopy --only-keep-debug dropped {METADATA_SECTION} ({meta})")
    return meta


def records_only(decoded):
    """without_times, and without the calling contexts, whose lines come
    from the DWARF, not from the records."""
    functions = without_times(decoded)
    for fn in functions:
        for p in fn["paths"]:
            p.pop("contexts", None)
    return functions


def without_times(decoded):
    """decode --json's functions without what differs between runs."""
    functions = decoded["reports"][0]["functions"]
    for fn in functions:
        for p in fn["paths"]:
            p.pop("thread", None)
            p.pop("first_seen_ns", None)
            p.pop("first_seen", None)
    return functions


def main():
    args = arguments().parse_args()
    program = Program(args)
    work = program.work
    pathcov = args.pathcov
    build = lambda name, extra: program.build(name, extra)[0]

    # Record mode: the tests, their profiles, the corpus.
    recorded = build("record", ["-DOLD_LEGACY"])
    corpus = program.record_corpus(recorded)
    profiles = program.profiles
    with open(corpus, encoding="utf-8") as f:
        before = f.read()

    # Residual mode, plain and -gz, each run once in the field.
    residual = ["-fplugin-arg-pathcov-mode=residual",
                f"-fplugin-arg-pathcov-corpus={corpus}", "-g"]
    field = build("residual", residual)
    compressed = build("residual-gz", residual + ["-gz"])
    reports = {}
    for program in (field, compressed):
        directory = os.path.join(os.path.dirname(program), "reports")
        env = dict(os.environ, PATHCOV_REPORT_DIR=directory)
        must([program, *FIELD_RUN], "the field run", env=env)
        reports[program] = one_report(directory)

    # (a) The records are not loaded.
    flags = sections(field)
    if METADATA_SECTION not in flags:
        fail(f"{field} has no section {METADATA_SECTION}: {sorted(flags)}")
    elif "A" in flags[METADATA_SECTION]:
        fail(f"{METADATA_SECTION} is allocated (flags {flags[METADATA_SECTION]})")
    if "pathcov_meta" in flags or ".debug_pathcov" in flags:
        fail(f"{field} still has an older metadata section: {sorted(flags)}")

    # (b) Stripped, decoded from the detached metadata, as before.
    report = reports[field]
    text = must([pathcov, "decode", report], "decode").stdout
    as_json = must([pathcov, "decode", "--json", report],
                   "decode --json").stdout
    moved = os.path.join(work, "moved", "field")
    os.makedirs(os.path.dirname(moved))
    shutil.copy(field, moved)
    debug_dir = os.path.join(work, "debug")
    meta = detach(field, debug_dir)
    stripped_text = must([pathcov, "decode", "--debug-dir", debug_dir, report],
                         "decode --debug-dir of the stripped binary").stdout
    if stripped_text != text:
        fail(f"decoded from {meta}:\n{stripped_text}\nbefore stripping:\n"
             f"{text}")
    stripped_json = must([pathcov, "decode", "--json", "--debug-dir",
                          "/nonexistent/pathcov", "--debug-dir", debug_dir,
                          report], "decode --json --debug-dir").stdout
    if stripped_json != as_json:
        fail("decode --json differs after stripping")

    # (c) Without --debug-dir: where it looked, which build-id.
    bid = build_id(field)
    default = f"/usr/lib/debug/.build-id/{bid[:2]}/{bid[2:]}.debug"
    failed = run([pathcov, "decode", report])
    if failed.returncode != 3 or failed.stdout or \
            default not in failed.stderr or bid not in failed.stderr or \
            METADATA_SECTION not in failed.stderr or \
            failed.stderr.count("\n") != 1:
        fail(f"decode of a stripped binary without its metadata: exit "
             f"{failed.returncode}, expected 3 and one line naming build-id "
             f"{bid} and {default}:\n{failed.stderr}")
    # A detached file of another build is refused.
    other = os.path.join(work, "other")
    wrong = os.path.join(other, ".build-id", bid[:2], bid[2:] + ".debug")
    os.makedirs(os.path.dirname(wrong))
    shutil.copy(recorded, wrong)
    failed = run([pathcov, "decode", "--debug-dir", other, report])
    if failed.returncode != 3 or f"{wrong} has build-id " not in \
            failed.stderr:
        fail(f"a detached file with another build-id: exit "
             f"{failed.returncode}:\n{failed.stderr}")

    # (d) dwz: the -g build's DWARF shrunk, its records kept, as dh_dwz
    # does; decoded like the build before.
    shrunk = os.path.join(work, "dwz", "field")
    os.makedirs(os.path.dirname(shrunk))
    shutil.copy(moved, shrunk)
    dwz = run(["dwz", shrunk])
    if dwz.returncode != 0:
        fail(f"dwz refused the -g build: {dwz.stderr.strip()}")
    shrunk_json = must([pathcov, "decode", "--json", "--binary", shrunk, report],
                       "decode after dwz").stdout
    if records_only(json.loads(shrunk_json)) != records_only(json.loads(as_json)):
        fail("the -g build decodes otherwise after dwz")

    # (e) A -gz build decodes like the plain one; so does an older
    # plugin's binary, its records in .debug_pathcov, compressed (as -gz
    # did; objcopy here).
    gz_json = must([pathcov, "decode", "--json", reports[compressed]],
                   "decode of the -gz build").stdout
    if without_times(json.loads(gz_json)) != \
            without_times(json.loads(as_json)):
        fail("the -gz build decodes differently")
    legacy = os.path.join(work, "legacy", "field")
    os.makedirs(os.path.dirname(legacy))
    must(["objcopy", f"--rename-section={METADATA_SECTION}=.debug_pathcov",
          "--compress-debug-sections=zlib", moved, legacy],
         "the older plugin's section name, compressed")
    legacy_flags = sections(legacy).get(".debug_pathcov")
    if legacy_flags is None or "C" not in legacy_flags:
        fail(f"objcopy left .debug_pathcov uncompressed (flags {legacy_flags})")
    legacy_json = must([pathcov, "decode", "--json", "--binary", legacy, report],
                       "decode of the older plugin's binary").stdout
    if records_only(json.loads(legacy_json)) != records_only(json.loads(as_json)):
        fail("the older plugin's binary decodes differently")

    # (f) As a Debian package installs it: the binary stripped of every
    # symbol, with a debug link, its debug file in a -dbgsym tree, both
    # named relative to the working directory. The calling contexts' frames
    # come from the debug file too, not from the stripped binary's dynamic
    # symbols alone ("?? <- ??": libdwfl looks up build-ids only under
    # absolute directories; brotli trial).
    package = os.path.join(work, "package")
    installed = os.path.join(package, "unp", "app", "usr", "bin", "field")
    os.makedirs(os.path.dirname(installed))
    shutil.copy(moved, installed)
    package_reports = os.path.join(package, "reports")
    must([installed, *FIELD_RUN], "the installed binary's field run",
         env=dict(os.environ, PATHCOV_REPORT_DIR=package_reports))
    package_report = one_report(package_reports)
    bid = build_id(installed)
    dbgsym = os.path.join("unp", "app-dbgsym", "usr", "lib", "debug")
    debug_file = os.path.join(package, dbgsym, ".build-id", bid[:2], bid[2:] + ".debug")
    os.makedirs(os.path.dirname(debug_file))
    must(["objcopy", "--only-keep-debug", installed, debug_file], "objcopy")
    must(["strip", "--strip-all", installed], "strip --strip-all")
    must(["objcopy", f"--add-gnu-debuglink={debug_file}", installed], "debug link")
    package_text = must([pathcov, "decode", "--debug-dir", dbgsym, package_report],
                        "decode with a relative --debug-dir", cwd=package).stdout
    frames = [line for line in package_text.splitlines() if "called from" in line]
    if not frames or any("??" in line for line in frames):
        fail(f"frames not named from the -dbgsym file:\n{package_text}")

    # Record mode: collect from the stripped binary's detached metadata.
    record_debug = os.path.join(work, "record-debug")
    detach(recorded, record_debug)
    for extra in ([], ["--binary", recorded]):
        after = os.path.join(work, "corpus-stripped.json")
        must([pathcov, "collect", "--debug-dir", record_debug, *extra, "-o",
              after, profiles], "collect --debug-dir")
        with open(after, encoding="utf-8") as f:
            if f.read() != before:
                fail(f"collect {' '.join(extra)} from the detached metadata "
                     "made another corpus")
    failed = run([pathcov, "collect", "--debug-dir", os.path.join(work, "no"),
                  profiles])
    if failed.returncode != 3 or build_id(recorded) not in failed.stderr:
        fail(f"collect without the detached metadata: exit "
             f"{failed.returncode}:\n{failed.stderr}")

    # (e) Moved, another build in its place: --binary names it.
    shutil.copy(recorded, field)
    moved_text = must([pathcov, "decode", "--binary", moved, report],
                      "decode --binary of a moved binary").stdout
    said = f"  metadata from {moved}\n"
    if said not in moved_text or moved_text.replace(said, "", 1) != text:
        fail(f"decoded with --binary {moved}:\n{moved_text}\nbefore it "
             f"moved:\n{text}")

    if failures:
        sys.exit("FAIL:\n" + "\n".join(failures))
    print(f"ok: {field} decoded and collected from detached metadata "
          f"({os.path.relpath(meta, work)}), -gz decoded")


if __name__ == "__main__":
    main()
