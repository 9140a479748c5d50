"""What Auto can try: one :class:`Candidate` per speculative configuration, and the list of them
for a launch (:func:`candidates`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.core.engines.capability import model_free_methods, vision_problem
from app.core.engines.llamacpp.translate import NGRAM_MOD_MIN_DRAFT, TYPE_BY_METHOD
from app.core.speculative.options import DRAFTER_METHODS, SUFFIX_METHODS, SpeculationOptions

#: Depths tried for a classic (same-vocabulary) drafter; an MTP drafter runs at its own default.
DRAFT_DEPTHS = (2, 4, 8)
#: Tokens per round of the model-free n-gram methods in Auto (llama.cpp's own ngram-mod default; on a
#: repeat it beats shorter drafts, docs/benchmarks.md "Auto").
NGRAM_DEPTH = 64
#: Shortest n-gram draft llama.cpp proposes (``speculative.ngram_mod.n_min``): set by the one
#: translation for every way ngram-mod is chosen, Auto's candidates included (see there why).
NGRAM_MIN_DRAFT = NGRAM_MOD_MIN_DRAFT
#: A classic drafter's round on llama.cpp stops at the first drafted token the drafter gives less
#: than this probability (``speculative.draft.p_min``; this llama.cpp's default is 0, a fixed depth).
#: The depth then follows the text per round, up to the candidate's tokens per round: long where
#: the drafter is sure (and is mostly accepted), short where it guesses.
#: Measured side by side (docs/benchmarks.md "Auto against every fixed configuration"): 0.75
#: (llama-server's old default) stops rounds so early that it loses to every fixed depth; this
#: value was the best tried and matches or beats the best fixed depth on prose and code edits.
DRAFT_P_MIN = 0.2


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
#: Engines whose launch runs a pool of configurations that routes each request by its kind
#: (:func:`app.core.pool.build.pool_for`): what the launch loads is chosen for the kinds left to
#: it (:func:`app.core.launch.auto.routing.choose_routed`).
ROUTED_ENGINES = frozenset({"llama.cpp"})


def candidates(
    engine: str,
    drafter_method: str | None,
    model_free: Sequence[str] = (),
    mtp_depth: int | None = None,
) -> list[Candidate]:
    """Every configuration Auto may measure for a launch (``off`` first), in measuring order.

    ``drafter_method`` is ``draft`` / ``mtp`` / ... when a drafter is available, else None;
    ``model_free`` the engine's model-free methods Auto tries (:func:`auto_model_free`);
    ``mtp_depth`` the MTP default (None: the engine's own). The calibration skips some of them
    (:func:`app.core.launch.auto.runner.skip_reason`) to stay short.
    """
    out = [OFF]
    # llama.cpp's own per-round depth control for a classic drafter; the trained
    # drafters run at their own depth, the n-gram methods draft what matched (n_min .. n_max)
    p_min = DRAFT_P_MIN if engine == "llama.cpp" and drafter_method == "draft" else None
    if drafter_method == "mtp":
        out.append(Candidate("mtp", mtp_depth))
    elif drafter_method:
        out += [Candidate(drafter_method, d, None, p_min) for d in (4, 8, 2)]  # 8 or 2 depending on 4
    # suffix decoding and prompt lookup draft only as far as they are sure: their engine's ceiling
    out += [Candidate(m, None if m in SUFFIX_METHODS else NGRAM_DEPTH) for m in model_free]
    if drafter_method and model_free and engine in COMBINING_ENGINES:
        out.append(Candidate(f"{drafter_method}+{model_free[0]}", None, NGRAM_DEPTH, p_min))
    return out


def with_images(engine: str, cands: Sequence[Candidate]) -> list[Candidate]:
    """The candidates of a launch that reads images (a llama.cpp projector loaded): the methods
    this llama.cpp refuses with a projector (:func:`vision_problem`, EAGLE-3) are left out."""
    if engine != "llama.cpp":
        return list(cands)
    return [c for c in cands if c == OFF or vision_problem(c.method) is None]


#: Drafters trained for their target (an assistant, MTP heads, EAGLE-3, DFlash): Auto starts with
#: one before measuring. A classic small drafter can lose to plain decoding on a CPU, so it waits
#: for the measurement like the rest.
TRAINED_DRAFTERS = frozenset({"mtp", "eagle3", "dflash"})


#: Model-free methods Auto tries, per engine: llama.cpp's ngram-mod (ngram-simple and the map
#: variants draft the same repeats with less memory of them); on MLX suffix decoding (it learns
#: from earlier answers) and prompt lookup (the request's own text only).
AUTO_MODEL_FREE = {"llama.cpp": ("ngram-mod",), "mlx": ("suffix", "prompt-lookup")}


def auto_model_free(engine: str) -> list[str]:
    """The model-free methods Auto tries on ``engine`` (:data:`AUTO_MODEL_FREE`) that it has."""
    available = set(model_free_methods(engine))
    return [m for m in AUTO_MODEL_FREE.get(engine, ()) if m in available]
