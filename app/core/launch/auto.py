"""Auto: pick the speculation that pays on this machine, from a short side-by-side measurement.

The pieces, each usable on its own:

* :func:`candidates` lists what can be tried for a launch: off, the drafter at a few depths, the
  engine's model-free methods and (where the engine runs two methods at once) a drafter combined
  with a model-free method.
* :func:`calibrate` measures each candidate against speculation off on fixed prompts (prose, a code
  edit, the code edit sent again), alternating off/on, greedy, few tokens (prose twice when one
  pair alone would keep an otherwise winning candidate out, see :func:`needs_prose_recheck`).
  It checks a :class:`~app.core.cancel.CancelToken` between steps and passes it to every
  generation, reports ``progress(fraction, message)``, and closes every engine it loaded before
  returning or raising.
* :func:`choose` is the rule: never a configuration whose prose ratio is below
  :data:`PROSE_FLOOR`; among the rest the best geometric mean over the workloads, and only if that
  mean beats off (1.0); otherwise off. It says why in one line.
* :class:`CalibrationKey` / :func:`load_result` / :func:`store_result` keep results in the user data
  dir, keyed by model file, drafter file, engine, engine version, threads and machine: a change in
  any of them means "not measured here" and the next Auto launch measures again (in the
  background, the launch never waits for it).
* :func:`prior` is what Auto runs before anything was measured here: a trained drafter of the pair
  (assistant / MTP / EAGLE-3 / DFlash), else the engine's model-free method, else off.
* :func:`store_demoted` / :func:`load_demoted` keep the configurations that lost on the user's real
  answers (against this machine's plain speed); :func:`choose` and :func:`prior` skip them.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from app.core.answer import Answer, collect
from app.core.cancel import CancelToken
from app.core.engines.base import ChatMessage, Engine, EngineError, LoadRequest, Sampling
from app.core.engines.capability import vision_problem
from app.core.engines.llamacpp.translate import NGRAM_MOD_MIN_DRAFT, TYPE_BY_METHOD
from app.core.speculative.options import DRAFTER_METHODS, SpeculationOptions

#: A configuration slower than this on prose is never chosen, whatever it does elsewhere.
PROSE_FLOOR = 0.97
#: Depths tried for a classic (same-vocabulary) drafter; an MTP drafter runs at its own default.
DRAFT_DEPTHS = (2, 4, 8)
#: Tokens per round of the model-free n-gram methods in Auto (llama.cpp's own ngram-mod default; on a
#: repeat 64 gave 4-5x where 16 gave 2.7x, docs/benchmarks.md "Auto").
NGRAM_DEPTH = 64
#: Shortest n-gram draft llama.cpp proposes (``speculative.ngram_mod.n_min``): set by the one
#: translation for every way ngram-mod is chosen, Auto's candidates included (see there why).
NGRAM_MIN_DRAFT = NGRAM_MOD_MIN_DRAFT
#: New tokens per measured answer: enough for a decode rate, short enough for a < 30 s calibration.
MAX_TOKENS = 40
#: Bump when prompts, workloads, candidates or the rule change: older stored results are then not
#: reused (3: llama.cpp's classic drafter candidates adapt their depth per round, ``p_min``; 4: with
#: p_min 0.2 instead of 0.75).
FORMAT_VERSION = 4
#: A classic drafter's round on llama.cpp stops at the first drafted token the drafter gives less
#: than this probability (``speculative.draft.p_min``; this llama.cpp's default is 0, a fixed depth).
#: The depth then follows the text per round, up to the candidate's tokens per round: long where
#: the drafter is sure (and is mostly accepted), short where it guesses.
#: Measured side by side (docs/benchmarks.md "Auto against every fixed configuration"): with the
#: embedded SmolLM2 drafting for its F32 file, 0.75 (llama-server's old default) stopped rounds so
#: early that it lost to every fixed depth on two machines (0.51-0.75x of plain where 4/round gave
#: 0.73-0.98x; 0.73-0.84x where 4/round gave 1.11-1.31x); 0.2 was the best p_min tried and matched
#: or beat the best fixed depth on prose and code edits (1.33x / 1.43x against 1.27x / 1.42x).
DRAFT_P_MIN = 0.2
#: Progress steps per candidate: its load, five measured answers and a possible prose re-check (2).
STEPS_PER_CANDIDATE = 8
#: Unmeasured tokens generated right after each load (see :func:`_warm`).
WARMUP_TOKENS = 4

WORKLOADS = ("prose", "code", "repeat")
PROSE_PROMPT = "Describe a quiet morning in a small fishing village, in one paragraph."
#: The prose re-check's prompt: another first request (a model-free method remembers the first one).
PROSE_RECHECK_PROMPT = "Describe a walk through an old market town on a rainy afternoon, in one paragraph."
CODE_PROMPT = (
    "Here is a Python function:\n\ndef area(w, h):\n    return w * h\n\n"
    "Rename w to width and h to height, add a docstring, and return the whole function."
)

Progress = Callable[[float, str], None]


class CalibrationCancelled(Exception):
    """The calibration was cancelled; nothing was stored and every engine it loaded is closed."""


class CalibrationError(RuntimeError):
    """The calibration could not measure (e.g. an answer too short for a decode rate)."""


# --- progress -----------------------------------------------------------------------------------
#: The calibration's steps in English (the CLI prints them; the GUI translates by :attr:`Step.code`).
STEP_TEXTS = {
    "load-off": "loading the model without speculation",
    "load": "loading {config}",
    "prose-off": "{config}: prose, speculation off",
    "prose": "{config}: prose",
    "code-off": "{config}: code edit, speculation off",
    "code": "{config}: code edit",
    "repeat": "{config}: the same code edit again",
    "prose-again-off": "{config}: prose again, speculation off",
    "prose-again": "{config}: prose again",
    "done": "measured",
}


class Step(str):
    """A progress message: its English text, plus the step's code and configuration label so a
    GUI can say it in the user's language."""

    code: str
    config: str

    def __new__(cls, code: str, config: str = "") -> Step:
        step = super().__new__(cls, STEP_TEXTS[code].format(config=config))
        step.code = code
        step.config = config
        return step


