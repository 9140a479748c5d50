"""Deterministic suffix-decoding workloads, shared by the reference test and its benchmark.

Text is Zipf-like: phrases of Zipf-distributed token ids drawn from a bank with Zipf weights, so
n-grams repeat with branching continuations as in real answers. Every workload is plain JSON (see
``arctic_driver``) and the same seed gives the same workload.
"""

from __future__ import annotations

import itertools
import random
import statistics
from typing import Any

SPEC = {"max_spec_tokens": 16, "max_spec_factor": 1.0, "max_spec_offset": 0.0, "min_token_prob": 0.1}


class Text:
    """A phrase bank; ``take(n)`` is Zipf-like text of ``n`` tokens."""

    def __init__(self, seed: int, vocab: int = 4000, phrases: int = 400) -> None:
        self.rng = random.Random(seed)
        self.vocab = vocab
        self.token_cum = list(itertools.accumulate(1.0 / (r + 1) for r in range(vocab)))
        self.bank = [self._tokens(self.rng.randint(3, 12)) for _ in range(phrases)]
        self.phrase_cum = list(itertools.accumulate(1.0 / (r + 1) ** 1.1 for r in range(phrases)))

    def _tokens(self, n: int) -> list[int]:
        return [t + 10 for t in self.rng.choices(range(self.vocab), cum_weights=self.token_cum, k=n)]

    def take(self, n: int) -> list[int]:
        out: list[int] = []
        while len(out) < n:
            if self.rng.random() < 0.15:
                out.extend(self._tokens(self.rng.randint(1, 4)))  # fresh words between phrases
            else:
                out.extend(self.rng.choices(self.bank, cum_weights=self.phrase_cum)[0])
        return out[:n]


def _workload(
    name: str, ops: list[Any], *, identical: float = 1.0, depth: int = 64, **spec: Any
) -> dict[str, Any]:
    """``identical``: the share of Tandem's drafts (``prompt_tail=0``) claimed equal to arctic's,
    position by position."""
    return {
        "name": name,
        "identical": identical,
        "cache": {"max_tree_depth": depth},
        "spec": {**SPEC, **spec},
        "ops": ops,
    }


def regenerate(advance: str) -> dict[str, Any]:
    text = Text(1)
    prompt, answer = text.take(40), text.take(300)
    ops = [["decode", [["a", prompt, answer]], advance], ["decode", [["b", prompt, answer]], advance]]
    return _workload(f"regenerate/{advance}", ops)


def shared_prefix(advance: str) -> dict[str, Any]:
    text = Text(2)
    system = text.take(120)
    ops = [["decode", [[f"q{i}", system + text.take(20), text.take(150)]], advance] for i in range(8)]
    return _workload(f"shared_prefix/{advance}", ops)


def zipf(advance: str) -> dict[str, Any]:
    text = Text(3)
    ops = [["decode", [[f"z{i}", text.take(60), text.take(250)]], advance] for i in range(12)]
    return _workload(f"zipf/{advance}", ops)


def interleaved(advance: str) -> dict[str, Any]:
    text = Text(4, phrases=120)
    ops = []
    for batch in range(3):
        reqs = [[f"i{batch}-{k}", text.take(30), text.take(200)] for k in range(4)]
        ops.append(["decode", reqs, advance])
    return _workload(f"interleaved/{advance}", ops)


