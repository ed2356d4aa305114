"""Residual mode's compile-time statistics: -fplugin-arg-pathcov-stats=FILE
appends one JSON object per translation unit: {"unit": ..., "functions":
{POLICY: n, ...}, "ppp_delta": {BUCKET: n}, "path_ends": {"checked": n,
"unchecked": n, "tested_routes": n}, "seen_slots": {"functions": n, "bytes": n}, "peeled": {"loops":
n, "insns": n, "tested_routes": n}, "threaded": {"routes": n, "stmts": n}}. The sums over
the package's own units are used (a configure script's test programs, whose
sources are gone after the build, are not the package's), a missing key
counts 0, and policies are whatever keys appear.
"""

import json
import os
import re

DELTA_BUCKETS = ["1", "(1,2]", "(2,4]", "over 4"]
GROUPS = ["functions", "ppp_delta", "path_ends", "seen_slots", "peeled", "threaded"]


def empty():
    return {"units": 0, "functions": {}, "ppp_delta": {}, "path_ends": {},
            "seen_slots": {}, "peeled": {}, "threaded": {}}


def _add(dst, src):
    if not isinstance(src, dict):
        return
    for k, v in src.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            continue
        dst[k] = dst.get(k, 0) + int(v)


def _sources(build_dir):
    """Every file under build_dir, as paths relative to it."""
    found = set()
    for root, _, files in os.walk(build_dir):
        rel = os.path.relpath(root, build_dir)
        for name in files:
            found.add(os.path.normpath(os.path.join(rel, name)))
    return found


def _is_package_unit(unit, sources):
    """A unit name is relative to the compiler's directory, which may be any
    directory of the build (lua builds in src/, xz in src/liblzma/...)."""
    if os.path.isabs(unit):
        return os.path.exists(unit)
    unit = os.path.normpath(unit)
    return any(s == unit or s.endswith(os.sep + unit) for s in sources)


def residual_stats(stats_file, build_dir):
    """Sums the JSON lines of the units whose source is still there,
    somewhere in the build directory."""
    tot = empty()
    if not os.path.exists(stats_file):
        return tot
    sources = _sources(build_dir)
    with open(stats_file, errors="replace") as f:
        for line in f:
            obj = json.loads(line)
            if not _is_package_unit(obj["unit"], sources):
                continue
            tot["units"] += 1
            for g in GROUPS:
                _add(tot[g], obj.get(g))
    return tot


def ordered_keys(d, preferred):
    return [k for k in preferred if k in d] + sorted(k for k in d if k not in preferred)


def describe(group, d):
    """'array 12, sorted 3, ...' in a stable order, generic over the keys present."""
    pref = {"functions": ["bytemap", "array", "hashed", "sorted", "untested", "stale", "complete"],
            "ppp_delta": DELTA_BUCKETS, "path_ends": ["checked", "unchecked", "tested_routes"],
            "seen_slots": ["functions", "bytes"],
            "peeled": ["loops", "insns", "tested_routes"], "threaded": ["routes", "stmts"]}.get(group, [])
    keys = ordered_keys(d, pref)
    return ", ".join(f"{k}: {d[k]}" for k in keys) if keys else "-"


def skipped(text):
    return len(set(re.findall(r"'([^']+)' is not instrumented", text)))