# --- candidates ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Candidate:
    """One configuration Auto can pick. ``method`` is ``off``, a Tandem method, or ``a+b``."""

    method: str
    tokens_per_round: int | None = None
    #: for a combination: the model-free method's tokens per round
    extra_tokens_per_round: int | None = None
    #: llama.cpp's classic drafter: the depth adapts per round (``tokens_per_round`` is the most),
    #: drafting stops at a token below this probability (:data:`DRAFT_P_MIN`)
    p_min: float | None = None

    @property
    def uses_drafter(self) -> bool:
        return self.method.split("+")[0] in DRAFTER_METHODS

    @property
    def label(self) -> str:
        if self.method == "off":
            return "off"
        parts = self.method.split("+")
        depths = [self.tokens_per_round, self.extra_tokens_per_round]
        return " + ".join(f"{m} {d}/round" if d else m for m, d in zip(parts, depths, strict=False))

    def options(self, drafter_path: str | None) -> SpeculationOptions:
        """The speculation options of this configuration (``drafter_path`` for drafter methods)."""
        if self.method == "off":
            return SpeculationOptions()
        parts = self.method.split("+")
        adapt = {"speculative.draft.p_min": self.p_min} if self.p_min is not None else {}
        if len(parts) == 1:
            return SpeculationOptions(
                enabled=True,
                method=self.method,
                num_speculative_tokens=self.tokens_per_round,
                draft_model_path=drafter_path if self.uses_drafter else None,
                engine_native=adapt,
            )
        # two methods at once: llama.cpp's speculative.types takes a list (engine-native form)
        first, second = parts
        native: dict[str, Any] = {
            "speculative.types": [TYPE_BY_METHOD[first], TYPE_BY_METHOD[second]],
            "speculative.draft.mparams.path": drafter_path,
            "speculative.draft.n_max": self.tokens_per_round,
            f"speculative.{second.replace('-', '_')}.n_max": self.extra_tokens_per_round,
            **adapt,
        }
        return SpeculationOptions(
            enabled=True,
            method=first,
            num_speculative_tokens=self.tokens_per_round,
            draft_model_path=drafter_path,
            engine_native={k: v for k, v in native.items() if v is not None},
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"method": self.method, "tokens_per_round": self.tokens_per_round}
        if self.extra_tokens_per_round is not None:
            out["extra_tokens_per_round"] = self.extra_tokens_per_round
        if self.p_min is not None:
            out["p_min"] = self.p_min
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Candidate:
        p_min = data.get("p_min")
        return cls(
            str(data["method"]),
            data.get("tokens_per_round"),
            data.get("extra_tokens_per_round"),
            float(p_min) if p_min is not None else None,
        )


