#!/usr/bin/env python3
"""Checks the expected outputs against numbers worked out by hand.

usage: paper_values.py DIR

The NAME.expected.json files in DIR are compared with the whole output of
`pathcov number` by compare.py, so they must be right themselves. This
script holds the numbers that were checked by hand - from the papers'
figures, or derived with pencil and paper from their algorithms where a
figure gives none - and checks that each expected file contains them.

  [BL]  T. Ball, J. Larus. Efficient path profiling. MICRO 1996.
  [PPP] K. Vaswani, A. Nori, T. Chilimbi. Preferential path profiling:
        compactly numbering interesting paths. POPL 2007.

Keys: a path is its blocks joined by spaces (as pathcov prints them); a
DAG edge is "v->w" for a CFG edge, "start:w" for the dummy ENTRY->w that
starts paths at w and "end:v" for the dummy v->EXIT that ends them at v.
Increments and boundary codes are (Ball-Larus, PPP) pairs.
"""
import json
import math
import os
import sys

HAND_CHECKED = {
    # [PPP] Figure 3 and section 4. Block order s a b c d t, successors in
    # the order given, so Figure 1 numbers sacdt..sbct 0..5. The PPP weights
    # and ids are the paper's, including the three aliases of the
    # uninteresting paths (sabcdt -1, sabct 0, sbcdt 1). The frequencies are
    # all 0, so the spanning tree takes EXIT->ENTRY and then edges by id:
    # s->a, s->b, a->c, c->d; potentials BL s0 a0 b4 c0 d0 t0 and PPP
    # s0 a0 b2 c0 d0 t0 give the chord increments.
    "ppp-figure3": {
        "paths": {
            "s a c d t": (0, 0), "s a c t": (1, 1), "s a b c d t": (2, -1),
            "s a b c t": (3, 0), "s b c d t": (4, 1), "s b c t": (5, 2),
        },
        "interesting": ["s a c d t", "s a c t", "s b c t"],
        "ball_larus_values": {
            "s->a": 0, "s->b": 4, "a->c": 0, "a->b": 2, "b->c": 0,
            "c->d": 0, "c->t": 1, "d->t": 0,
        },
        "ppp_weights": {
            "s->a": 0, "s->b": 2, "a->c": 0, "a->b": None, "b->c": -1,
            "c->d": 0, "c->t": 1, "d->t": 0,
        },
        "spanning_tree": ["s->a", "s->b", "a->c", "c->d"],
        "chords": {
            "a->b": (-2, -2), "b->c": (4, 1), "c->t": (1, 1), "d->t": (0, 0),
        },
        "total_paths": 6, "interval_size": 3, "delta": 1.0,
    },
    # [PPP] Figure 6: no numbering puts these six paths in [0, 6); the
    # algorithm gets interval 7, delta 7/6. Ball-Larus ids from Figure 1:
    # s->a/b/c 0/3/6, d->e/f/g 0/1/2. Tree by edge id (frequencies 0);
    # potentials BL a0 b3 c6 d0 e0 f1 g2, PPP a0 b2 c5 d-1 e-1 f0 g1.
    "ppp-figure6": {
        "paths": {
            "s a d f t": (1, 0), "s a d g t": (2, 1), "s b d e t": (3, 2),
            "s b d g t": (5, 4), "s c d e t": (6, 5), "s c d f t": (7, 6),
        },
        "interesting": ["s a d f t", "s a d g t", "s b d e t", "s b d g t",
                        "s c d e t", "s c d f t"],
        "ppp_weights": {
            "s->a": 0, "s->b": 2, "s->c": 5, "a->d": -1, "b->d": 0,
            "c->d": 0, "d->e": 0, "d->f": 1, "d->g": 2, "e->t": 0,
            "f->t": 0, "g->t": 0,
        },
        "spanning_tree": ["s->a", "s->b", "s->c", "a->d", "d->e", "d->f",
                          "d->g"],
        "chords": {
            "b->d": (3, 3), "c->d": (6, 6), "e->t": (0, -1), "f->t": (1, 0),
            "g->t": (2, 1),
        },
        "total_paths": 9, "interval_size": 7, "delta": 7 / 6,
    },
    # [BL] Figure 5 (path ids) and its event-counting placement: with the
    # frequencies making A->B, C->D, D->F, E->F the maximum spanning tree,
    # the chords and increments are the paper's.
    "ball-larus-figure5": {
        "paths": {
            "A C D F": (0, None), "A C D E F": (1, None),
            "A B C D F": (2, None), "A B C D E F": (3, None),
            "A B D F": (4, None), "A B D E F": (5, None),
        },
        "interesting": [],
        "ball_larus_values": {
            "A->C": 0, "A->B": 2, "B->C": 0, "B->D": 2, "C->D": 0,
            "D->F": 0, "D->E": 1, "E->F": 0,
        },
        "spanning_tree": ["A->B", "C->D", "D->F", "E->F"],
        "chords": {
            "A->C": (0, 0), "B->C": (2, 0), "B->D": (4, 0), "D->E": (1, 0),
        },
        "total_paths": 6, "interval_size": None, "delta": None,
    },
    # [BL] Figure 10 / section 4: the back edge E->B gives the dummies
    # start:B and end:E, and four kinds of path (entry->exit, entry->back
    # edge, back edge->exit, back edge->back edge), all with distinct ids.
    # NumPaths E 2, C 2, D 2, B 4, A 8. Tree (frequencies; end:E as often
    # as the back edge, 9; start:B last): end:E, B->C, C->E, B->D;
    # potentials BL A0 B-1 C-1 D1 E-1 F0, PPP A0 B0 C0 D1 E0 F0.
    "ball-larus-figure10": {
        "paths": {
            "A B C E F": (0, 0), "A B C E": (1, 0), "A B D E F": (2, 1),
            "A B D E": (3, 1), "B C E F": (4, 1), "B C E": (5, 1),
            "B D E F": (6, 2), "B D E": (7, 2),
        },
        "interesting": ["A B C E F", "B C E F", "B D E"],
        "ball_larus_values": {
            "A->B": 0, "start:B": 4, "B->C": 0, "B->D": 2, "C->E": 0,
            "D->E": 0, "E->F": 0, "end:E": 1,
        },
        "ppp_weights": {
            "A->B": 0, "start:B": 1, "B->C": 0, "B->D": 1, "C->E": 0,
            "D->E": 0, "E->F": 0, "end:E": 0,
        },
        "spanning_tree": ["B->C", "B->D", "C->E", "end:E"],
        "chords": {
            "A->B": (1, 0), "start:B": (5, 1), "D->E": (2, 1), "E->F": (-1, 0),
        },
        "path_boundaries": {"E->B": ((0, 0), (5, 1))},
        "total_paths": 8, "interval_size": 3, "delta": 1.0,
    },
    # A self loop (back edge a->a), a call in d that may longjmp to the
    # setjmp receiver e (abnormal d->e, fake s->e) and a noreturn call in c
    # (fake c->t). NumPaths e1 d2 c1 b3 a4 s9; values s: s->a 0, start:a 4,
    # start:e 8. Path ends are as frequent as their edges (end:a 30, the
    # self loop's), path starts rank last. Tree: start:e (forced), end:a,
    # a->b, b->d, b->c; potentials BL a-3 b-3 c-3 d-2 e8, PPP e2 (others 0).
    "abnormal-self-loop": {
        "paths": {
            "s a b c": (0, 0), "s a b d t": (1, 0), "s a b d": (2, 0),
            "s a": (3, 0), "a b c": (4, 1), "a b d t": (5, 1),
            "a b d": (6, 1), "a": (7, 1), "e t": (8, 2),
        },
        "interesting": ["a", "s a b d t", "e t"],
        "ppp_weights": {
            "s->a": 0, "start:a": 1, "start:e": 2, "a->b": 0, "end:a": 0,
            "b->c": None, "b->d": 0, "end:c": None, "d->t": 0, "end:d": None,
            "e->t": 0,
        },
        "spanning_tree": ["start:e", "a->b", "end:a", "b->c", "b->d"],
        "chords": {
            "s->a": (3, 0), "start:a": (7, 1), "end:c": (-3, 0),
            "d->t": (-2, 0), "end:d": (-1, 0), "e->t": (8, 2),
        },
        "path_boundaries": {
            "a->a": ((0, 0), (7, 1)), "c->t": ((-3, 0), None),
            "d->e": ((-1, 0), (0, 0)), "s->e": (None, (0, 0)),
        },
        "total_paths": 9, "interval_size": 3, "delta": 1.0,
    },
    # [BL] section 5.3 cuts, on [PPP] Figure 6 with --path-limit 6: no inner
    # limit works until 1, which cuts d (3 paths); d->e, d->f, d->g then end
    # paths at d and start them at e, f, g: 6 paths instead of 9. Tree by
    # edge id, path starts last; potentials BL b1 c2 (others 0), PPP 0.
    "cut-figure6": {
        "paths": {
            "s a d": (0, 0), "s b d": (1, 0), "s c d": (2, 0), "e t": (3, 0),
            "f t": (4, 0), "g t": (5, 1),
        },
        "interesting": ["s b d", "g t"],
        "cuts": ["d"],
        "spanning_tree": ["s->a", "s->b", "s->c", "a->d", "e->t", "f->t",
                          "g->t"],
        "chords": {
            "start:e": (3, 0), "start:f": (4, 0), "start:g": (5, 1),
            "b->d": (1, 0), "c->d": (2, 0), "end:d": (0, 0),
        },
        "path_boundaries": {
            "d->e": ((0, 0), (3, 0)), "d->f": ((0, 0), (4, 0)),
            "d->g": ((0, 0), (5, 1)),
        },
        "total_paths": 6, "acyclic_paths": 9, "interval_size": 2,
        "delta": 1.0,
    },
}


