"""Runs a suffix-decoding workload through a ``SuffixDecodingCache`` and prints what it proposed.

Run by arctic-inference's interpreter (``python arctic_driver.py < workload.json``), it drives
``arctic_inference.suffix_decoding.SuffixDecodingCache``; the tests import :func:`run` and drive
Tandem's own cache with the very same steps. The module needs nothing but the standard library
(and arctic-inference when run as a script), never ``app``.

A workload is ``{"cache": {"max_tree_depth": 64}, "spec": {...}, "ops": [...]}``; ``spec`` holds
``max_spec_tokens``, ``max_spec_factor``, ``max_spec_offset``, ``min_token_prob``. Operations:

* ``["start", rid, prompt]``, ``["add", rid, tokens]``, ``["stop", rid]``;
* ``["spec", rid, context]``: one proposal;
* ``["decode", [[rid, prompt, answer], ...], advance]``: the requests are started, then decoded
  round-robin (concurrently) until each has produced its whole ``answer`` (the tokens a target
  model would choose): at each step the cache proposes a draft after prompt + answer so far, the
  accepted tokens are the draft's longest prefix equal to the answer's next tokens, and the
  request advances by one token (``advance`` "one": every position is proposed from, the drafts
  of two caches are comparable step by step) or by the accepted tokens and one more ("accepted":
  speculative decoding as it runs); each request is stopped when its answer is complete.

Output: ``{"results": [...]}`` with one entry per proposal, in order: ``{"draft": [...],
"accepted": n (decode only), "us": microseconds}`` or ``{"error": "ExceptionName"}``; errors of
start/add/stop are reported the same way (``{"op": "stop", "error": ...}``).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any


def _accepted(draft: Sequence[int], truth: Sequence[int]) -> int:
    n = 0
    while n < len(draft) and n < len(truth) and draft[n] == truth[n]:
        n += 1
    return n


def run(cache: Any, workload: dict[str, Any]) -> list[dict[str, Any]]:
    """Drive ``cache`` (arctic's SuffixDecodingCache API) through ``workload``."""
    spec = workload.get("spec", {})
    args = (
        int(spec.get("max_spec_tokens", 16)),
        float(spec.get("max_spec_factor", 1.0)),
        float(spec.get("max_spec_offset", 0.0)),
        float(spec.get("min_token_prob", 0.1)),
    )
    out: list[dict[str, Any]] = []
    clock = time.perf_counter_ns

    def propose(rid: Any, context: list[int]) -> tuple[list[int], float]:
        t0 = clock()
        draft = cache.speculate(rid, context, *args)
        us = (clock() - t0) / 1000
        return [int(t) for t in draft.token_ids], round(us, 2)

    def guarded(op: str, fn: Callable[[], object]) -> None:
        try:
            fn()
        except Exception as exc:
            out.append({"op": op, "error": type(exc).__name__})

    for op in workload["ops"]:
        kind = op[0]
        if kind == "start":
            guarded(kind, partial(cache.start_request, op[1], op[2]))
        elif kind == "add":
            guarded(kind, partial(cache.add_active_response, op[1], op[2]))
        elif kind == "stop":
            guarded(kind, partial(cache.stop_request, op[1]))
        elif kind == "spec":
            try:
                draft, us = propose(op[1], list(op[2]))
            except Exception as exc:
                out.append({"op": kind, "error": type(exc).__name__})
            else:
                out.append({"draft": draft, "us": us})
        elif kind == "decode":
            requests, advance = op[1], op[2]
            state = {}
            for rid, prompt, answer in requests:
                cache.start_request(rid, prompt)
                state[rid] = (list(prompt), list(answer), [0])
            while state:
                for rid in list(state):
                    prompt, answer, done = state[rid]
                    pos = done[0]
                    draft, us = propose(rid, prompt + answer[:pos])
                    accepted = _accepted(draft, answer[pos:])
                    out.append({"draft": draft, "accepted": accepted, "us": us})
                    step = 1 if advance == "one" else accepted + 1
                    cache.add_active_response(rid, answer[pos : pos + step])
                    done[0] = pos + step
                    if done[0] >= len(answer):
                        cache.stop_request(rid)
                        del state[rid]
        else:
            raise ValueError(f"unknown operation {kind!r}")
    return out


def main() -> None:
    from arctic_inference.suffix_decoding import SuffixDecodingCache

    workloads = json.load(sys.stdin)
    single = isinstance(workloads, dict)
    results = []
    for workload in [workloads] if single else workloads:
        cache = SuffixDecodingCache(**workload.get("cache", {}))
        results.append({"results": run(cache, workload)})
    json.dump(results[0] if single else results, sys.stdout)


if __name__ == "__main__":
    main()