OFF = Candidate("off")

#: Engines that accept a drafter and a model-free method in one configuration.
COMBINING_ENGINES = frozenset({"llama.cpp"})


def candidates(
    engine: str,
    drafter_method: str | None,
    model_free: Sequence[str] = (),
    mtp_depth: int | None = None,
) -> list[Candidate]:
    """Every configuration Auto may measure for a launch (``off`` first), in measuring order.

    ``drafter_method`` is ``draft`` / ``mtp`` / ... when a drafter is available, else None;
    ``model_free`` the engine's model-free methods Auto tries (llama.cpp: ngram-mod);
    ``mtp_depth`` the MTP default (None: the engine's own). :func:`calibrate` skips some of them
    (see :func:`_skip_reason`) to stay short.
    """
    out = [OFF]
    # llama.cpp's own per-round depth control for a classic drafter; the trained
    # drafters run at their own depth, the n-gram methods draft what matched (n_min .. n_max)
    p_min = DRAFT_P_MIN if engine == "llama.cpp" and drafter_method == "draft" else None
    if drafter_method == "mtp":
        out.append(Candidate("mtp", mtp_depth))
    elif drafter_method:
        out += [Candidate(drafter_method, d, None, p_min) for d in (4, 8, 2)]  # 8 or 2 depending on 4
    out += [Candidate(m, NGRAM_DEPTH) for m in model_free]
    if drafter_method and model_free and engine in COMBINING_ENGINES:
        out.append(Candidate(f"{drafter_method}+{model_free[0]}", None, NGRAM_DEPTH, p_min))
    return out


def with_images(engine: str, cands: Sequence[Candidate]) -> list[Candidate]:
    """The candidates of a launch that reads images (a llama.cpp projector loaded): the methods
    this llama.cpp refuses with a projector (:func:`vision_problem`, EAGLE-3) are left out."""
    if engine != "llama.cpp":
        return list(cands)
    return [c for c in cands if c == OFF or vision_problem(c.method) is None]


def _qualifies(m: Measurement) -> bool:
    prose, mean = m.ratios.get("prose"), m.mean
    return prose is not None and mean is not None and prose >= PROSE_FLOOR and mean > 1.0


def _best_drafter(done: Sequence[Measurement]) -> Measurement | None:
    ok = [m for m in done if m.candidate.uses_drafter and "+" not in m.candidate.method and _qualifies(m)]
    return max(ok, key=lambda m: m.mean or 0.0, default=None)


def _skip_reason(cand: Candidate, done: Sequence[Measurement]) -> str | None:
    """Why ``cand`` is not worth measuring after ``done`` (None: measure it).

    Classic drafter depths: 4 first; 8 only if 4 qualified, 2 only if it did not. A combination
    only when some drafter depth qualified on its own (it runs at that depth).
    """
    if "+" in cand.method:
        return None if _best_drafter(done) else "the drafter alone did not qualify"
    if cand.uses_drafter and cand.method != "mtp" and cand.tokens_per_round in (2, 8):
        four = next((m for m in done if m.candidate == replace(cand, tokens_per_round=4)), None)
        if four is None:
            return None
        if cand.tokens_per_round == 8 and not _qualifies(four):
            return "4 per round did not qualify, so 2 was tried instead"
        if cand.tokens_per_round == 2 and _qualifies(four):
            return "4 per round qualified, so 8 was tried instead"
    return None


