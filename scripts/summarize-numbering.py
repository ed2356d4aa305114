#!/usr/bin/env python3
"""Prints the gist of a `pathcov number` JSON document (stdin) for people."""
import json
import sys

doc = json.load(sys.stdin)
acyclic = doc["acyclic_paths"]
print(f"function {doc.get('function') or '?'}: {doc['total_paths']} numbered "
      f"paths ({acyclic['count']} acyclic), cuts: {doc['cuts'] or 'none'}")
ppp = doc["ppp"]
if doc["interesting_paths"]:
    print(f"interesting paths (PPP interval {ppp['interval_size']}, "
          f"delta {ppp['delta']:.3f}):")
    for p in doc["interesting_paths"]:
        print(f"  {' '.join(p['blocks']):<24} Ball-Larus id {p['ball_larus_id']:>3}"
              f"   PPP id {p['ppp_id']:>3}")
print("chords (one spanning tree, both registers on the same edges):")
for c in doc["chords"]:
    inc = c["increment"]
    print(f"  {c['from']}->{c['to']:<6} Ball-Larus {inc['ball_larus']:>+4}"
          f"   PPP {inc['ppp']:>+4}")