def large_corpus(advance: str, tokens: int = 200_000, requests: int = 6) -> dict[str, Any]:
    text = Text(5, vocab=8000, phrases=3000)
    ops: list[Any] = []
    per = 500
    for i in range(tokens // per):
        rid = f"old{i}"
        ops += [["start", rid, text.take(20)], ["add", rid, text.take(per)], ["stop", rid]]
    ops += [["decode", [[f"new{i}", text.take(50), text.take(250)]], advance] for i in range(requests)]
    return _workload(f"corpus_{tokens // 1000}k/{advance}", ops)


def edge_cases() -> list[dict[str, Any]]:
    text = Text(6, phrases=50)
    a = text.take(100)
    out = [
        _workload("empty_prompt", [["decode", [["e1", [], a]], "one"], ["decode", [["e2", [], a]], "one"]]),
        _workload(
            "length_1_prompts",
            [["decode", [[f"l{i}", [a[i]], a[i + 1 : i + 40]]], "one"] for i in range(6)],
        ),
        _workload(
            "max_depth_exceeded",
            [["decode", [["d1", a[:20], a * 2]], "one"], ["decode", [["d2", a[:20], a * 2]], "one"]],
            depth=8,
            max_spec_factor=2.0,
        ),
        _workload(
            "repeated_token",
            [
                ["decode", [["r1", [7] * 30, [7] * 120]], "one"],
                ["decode", [["r2", [7] * 5, [7] * 80 + a[:20]]], "one"],
            ],
        ),
        _workload(
            "stop_without_add",
            [
                ["start", "s1", a[:30]],
                ["spec", "s1", a[:30]],
                ["stop", "s1"],
                ["start", "s2", a[:30]],
                ["spec", "s2", a[:30]],
                ["stop", "s2"],
            ],
        ),
        _workload(
            "unknown_request",
            [
                ["spec", "nobody", a[:10]],
                ["add", "nobody", a[:3]],
                ["stop", "nobody"],
                ["start", "u1", a[:10]],
                ["start", "u1", a[:10]],
                ["stop", "u1"],
                ["spec", "u1", a[:10]],
            ],
        ),
        _workload(
            "spec_bounds",
            [
                ["start", "b1", a],
                ["add", "b1", a[:50]],
                *[["spec", "b1", a + a[:k]] for k in range(0, 50, 3)],
                ["stop", "b1"],
            ],
            max_spec_factor=0.5,
            max_spec_offset=1.5,
            min_token_prob=0.3,
            max_spec_tokens=5,
        ),
    ]
    return out


NAMES = [
    *(
        f"{kind}/{advance}"
        for advance in ("one", "accepted")
        for kind in ("regenerate", "shared_prefix", "zipf", "interleaved")
    ),
    "corpus_200k/one",
    "corpus_200k/accepted",
    "empty_prompt",
    "length_1_prompts",
    "max_depth_exceeded",
    "repeated_token",
    "stop_without_add",
    "unknown_request",
    "spec_bounds",
]


def all_workloads(corpus_tokens: int = 200_000) -> list[dict[str, Any]]:
    out = []
    for advance in ("one", "accepted"):
        out += [regenerate(advance), shared_prefix(advance), zipf(advance), interleaved(advance)]
    out += [large_corpus("one", corpus_tokens), large_corpus("accepted", corpus_tokens)]
    return out + edge_cases()


def summary(ours: list[dict[str, Any]], ref: list[dict[str, Any]]) -> dict[str, Any]:
    """Identical drafts (position by position), mean accepted tokens per proposal and the time
    per proposal (p50, p95 in µs) of two runs of one workload."""
    same = sum(
        1 for a, b in zip(ours, ref, strict=False) if a.get("draft") == b.get("draft") and "draft" in a
    )
    proposals = max(1, sum(1 for r in ref if "draft" in r))

    def acceptance(results: list[dict[str, Any]]) -> float:
        steps = [r["accepted"] for r in results if "accepted" in r]
        return sum(steps) / len(steps) if steps else 0.0

    def times(results: list[dict[str, Any]]) -> tuple[float, float]:
        us = sorted(r["us"] for r in results if "us" in r)
        if len(us) < 2:
            return (us[0], us[0]) if us else (0.0, 0.0)
        q = statistics.quantiles(us, n=20)
        return statistics.median(us), q[18]

    return {
        "identical": same / proposals,
        "steps": (sum(1 for r in ours if "draft" in r), proposals),
        "acceptance": (acceptance(ours), acceptance(ref)),
        "us": (times(ours), times(ref)),
    }