#: Drafters trained for their target (an assistant, MTP heads, EAGLE-3, DFlash): Auto starts with
#: one before measuring. A classic small drafter can lose to plain decoding on a CPU, so it waits
#: for the measurement like the rest.
TRAINED_DRAFTERS = frozenset({"mtp", "eagle3", "dflash"})


def prior(cands: Sequence[Candidate], demoted: Sequence[Candidate] = ()) -> Candidate:
    """What Auto runs before the calibration of ``cands`` is stored (answer at once).

    The pair's trained drafter where there is one (assistant / built-in MTP / EAGLE-3 / DFlash, at
    its default depth), else the engine's model-free method (ngram-mod drafts only where the text
    repeats, so it costs little when it cannot help), else off. ``demoted`` configurations (they
    lost on the user's answers) are skipped. The prior is always one of ``cands``, so the
    measurement compares it with the rest.
    """
    usable = [c for c in cands if c.method != "off" and "+" not in c.method and c not in demoted]
    for c in usable:
        if c.uses_drafter and c.method in TRAINED_DRAFTERS:
            return c
    for c in usable:
        if not c.uses_drafter:
            return c
    return OFF


def auto_model_free(engine: str) -> list[str]:
    """The model-free methods Auto tries on ``engine``: ngram-mod where the engine has it."""
    from app.core.engines.capability import model_free_methods

    return [m for m in model_free_methods(engine) if m == "ngram-mod"]


