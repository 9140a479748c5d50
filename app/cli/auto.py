"""``tandem calibrate`` and ``--spec auto``: the measured speculation choice for a launch.

``calibrate`` measures (or reads the stored measurement of) a model/drafter/engine/threads
combination on this machine; ``--spec auto`` on ``generate``, ``parity`` and ``bench`` uses the
stored choice, calibrating first when there is none (said on stderr; quiet with ``--json``).
The measuring and the rule live in :mod:`app.core.launch.auto`.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from app.cli.common import MAX_THREADS, Resolved, resolve, whole_number
from app.core.cancel import CancelToken
from app.core.engines.base import LoadRequest
from app.core.launch import auto
from app.core.launch.auto import decide as auto_decide
from app.core.launch.auto.router import RequestRouter
from app.core.launch.plan import LaunchError, load_engine
from app.core.speculative.detect import auto_drafter_method, file_facts
from app.core.speculative.options import default_tokens


def add_subcommands(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "calibrate", help="measure which speculation pays for a model on this machine (what Auto uses)"
    )
    p.add_argument("name", nargs="?", help="registry name (or give --model-path)")
    p.add_argument("--model-path", help="a local model file (gguf) or folder (mlx)")
    p.add_argument("--draft-model-path", help="a local drafter (default: the declared one, else one found)")
    p.add_argument("--format", dest="fmt", choices=["gguf", "mlx"])
    p.add_argument("--size", help="size in billions or a label such as E2B")
    p.add_argument("--quant", help="target quantization")
    p.add_argument("--draft-quant", help="drafter quantization (declared drafters)")
    p.add_argument("--hub", default=None, choices=["huggingface", "modelscope", "local"])
    p.add_argument("--engine", choices=["llama.cpp", "mlx"])
    p.add_argument("--threads", type=whole_number("--threads", 1, MAX_THREADS), default=None)
    p.add_argument("--ctx", type=whole_number("--ctx", 1), default=4096, help="context length in tokens")
    p.add_argument("--remeasure", action="store_true", help="measure again even if a result is stored")
    p.add_argument(
        "--show",
        action="store_true",
        help="measure nothing: show what Auto learned from real answers (per kind: the route, its "
        "speedup with an interval, the answers it rests on)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_calibrate, spec_method=None, draft_tokens=None, spec=None)


@dataclass
class AutoPlan:
    engine: str
    base: LoadRequest  # the launch without speculation
    drafter_path: str | None
    drafter_method: str | None
    key: auto.CalibrationKey
    candidates: list[auto.Candidate]
    family: Any = None


def plan_auto(args: argparse.Namespace) -> AutoPlan:
    """The engine, base request, drafter and candidates for the model arguments."""
    if getattr(args, "engine", None) == "remote":
        raise LaunchError("--spec auto measures local engines only; use --spec on/off with --engine remote")
    if getattr(args, "spec_method", None) or getattr(args, "draft_tokens", None):
        raise LaunchError(
            "--spec auto chooses the method and depth itself; drop --spec-method/--draft-tokens"
        )
    off = resolve(args, False)
    drafter: str | None = getattr(args, "draft_model_path", None)
    method: str | None = "draft" if drafter else None
    if drafter is None and off.family is not None:
        try:  # the declared drafter (downloaded like any launch with speculation on)
            on = resolve(args, True)
        except LaunchError:
            on = None  # the spec declares no drafter (or this engine cannot run it)
        if on is not None and on.request.speculation.draft_model_path:
            drafter = on.request.speculation.draft_model_path
            method = on.request.speculation.method
    heads = file_facts(off.request.model_path)
    builtin = heads is not None and heads.has_builtin_mtp  # its own MTP heads: no drafter search
    if drafter is None and off.family is None and off.engine == "llama.cpp" and not builtin:
        drafter = _found_drafter(Path(off.request.model_path))
        method = "draft" if drafter else None
    if off.engine == "llama.cpp":  # the drafter file's own method, or the target's built-in MTP heads
        method = auto_drafter_method(off.request.model_path, drafter, method)
    mtp_depth = None
    if method == "mtp":
        req = off.request
        mtp_depth = default_tokens(off.engine, req.family_name, req.size_in_billions, "mtp").value
    base = off.request
    return AutoPlan(
        engine=off.engine,
        base=base,
        drafter_path=drafter,
        drafter_method=method,
        key=auto.CalibrationKey.for_launch(off.engine, base, drafter),
        candidates=auto.candidates(off.engine, method, auto.auto_model_free(off.engine), mtp_depth),
        family=off.family,
    )


def _found_drafter(target: Path) -> str | None:
    """The smallest compatible drafter next to a local GGUF target (its folder only), or None."""
    from app.core.catalog.drafters import local_candidates

    try:
        found = [c for c in local_candidates(target, [target.parent], include_cache=False) if c.compatible]
    except Exception:  # an unreadable neighbour must not stop a launch: Auto then has no drafter
        return None
    found.sort(key=lambda c: c.size_bytes or 0)
    return found[0].path if found else None


def measure(plan: AutoPlan, remeasure: bool, quiet: bool) -> tuple[auto.CalibrationResult, bool]:
    """The stored result for ``plan`` (unless ``remeasure``), else a new calibration, stored.

    Returns the result and whether it was measured now. Ctrl-C cancels: engines are closed and
    nothing is stored.
    """
    if not remeasure:
        stored = auto.load_result(plan.key)
        if stored is not None:
            return stored, False
    if not quiet:
        print(
            f"… calibrating Auto for {Path(plan.base.model_path).name} on {plan.engine} "
            "(once per model, drafter, engine and machine; Ctrl-C cancels)",
            file=sys.stderr,
            flush=True,
        )

    def progress(fraction: float, step: auto.Step) -> None:
        if not quiet:
            print(f"… {fraction:4.0%} {step.text}", file=sys.stderr, flush=True)

    cancel = CancelToken()
    try:
        result = auto.calibrate(
            plan.key,
            plan.base,
            plan.drafter_path,
            plan.candidates,
            lambda req: load_engine(plan.engine, req),
            cancel,
            progress,
        )
    except KeyboardInterrupt:
        cancel.cancel()
        raise
    auto.store_result(result)
    return result, True


def resolve_auto(args: argparse.Namespace, measure_now: bool = True) -> Any:
    """``--spec auto``: a :class:`app.cli.common.Resolved` for the stored choice.

    With nothing stored, ``measure_now`` calibrates first (``bench`` and ``parity`` compare Auto's
    measured choice); otherwise (``generate``, ``serve``) the answer does not wait: Auto's prior
    runs and one line says so and how to measure (``tandem calibrate``). The choice is kept on
    ``args.auto_choice`` (for ``bench``'s report).
    """
    plan = plan_auto(args)
    quiet = bool(getattr(args, "json", False))
    stored = auto.load_result(plan.key)
    if stored is None and not measure_now:
        candidate = auto.prior(plan.candidates, list(auto.load_demoted(plan.key)))
        args.auto_choice = None
        if not quiet:
            print(
                f"… auto: {candidate.label} (Auto's first guess: nothing is measured for this model on "
                "this machine yet; `tandem calibrate` with the same model arguments measures it)",
                file=sys.stderr,
                flush=True,
            )
        return Resolved(
            plan.engine,
            replace(plan.base, speculation=candidate.options(plan.drafter_path)),
            plan.family,
            _drafter_of(plan),
        )
    result, measured = (stored, False) if stored is not None else measure(plan, False, quiet)
    choice = result.choice
    args.auto_choice = choice
    if not quiet:
        how = "measured now" if measured else f"stored in {result.stored_path}"
        print(f"… auto: {choice.candidate.label} ({how}): {choice.why}", file=sys.stderr, flush=True)
    # the thread count the calibration found to pay is the most an automatic count may be
    cap = result.threads if plan.base.n_threads is None else None
    req = replace(plan.base, speculation=choice.candidate.options(plan.drafter_path), max_threads=cap)
    return Resolved(plan.engine, req, plan.family, _drafter_of(plan))


def _drafter_of(plan: AutoPlan) -> tuple[str, str] | None:
    return (plan.drafter_method, plan.drafter_path) if plan.drafter_method and plan.drafter_path else None


def cmd_calibrate(args: argparse.Namespace) -> int:
    if args.name and args.model_path:
        raise LaunchError("give either NAME or --model-path, not both")
    plan = plan_auto(args)
    if args.show:
        return show_learned(plan, args.json)
    result, measured = measure(plan, args.remeasure, args.json)
    out = {**result.to_json(), "measured_now": measured, "engine": plan.engine, "drafter": plan.drafter_path}
    if args.json:
        print(json.dumps(out))
        return 0
    choice = result.choice
    print(f"Auto chooses: {choice.candidate.label}")
    print(f"why: {choice.why}")
    if result.thread_speeds:
        speeds = ", ".join(f"{n}: {v:.1f} tok/s" for n, v in sorted(result.thread_speeds.items()))
        print(f"threads (plain decode, side by side): {speeds}; measured and launched with {result.threads}")
    noise = auto.pair_noise(result.measurements)
    spread = ", ".join(f"{w} {v:.3f}" for w, v in noise.items())
    print(
        f"per workload: speedup [interval, {auto.CAL_Z:g} standard errors] pairs; one pair's noise: {spread}"
    )
    print(f"{'config':34} {'prose':>22} {'code edit':>22} {'repeat':>22}  verdict")
    verdicts = dict(choice.verdicts)
    for m in result.measurements:
        if m.candidate.method == "off":
            continue
        figures = auto.workload_figures(m, noise)
        cells = [_figure_cell(figures.get(w)) for w in auto.WORKLOADS]
        verdict = verdicts.get(m.candidate.label, "")
        if "error" in m.details:
            verdict = f"could not load: {m.details['error']}"
        print(f"{m.candidate.label:34} " + " ".join(f"{c:>22}" for c in cells) + f"  {verdict}")
    print("routes: " + "; ".join(f"{kind} -> {r['configuration']}" for kind, r in out["routes"].items()))
    when = "measured now" if measured else "stored result (--remeasure measures again)"
    print(f"{when}; {result.seconds:.1f} s; {result.stored_path}")
    return 0


def show_learned(plan: AutoPlan, as_json: bool) -> int:
    """What Auto learned for this model here: per kind, the route now, its speedup with an interval
    and how many real answers it rests on (the calibration is the prior; none: the prior alone)."""
    router = RequestRouter.for_model(plan.key, plan.candidates, plan.drafter_path)
    assert router.learner is not None
    rows = [s.to_json() for s in router.learner.summary()]
    if as_json:
        print(json.dumps({"measured": router.measured, "routes": rows}))
        return 0
    source = "calibration stored" if router.measured else "no calibration stored: Auto's prior"
    print(f"What Auto learned ({source}; the interval: {auto_decide.Z:g} standard errors):")
    print(f"{'kind':10} {'configuration':34} {'speedup':>8}  {'interval':13} {'answers':>7}")
    for row in rows:
        lo, hi = row["interval"]
        print(
            f"{row['kind']:10} {row['configuration']:34} {row['speedup']:>7.2f}x  "
            f"{lo:.2f}-{hi:.2f}x{'':3} {row['answers']:>7}"
        )
    return 0


def _figure_cell(f: dict[str, Any] | None) -> str:
    """``1.31x (1.22-1.40) 4``: a workload's speedup, its interval and the pairs behind it."""
    return f"{auto.figure_cell(f)} {f['pairs']}" if f else "-"


# --- Auto per request (tandem serve --spec auto) ---------------------------------------------------
def request_router(args: argparse.Namespace) -> RequestRouter:
    """Auto's routes for the model arguments: measured ones when a calibration is stored, else the
    prior per kind (nothing is measured before the first answer)."""
    plan = plan_auto(args)
    return RequestRouter.for_model(plan.key, plan.candidates, plan.drafter_path)
