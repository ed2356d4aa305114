"""Residual mode's compile-time statistics (-fplugin-arg-pathcov-stats).

Two plugin versions are supported:
- `-fplugin-arg-pathcov-stats=FILE` appends one JSON object per translation
  unit: {"unit": ..., "functions": {POLICY: n, ...}, "ppp_delta": {BUCKET: n},
  "path_ends": {"checked": n, "unchecked": n}}; the sums over units are used,
  a missing key counts 0, and policies are whatever keys appear.
- the older bare `-fplugin-arg-pathcov-stats` prints one line per unit on
  stderr, parsed with STATS_RE: the fallback when the file is absent or empty
  (a newer plugin given the bare flag prints the JSON object on stderr after
  "residual mode: ", also understood).
"""

import json
import os
import re

STATS_RE = re.compile(
    r"residual mode: (\d+) functions with a PPP table, (\d+) searched, (\d+) untested, "
    r"(\d+) stale; PPP delta 1: (\d+), \(1,2\]: (\d+), \(2,4\]: (\d+), over 4: (\d+)")
OLD_POLICIES = ["array", "sorted", "untested", "stale"]
DELTA_BUCKETS = ["1", "(1,2]", "(2,4]", "over 4"]
GROUPS = ["functions", "ppp_delta", "path_ends"]


def empty():
    return {"units": 0, "source": "none", "functions": {}, "ppp_delta": {}, "path_ends": {}}


def _add(dst, src):
    if not isinstance(src, dict):
        return
    for k, v in src.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            continue
        dst[k] = dst.get(k, 0) + int(v)


def parse_json_lines(text):
    """Sums the JSON objects (one per line) over units; None if there are none."""
    tot = empty()
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if not isinstance(obj, dict):
            continue
        tot["units"] += 1
        for g in GROUPS:
            _add(tot[g], obj.get(g))
    if not tot["units"]:
        return None
    tot["source"] = "json"
    return tot


STDERR_JSON_RE = re.compile(r"residual mode: (\{.*\})\s*$", re.M)


def parse_stderr(text):
    """The stderr lines: the old fixed sentence, or (plugins that know
    stats=FILE, given the bare flag) the same JSON object after 'residual mode: '."""
    got = parse_json_lines("\n".join(m.group(1) for m in STDERR_JSON_RE.finditer(text)))
    if got:
        got["source"] = "stderr json"
        return got
    tot = empty()
    for m in STATS_RE.finditer(text):
        tot["units"] += 1
        vals = [int(x) for x in m.groups()]
        _add(tot["functions"], dict(zip(OLD_POLICIES, vals[:4])))
        _add(tot["ppp_delta"], dict(zip(DELTA_BUCKETS, vals[4:])))
    if tot["units"]:
        tot["source"] = "stderr"
    return tot


def residual_stats(stats_file, log_text):
    """The JSON file if it has any unit, else the stderr lines of the build log."""
    if stats_file and os.path.exists(stats_file):
        with open(stats_file, errors="replace") as f:
            got = parse_json_lines(f.read())
        if got:
            return got
    return parse_stderr(log_text)


def ordered_keys(d, preferred):
    return [k for k in preferred if k in d] + sorted(k for k in d if k not in preferred)


def describe(group, d):
    """'array 12, sorted 3, ...' in a stable order, generic over the keys present."""
    pref = {"functions": ["bitmap", "array", "sorted", "untested", "stale", "complete"],
            "ppp_delta": DELTA_BUCKETS, "path_ends": ["checked", "unchecked"]}.get(group, [])
    keys = ordered_keys(d, pref)
    return ", ".join(f"{k}: {d[k]}" for k in keys) if keys else "-"


def skipped(text):
    return len(set(re.findall(r"'([^']+)' is not instrumented", text)))