# --- the rule -----------------------------------------------------------------------------------
@dataclass
class Measurement:
    candidate: Candidate
    #: workload -> spec-on / spec-off decode speed (None: could not be measured)
    ratios: dict[str, float | None] = field(default_factory=dict)
    #: workload -> figures behind the ratio (tok/s of both sides, acceptance, tokens per round)
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def mean(self) -> float | None:
        """Geometric mean of the measured ratios (None when some workload has none)."""
        values = [self.ratios.get(w) for w in WORKLOADS]
        if any(v is None or v <= 0 for v in values):
            return None
        return math.exp(sum(math.log(v) for v in values if v) / len(values))

    def to_json(self) -> dict[str, Any]:
        mean = self.mean
        return {
            **self.candidate.to_json(),
            # full precision: the stored result must choose exactly as the measurement did
            "ratios": dict(self.ratios),
            "mean": None if mean is None else round(mean, 3),
            "details": self.details,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Measurement:
        return cls(Candidate.from_json(data), dict(data.get("ratios") or {}), dict(data.get("details") or {}))


@dataclass
class Choice:
    candidate: Candidate
    why: str
    #: per candidate: (label, "chosen" / "not used" / "excluded: ..." )
    verdicts: list[tuple[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.candidate.to_json(),
            "label": self.candidate.label,
            "why": self.why,
            "verdicts": [{"config": c, "verdict": v} for c, v in self.verdicts],
        }


def ratio_text(value: float | None) -> str:
    """A measured ratio as Auto's why line writes it (``1.05x``; ``-`` when not measured)."""
    return "-" if value is None else f"{value:.2f}x"


def _summary(m: Measurement) -> str:
    r = m.ratios
    text = f"{ratio_text(r.get('prose'))} prose, {ratio_text(r.get('code'))} code edit"
    return text + f", {ratio_text(r.get('repeat'))} on repeats"


def choose(measurements: Sequence[Measurement], demoted: dict[Candidate, float] | None = None) -> Choice:
    """The rule. Ties go to the earlier candidate (off first, then simpler configurations).

    ``demoted``: configurations that lost on the user's real answers (candidate -> their speed
    against plain decoding); they are never chosen, whatever the short measurement said.
    """
    demoted = demoted or {}
    best: Measurement | None = None
    verdicts: list[tuple[str, str]] = []
    for m in measurements:
        if m.candidate.method == "off":
            continue
        prose, mean = m.ratios.get("prose"), m.mean
        if m.candidate in demoted:
            verdicts.append(
                (m.candidate.label, f"demoted: {ratio_text(demoted[m.candidate])} vs plain on real answers")
            )
        elif prose is None or mean is None:
            verdicts.append((m.candidate.label, "not measured"))
        elif prose < PROSE_FLOOR:
            verdicts.append((m.candidate.label, f"excluded: {prose:.2f}x on prose is below {PROSE_FLOOR}x"))
        elif mean <= 1.0:
            verdicts.append((m.candidate.label, f"not used: mean {mean:.2f}x, no faster than off"))
        else:
            verdicts.append((m.candidate.label, f"mean {mean:.2f}x"))
            if best is None or mean > (best.mean or 0.0):
                best = m
    parts = []
    for m in measurements:
        if m.candidate.method == "off" or m.candidate in demoted:
            continue
        used = best is not None and m is best
        parts.append(f"{m.candidate.label}: {_summary(m)}{'' if used else ', not used'}")
    if best is None:
        why = "off: no configuration was faster without being slower on prose" + (
            f" ({'; '.join(parts)})" if parts else " (nothing to try)"
        )
        return Choice(OFF, why, verdicts)
    verdicts = [(c, ("chosen, " + v) if c == best.candidate.label else v) for c, v in verdicts]
    return Choice(best.candidate, "; ".join(parts), verdicts)


# --- storage ------------------------------------------------------------------------------------
def file_identity(path: str | os.PathLike[str] | None) -> dict[str, Any] | None:
    """Path, size and modification time of a model file (a folder: of its files), or None."""
    if not path:
        return None
    p = Path(path).expanduser().resolve()
    if not p.exists():
        raise FileNotFoundError(f"{p}: no such model file or folder")
    if p.is_dir():
        files = sorted(f for f in p.rglob("*") if f.is_file())
        stats = [f.stat() for f in files]
        return {
            "path": str(p),
            "size": sum(s.st_size for s in stats),
            "mtime_ns": max((s.st_mtime_ns for s in stats), default=0),
            "files": len(files),
        }
    st = p.stat()
    return {"path": str(p), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text("utf-8", "replace").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_identity() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu": cpu_model(),
        "cores": os.cpu_count() or 0,
    }


@dataclass(frozen=True)
class CalibrationKey:
    model: dict[str, Any] | None
    drafter: dict[str, Any] | None
    engine: str
    engine_version: str | None
    threads: int | None
    machine: dict[str, Any]
    format: int = FORMAT_VERSION

    @classmethod
    def for_launch(cls, engine: str, request: LoadRequest, drafter_path: str | None) -> CalibrationKey:
        from app.core.engines.capability import ENGINES, engine_availability

        info = ENGINES.get(engine)
        # llama.cpp's own default is every core; MLX chooses its own threads (not part of the key)
        uses = info is not None and info.uses_thread_count
        threads = (request.n_threads or os.cpu_count() or 1) if uses else None
        return cls(
            model=file_identity(request.model_path),
            drafter=file_identity(drafter_path),
            engine=engine,
            engine_version=engine_availability(engine).version if engine in ENGINES else None,
            threads=threads,
            machine=machine_identity(),
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def digest(self) -> str:
        text = json.dumps(self.to_json(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:24]


@dataclass
class CalibrationResult:
    key: CalibrationKey
    measurements: list[Measurement]
    seconds: float
    measured_at: float = field(default_factory=time.time)
    stored_path: str | None = None
    #: configurations that lost on the user's answers (:func:`load_demoted`), never chosen
    demoted: dict[Candidate, float] = field(default_factory=dict)

    @property
    def choice(self) -> Choice:
        return choose(self.measurements, self.demoted)

    def to_json(self) -> dict[str, Any]:
        return {
            "chosen": self.choice.to_json(),
            "candidates": [m.to_json() for m in self.measurements if m.candidate.method != "off"],
            "key": self.key.to_json(),
            "digest": self.key.digest,
            "stored_path": self.stored_path,
            "seconds": round(self.seconds, 2),
            "measured_at": self.measured_at,
        }


def store_dir() -> Path:
    from app.core import paths

    path = paths.data_dir() / "calibration"
    path.mkdir(parents=True, exist_ok=True)
    return path


def result_path(key: CalibrationKey) -> Path:
    return store_dir() / f"{key.digest}.json"


def store_result(result: CalibrationResult) -> Path:
    """Write ``result`` atomically; its path is set on the result and returned."""
    path = result_path(result.key)
    result.stored_path = str(path)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(result.to_json(), indent=1), "utf-8")
    tmp.replace(path)
    return path


def load_result(key: CalibrationKey) -> CalibrationResult | None:
    """The stored result for exactly ``key``, or None (never measured, changed, or unreadable)."""
    path = result_path(key)
    try:
        data = json.loads(path.read_text("utf-8"))
        if data.get("key") != json.loads(json.dumps(key.to_json())):
            return None  # a digest collision or an edited file: not this launch's measurement
        measurements = [Measurement(OFF)] + [Measurement.from_json(c) for c in data["candidates"]]
        return CalibrationResult(
            key,
            measurements,
            float(data.get("seconds", 0.0)),
            float(data.get("measured_at", 0.0)),
            str(path),
            load_demoted(key),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def demoted_path(key: CalibrationKey) -> Path:
    return store_dir() / f"{key.digest}.demoted.json"


def load_demoted(key: CalibrationKey) -> dict[Candidate, float]:
    """The configurations of ``key`` that lost on the user's real answers (candidate -> ratio)."""
    try:
        data = json.loads(demoted_path(key).read_text("utf-8"))
        return {Candidate.from_json(d): float(d["ratio"]) for d in data["demoted"]}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def store_demoted(key: CalibrationKey, candidate: Candidate, ratio: float) -> dict[Candidate, float]:
    """Remember that ``candidate`` lost on real answers (``ratio`` against plain decoding); kept
    beside the calibration, so the next start skips it too. Returns every demotion of ``key``."""
    demoted = {**load_demoted(key), candidate: ratio}
    path = demoted_path(key)
    tmp = path.with_suffix(".tmp")
    rows = [{**c.to_json(), "ratio": round(r, 3)} for c, r in demoted.items()]
    tmp.write_text(json.dumps({"key": key.to_json(), "demoted": rows}, indent=1), "utf-8")
    tmp.replace(path)
    return demoted


def forget(key: CalibrationKey) -> None:
    """Drop the stored calibration and demotions of ``key`` (the next Auto start measures again)."""
    result_path(key).unlink(missing_ok=True)
    demoted_path(key).unlink(missing_ok=True)


# --- measuring ----------------------------------------------------------------------------------
def _warm(engine: Engine, cancel: CancelToken) -> None:
    """A few unmeasured tokens right after a load: the first request pays for page faults and
    buffers, which would otherwise count against whichever workload runs first."""
    _run(engine, "Say hello.", cancel, WARMUP_TOKENS)


def _run(engine: Engine, prompt: str, cancel: CancelToken, max_tokens: int) -> Answer:
    """One greedy measured answer; :class:`CalibrationCancelled` when stopped or not complete."""
    if cancel.cancelled:
        raise CalibrationCancelled()
    messages: list[ChatMessage] = [{"role": "user", "content": prompt}]
    greedy = Sampling(temperature=0.0, max_tokens=max_tokens)
    answer = collect(engine.generate(messages, greedy, cancel), cancel)
    if cancel.cancelled or answer.cancelled:
        raise CalibrationCancelled()
    return answer


def _detail(off: Answer, on: Answer) -> dict[str, Any]:
    drafting = [r for r in on.rounds if r.drafted > 0]
    off_tps, on_tps = off.decode_tps, on.decode_tps
    return {
        "off_tps": None if off_tps is None else round(off_tps, 2),
        "off_tokens": off.completion_tokens,
        "on_tps": None if on_tps is None else round(on_tps, 2),
        "tokens": on.completion_tokens,
        "acceptance": round(on.accepted_total / on.drafted_total, 3) if on.drafted_total else None,
        "tokens_per_drafting_round": round(sum(r.emitted for r in drafting) / len(drafting), 2)
        if drafting
        else None,
    }


def _ratio(off: Answer, on: Answer) -> float | None:
    off_tps, on_tps = off.decode_tps, on.decode_tps
    return on_tps / off_tps if off_tps and on_tps is not None else None


def _mean_ratio(ratios: Sequence[float | None]) -> float | None:
    """Geometric mean of measured pair ratios (None if any pair has none)."""
    if not ratios or any(r is None or r <= 0 for r in ratios):
        return None
    return math.exp(sum(math.log(r) for r in ratios if r) / len(ratios))


def needs_prose_recheck(ratios: dict[str, float | None]) -> bool:
    """Whether one prose pair below :data:`PROSE_FLOOR` is all that keeps a configuration out.

    A single 40-token pair swings by several percent on a busy machine, and a method that does
    nothing on a first request (ngram-mod) measures 0.94-1.02x there: one unlucky pair would
    exclude the configuration that pays most on repeats. Such a configuration (its other
    workloads would give a mean above 1.0 even at the floor) gets a second prose pair, on another
    prompt (:data:`PROSE_RECHECK_PROMPT`: the candidate remembers the first one, so that would be
    a repeat), and the rule then reads the geometric mean of both pairs. A prose pair above the floor, or a
    configuration that would not qualify anyway, is measured once.
    """
    prose = ratios.get("prose")
    if prose is None or prose >= PROSE_FLOOR:
        return False
    rest = [ratios.get(w) for w in WORKLOADS if w != "prose"]
    if any(r is None or r <= 0 for r in rest):
        return False
    return PROSE_FLOOR * math.prod(r for r in rest if r) > 1.0


Loader = Callable[[LoadRequest], Engine]


def calibrate(
    key: CalibrationKey,
    base: LoadRequest,
    drafter_path: str | None,
    cands: Sequence[Candidate],
    load: Loader,
    cancel: CancelToken | None = None,
    progress: Progress | None = None,
    max_tokens: int | None = None,
    partial: dict[Candidate, Measurement] | None = None,
) -> CalibrationResult:
    """Measure the candidates against off; nothing is stored here (see :func:`store_result`).

    ``partial`` lets a cancelled calibration resume (Auto measures while the user is
    idle and stops for each message): every candidate measured is put there as soon as it is, and
    one already there is not measured again (its off/on pairs were measured together, so they
    stay comparable).

    ``base`` is the launch's request (model, context, threads, template); each candidate's request
    is ``base`` with that candidate's speculation. ``load`` builds an engine from a request (the
    public :func:`app.core.launch.plan.load_engine` bound to the engine name). One spec-off engine stays
    loaded; each candidate is loaded in turn (llama.cpp fixes method and depth at load) and closed
    before the next. Per candidate, alternating: off prose, on prose, off code edit, on code edit,
    and, for a candidate with a model-free method, the same code edit again on the candidate
    ("repeat", against the same off run). A drafter keeps nothing between requests, so a
    drafter-only candidate's repeat ratio is its code-edit ratio (said in its details). A prose
    pair just below the floor of an otherwise winning candidate is measured a second time (see
    :func:`needs_prose_recheck`).
    """
    cancel = cancel or CancelToken()
    say = progress or (lambda _f, _m: None)
    max_tokens = max_tokens or MAX_TOKENS
    started = time.perf_counter()
    todo = [c for c in cands if c.method != "off"]
    steps = max(1, len(todo) * STEPS_PER_CANDIDATE + 1)
    done = 0

    def step(message: Step) -> None:
        nonlocal done
        if cancel.cancelled:
            raise CalibrationCancelled()
        say(min(done / steps, 0.99), message)
        done += 1

    measurements = [Measurement(OFF, dict.fromkeys(WORKLOADS, 1.0))]
    drafter_kind: str | None = None  # what the engine runs the drafter as (a Gemma 4 assistant: mtp)
    step(Step("load-off"))
    off_engine = load(replace(base, speculation=SpeculationOptions()))
    try:
        _warm(off_engine, cancel)
        for cand in todo:
            skip = _skip_reason(cand, measurements)
            if skip:
                done += STEPS_PER_CANDIDATE
                continue
            known = partial.get(cand) if partial is not None else None
            if known is not None:  # measured before a cancel: reused
                measurements.append(known)
                if cand.uses_drafter and "+" not in cand.method:
                    drafter_kind = known.details.get("engine_kind") or drafter_kind
                done += STEPS_PER_CANDIDATE
                continue
            asked = cand
            if "+" in cand.method:  # the combination runs the best drafter depth
                best = _best_drafter(measurements)
                assert best is not None
                first, second = cand.method.split("+")
                cand = replace(
                    cand,
                    method=f"{drafter_kind or first}+{second}",
                    tokens_per_round=best.candidate.tokens_per_round,
                )
            step(Step("load", cand.label))
            try:
                on_engine = load(replace(base, speculation=cand.options(drafter_path)))
            except EngineError as exc:  # this configuration cannot run here: say so, try the rest
                if cancel.cancelled:
                    raise CalibrationCancelled() from exc
                failed = Measurement(cand, dict.fromkeys(WORKLOADS), {"error": str(exc)})
                measurements.append(failed)
                if partial is not None:
                    partial[asked] = failed
                done += STEPS_PER_CANDIDATE - 1
                continue
            try:
                if cand.uses_drafter and "+" not in cand.method:
                    drafter_kind = on_engine.spec_kind or drafter_kind
                _warm(on_engine, cancel)
                step(Step("prose-off", cand.label))
                off_prose = _run(off_engine, PROSE_PROMPT, cancel, max_tokens)
                step(Step("prose", cand.label))
                on_prose = _run(on_engine, PROSE_PROMPT, cancel, max_tokens)
                step(Step("code-off", cand.label))
                off_code = _run(off_engine, CODE_PROMPT, cancel, max_tokens)
                step(Step("code", cand.label))
                on_code = _run(on_engine, CODE_PROMPT, cancel, max_tokens)
                remembers = not cand.uses_drafter or "+" in cand.method
                step(Step("repeat", cand.label))
                on_again = _run(on_engine, CODE_PROMPT, cancel, max_tokens) if remembers else None
                ratios = {
                    "prose": _ratio(off_prose, on_prose),
                    "code": _ratio(off_code, on_code),
                    "repeat": _ratio(off_code, on_again or on_code),
                }
                prose_pairs = [ratios["prose"]]
                prose_again: dict[str, Any] | None = None
                if needs_prose_recheck(ratios):
                    step(Step("prose-again-off", cand.label))
                    off_prose2 = _run(off_engine, PROSE_RECHECK_PROMPT, cancel, max_tokens)
                    step(Step("prose-again", cand.label))
                    on_prose2 = _run(on_engine, PROSE_RECHECK_PROMPT, cancel, max_tokens)
                    prose_pairs.append(_ratio(off_prose2, on_prose2))
                    prose_again = _detail(off_prose2, on_prose2)
                    ratios["prose"] = _mean_ratio(prose_pairs)
                else:
                    done += 2
            finally:
                on_engine.close()
            repeat_detail = (
                _detail(off_code, on_again)
                if on_again is not None
                else {"same_as": "code", "why": "a drafter keeps nothing between requests"}
            )
            prose_detail = _detail(off_prose, on_prose)
            if prose_again is not None:
                prose_detail["pairs"] = [None if r is None else round(r, 3) for r in prose_pairs]
                prose_detail["again"] = prose_again
            details: dict[str, Any] = {
                "prose": prose_detail,
                "code": _detail(off_code, on_code),
                "repeat": repeat_detail,
            }
            if cand.uses_drafter and "+" not in cand.method and drafter_kind:
                details["engine_kind"] = drafter_kind
            measured = Measurement(cand, ratios, details)
            measurements.append(measured)
            if partial is not None:
                partial[asked] = measured
    finally:
        off_engine.close()
    if cancel.cancelled:
        raise CalibrationCancelled()
    say(1.0, Step("done"))
    return CalibrationResult(key, measurements, time.perf_counter() - started)