def edge_key(edge):
    if edge["role"] == "path_start":
        return "start:" + edge["to"]
    if edge["role"] == "path_end":
        return "end:" + edge["from"]
    return edge["from"] + "->" + edge["to"]


def pair(increment):
    return None if increment is None else (increment["ball_larus"],
                                           increment["ppp"])


def contradictions(output, hand):
    """Yields a line for every hand-checked value the output contradicts."""
    def expect(what, actual, wanted):
        same = (math.isclose(actual, wanted)
                if isinstance(wanted, float) and actual is not None
                else actual == wanted)
        if not same:
            yield f"{what}: file has {actual!r}, by hand {wanted!r}"

    edges = output["dag"]["edges"]
    by_key = {edge_key(e): e for e in edges}
    listed = output.get("all_paths", output["interesting_paths"])
    paths = {" ".join(p["blocks"]): p for p in listed}
    for blocks, (bl_id, ppp_id) in hand["paths"].items():
        path = paths.get(blocks, {})
        yield from expect(f"path {blocks}: ball_larus_id",
                          path.get("ball_larus_id"), bl_id)
        if ppp_id is not None:
            yield from expect(f"path {blocks}: ppp_id", path.get("ppp_id"),
                              ppp_id)
    yield from expect("interesting_paths",
                      [" ".join(p["blocks"])
                       for p in output["interesting_paths"]],
                      hand["interesting"])
    for field, table in (("ball_larus_value", "ball_larus_values"),
                         ("ppp_weight", "ppp_weights")):
        for key, value in hand.get(table, {}).items():
            yield from expect(f"DAG edge {key}: {field}",
                              by_key.get(key, {}).get(field, "missing"), value)
    yield from expect("spanning_tree",
                      sorted(edge_key(edges[e])
                             for e in output["spanning_tree"]),
                      sorted(hand["spanning_tree"]))
    yield from expect("chords",
                      {edge_key(edges[c["dag_edge"]]): pair(c["increment"])
                       for c in output["chords"]},
                      hand["chords"])
    yield from expect("path_boundaries",
                      {f"{b['from']}->{b['to']}": (pair(b["path_end"]),
                                                   pair(b["path_start"]))
                       for b in output["path_boundaries"]},
                      hand.get("path_boundaries", {}))
    yield from expect("cuts", output["cuts"], hand.get("cuts", []))
    yield from expect("total_paths", output["total_paths"],
                      hand["total_paths"])
    yield from expect("acyclic_paths.count", output["acyclic_paths"]["count"],
                      hand.get("acyclic_paths", hand["total_paths"]))
    yield from expect("ppp.interval_size", output["ppp"]["interval_size"],
                      hand["interval_size"])
    yield from expect("ppp.delta", output["ppp"]["delta"], hand["delta"])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    failed = False
    for name, hand in HAND_CHECKED.items():
        path = os.path.join(sys.argv[1], name + ".expected.json")
        with open(path, encoding="utf-8") as f:
            found = list(contradictions(json.load(f), hand))
        if found:
            failed = True
            print(f"FAIL: {path}:\n  " + "\n  ".join(found))
        else:
            print(f"ok: {path}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
