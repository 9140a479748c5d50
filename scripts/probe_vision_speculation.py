"""Which llama.cpp speculation methods run with a vision projector (mmproj) loaded.

    python scripts/probe_vision_speculation.py --out DIR [--json] [METHOD ...]

Writes the tiny files (:mod:`app.devtools.tiny_gemma4`, ``tiny_drafters``, ``tiny_mmproj``)
into ``DIR``, then runs every combination in a child process of its own, straight on xllamacpp
(no Tandem refusal in the way), because a native abort cannot be caught in Python. Each child
loads the target with the projector and the method, asks one text prompt and two image prompts
greedily through ``/completion`` with ``return_tokens`` (llama-server gives no token ids on the chat
route once a drafter runs), and prints the ids and the draft counters; the parent compares them
with the same target and projector loaded without speculation.

Targets: the tiny Gemma 4 (random weights, and the ``agree`` variant whose output is one repeated
token, so the n-gram methods find something to draft) for mtp, draft and the n-gram methods; the
tiny llama for EAGLE-3 and DFlash (their drafters read llama states). Both are 128 wide, like the
projector.

A method "works" when the load succeeds, every answer comes back, and every answer is
token-identical to the one without speculation. The findings go, by hand, into
``app/core/engines/capability.py`` (``LLAMACPP_VISION``) with the xllamacpp version.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from app.devtools import tiny_drafters, tiny_gemma4, tiny_mmproj

MAX_TOKENS = 40
#: seconds one combination may take before it counts as hung
TIMEOUT = 300


def _images() -> list[bytes]:
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(1)
    pictures = [
        Image.new("RGB", (64, 48), (200, 30, 30)),
        Image.fromarray(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8)),
    ]
    out = []
    for im in pictures:
        buf = io.BytesIO()
        im.save(buf, "PNG")
        out.append(buf.getvalue())
    return out


def _one(cfg: dict[str, Any]) -> dict[str, Any]:
    """In the child: load, ask, report (a native abort ends this process, the parent sees it)."""
    import http.client
    import secrets

    import xllamacpp

    p = xllamacpp.CommonParams()
    p.model.path = cfg["target"]
    if cfg["mmproj"]:
        p.mmproj.path = cfg["mmproj"]
    p.n_ctx = 2048
    p.n_parallel = 1
    p.warmup = False
    key = secrets.token_urlsafe(16)
    p.api_keys = [key]
    members = xllamacpp.common_speculative_type
    if cfg.get("types"):
        p.speculative.types = [getattr(members, f"COMMON_SPECULATIVE_TYPE_{t}") for t in cfg["types"]]
    if cfg.get("draft"):
        p.speculative.draft.mparams.path = cfg["draft"]
    if "NGRAM_MOD" in cfg.get("types", []):
        p.speculative.ngram_mod.n_min = 2  # as Tandem sets it (translate.NGRAM_MOD_MIN_DRAFT)
    for kind in ("ngram_simple", "ngram_map_k", "ngram_map_k4v"):
        # short n-grams, so a 40-token answer can draft at all (the defaults, 12 + 48, never do here)
        getattr(p.speculative, kind).size_n = 2
        getattr(p.speculative, kind).size_m = 3
    try:
        server = xllamacpp.Server(p)
    except Exception as exc:  # a refusal llama.cpp reports instead of aborting
        return {"load_error": f"{type(exc).__name__}: {exc}"}
    address = str(server.listening_address).split("//")[-1]
    host, port = address.rsplit(":", 1)
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}

    def call(path: str, body: dict[str, Any]) -> dict[str, Any]:
        conn = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT)
        try:
            conn.request("POST", path, json.dumps(body).encode(), headers)
            reply = conn.getresponse()
            data = json.loads(reply.read() or b"{}")
            return data if reply.status == 200 else {"error": data.get("error", data)}
        finally:
            conn.close()

    answers = []
    prompts: list[tuple[bytes | None, str]] = [(None, "say hello hello hello")]
    questions = ["what is it", "describe the picture"]
    prompts += [(img, text) for img, text in zip(_images(), questions, strict=True)]
    for image, text in prompts:
        if image is not None and not cfg["mmproj"]:
            continue  # the text-only control run
        content: list[dict[str, Any]] = [{"type": "text", "text": text}]
        if image is not None:
            url = "data:image/png;base64," + base64.b64encode(image).decode()
            content.insert(0, {"type": "image_url", "image_url": {"url": url}})
        templated = call("/apply-template", {"messages": [{"role": "user", "content": content}]})
        prompt: Any = templated.get("prompt", "")
        if image is not None:
            prompt = {"prompt_string": prompt, "multimodal_data": [base64.b64encode(image).decode()]}
        reply = call(
            "/completion",
            {"prompt": prompt, "n_predict": MAX_TOKENS, "temperature": 0, "top_k": 0, "return_tokens": True},
        )
        if "error" in reply:
            answers.append({"error": str(reply["error"])[:300]})
            continue
        timings = reply.get("timings") or {}
        answers.append(
            {
                "ids": reply.get("tokens"),
                "drafted": timings.get("draft_n") or 0,
                "accepted": timings.get("draft_n_accepted") or 0,
            }
        )
    return {"answers": answers}


def _run_child(cfg: dict[str, Any]) -> dict[str, Any]:
    env = {**os.environ, "GGML_NO_BACKTRACE": "1"}
    try:
        r = subprocess.run(
            [sys.executable, __file__, "--one", json.dumps(cfg)],
            capture_output=True, text=True, timeout=TIMEOUT, env=env,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"hung": True}
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    if r.returncode != 0 or not lines:
        said = [ln for ln in r.stderr.splitlines() if "GGML_ASSERT" in ln or " E " in ln][:2]
        return {"exit": r.returncode, "said": said}
    out: dict[str, Any] = json.loads(lines[-1])
    return out


def combinations(out: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    """method -> (baseline name, child config without the projector)."""
    g, d, m = tiny_gemma4, tiny_drafters, tiny_mmproj
    pair = g.build(out / "gemma4")
    agree = g.build(out / "gemma4-agree", agree=True)
    plain = g.write_target(out / "gemma4" / "plain-drafter.gguf", seed=7)
    tiny = d.build(out / "llama")
    m.build(out)
    ngram = {
        "ngram-simple": "NGRAM_SIMPLE",
        "ngram-map-k": "NGRAM_MAP_K",
        "ngram-map-k4v": "NGRAM_MAP_K4V",
        "ngram-mod": "NGRAM_MOD",
        "ngram-cache": "NGRAM_CACHE",
    }
    combos: dict[str, tuple[str, dict[str, Any]]] = {
        "gemma4": ("", {"target": str(pair.target)}),
        "gemma4-agree": ("", {"target": str(agree.target)}),
        "llama": ("", {"target": str(tiny.target)}),
        "mtp": ("gemma4", {"target": str(pair.target), "types": ["DRAFT_MTP"], "draft": str(pair.assistant)}),
        "mtp (agree)": (
            "gemma4-agree",
            {"target": str(agree.target), "types": ["DRAFT_MTP"], "draft": str(agree.assistant)},
        ),
        "draft": ("gemma4", {"target": str(pair.target), "types": ["DRAFT_SIMPLE"], "draft": str(plain)}),
        "draft (target as drafter)": (
            "gemma4",
            {"target": str(pair.target), "types": ["DRAFT_SIMPLE"], "draft": str(pair.target)},
        ),
        "eagle3": (
            "llama",
            {"target": str(tiny.target), "types": ["DRAFT_EAGLE3"], "draft": str(tiny.eagle3)},
        ),
        "dflash": (
            "llama",
            {"target": str(tiny.target), "types": ["DRAFT_DFLASH"], "draft": str(tiny.dflash)},
        ),
        "mtp+ngram-mod": (
            "gemma4",
            {"target": str(pair.target), "types": ["NGRAM_MOD", "DRAFT_MTP"], "draft": str(pair.assistant)},
        ),
    }
    for method, native in ngram.items():
        combos[method] = ("gemma4", {"target": str(pair.target), "types": [native]})
        combos[f"{method} (agree)"] = ("gemma4-agree", {"target": str(agree.target), "types": [native]})
    return combos


def verdict(result: dict[str, Any], base: dict[str, Any]) -> str:
    if result.get("hung"):
        return f"hangs (no answer in {TIMEOUT} s)"
    if "exit" in result:
        return f"aborts (exit {result['exit']}: {' | '.join(result['said'])})"
    if "load_error" in result:
        return f"refused by llama.cpp at load ({result['load_error']})"
    notes = []
    for i, (a, b) in enumerate(zip(result["answers"], base["answers"], strict=True)):
        what = "text" if i == 0 else f"image {i}"
        if "error" in a:
            return f"misbehaves: {what} prompt failed ({a['error']})"
        ids, ref = a["ids"], b["ids"]
        if ids != ref:
            differs = (j for j, (x, y) in enumerate(zip(ids, ref, strict=False)) if x != y)
            pos = next(differs, min(len(ids), len(ref)))
            return f"diverges: {what} prompt differs at token {pos}"
        notes.append(f"{what} {a['accepted']}/{a['drafted']}")
    return "works: token-identical; accepted/drafted " + ", ".join(notes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--out", type=Path, help="folder for the tiny files")
    ap.add_argument("--json", action="store_true", help="one JSON object per method")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("methods", nargs="*", help="only these (default: all)")
    args = ap.parse_args(argv)
    if args.one:  # the child
        result = _one(json.loads(args.one))
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()
        os._exit(0)  # ~Server may wait on a busy loop; the OS frees everything
    if args.out is None:
        ap.error("--out is required")
    from importlib.metadata import version

    import xllamacpp  # noqa: F401 - fail early when it is missing

    combos = combinations(args.out)
    mmproj = str(args.out / tiny_mmproj.MMPROJ_FILE)
    wanted = args.methods or [k for k, (base, _c) in combos.items() if base]
    bases = {combos[k][0] for k in wanted}
    baseline = {name: _run_child({**combos[name][1], "mmproj": mmproj}) for name in bases}
    for name, result in baseline.items():
        if "answers" not in result or any("error" in a for a in result["answers"]):
            print(f"the baseline {name} did not run: {result}", file=sys.stderr)
            return 1
    print(f"xllamacpp {version('xllamacpp')}", file=sys.stderr)
    for method in wanted:
        base_name, cfg = combos[method]
        result = _run_child({**cfg, "mmproj": mmproj})
        said = verdict(result, baseline[base_name])
        if args.json:
            print(json.dumps({"method": method, "verdict": said}))
        else:
            print(f"{method:28} {said}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
