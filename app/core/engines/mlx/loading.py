"""Loading an MLX pair: the plan, the tokenizer, the target and the drafter, on the MLX thread.

:func:`load_pair` decides how the pair runs (:func:`~app.core.engines.mlx.pair.plan_pair`, which
validates it before any weights are read), refuses a classic drafter with another vocabulary or a
KV cache that cannot be rolled back, loads the target's image processor when it reads images and
opens the suffix cache of the model-free methods. What it loaded is one :class:`Loaded`, which the
engine keeps until it closes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.core.engines.base import DrafterMismatchError, LoadRequest
from app.core.engines.mlx.pair import PairPlan, plan_pair, vocabulary_difference
from app.core.speculative.options import SUFFIX_METHODS
from app.core.speculative.suffix import SuffixCache, SuffixStore, vocabulary_fingerprint


class Loaded:
    """Models and tokenizer; created, used and released on the MLX thread only."""

    def __init__(self, plan: PairPlan) -> None:
        self.plan = plan
        #: user-facing remarks made at load (the plan's, and why images cannot be read)
        self.notes: tuple[str, ...] = plan.notes
        #: the drafter only supports temperature 0
        self.greedy_only = False
        self.target: Any = None
        self.drafter: Any = None
        self.tokenizer: Any = None
        self.eos_ids: set[int] = set()
        #: model-free methods: the suffix cache, and (suffix decoding) where it persists
        self.suffix: SuffixCache | None = None
        self.store: SuffixStore | None = None
        self.cost: Any = None  # mlx_modelfree.VerifyCost, measured across requests
        #: the target's processor when it reads images (see :mod:`app.core.engines.mlx.vision`)
        self.processor: Any = None


def eos_ids(tokenizer: Any, config: dict[str, Any]) -> set[int]:
    out: set[int] = set()
    for value in (
        getattr(tokenizer, "eos_token_id", None),
        config.get("eos_token_id"),
        (config.get("text_config") or {}).get("eos_token_id"),
        config.get("_generation_eos_token_id"),
    ):
        if isinstance(value, int):
            out.add(value)
        elif isinstance(value, list):
            out.update(v for v in value if isinstance(v, int))
    return out


def load_pair(request: LoadRequest, say: Callable[[str], None]) -> Loaded:
    """Plan the pair (validated before any weights), then load tokenizer, target and drafter as
    the plan says; ``say`` gets short status lines. MLX thread only."""
    plan = plan_pair(request.model_path, request.speculation)
    spec = request.speculation
    state = Loaded(plan)
    target_path = Path(request.model_path)
    from transformers import AutoTokenizer

    for note in plan.notes:
        say(note)
    say(f"Loading {target_path.name} with {'mlx-vlm' if plan.backend == 'vlm' else 'mlx-lm'}")
    state.tokenizer = AutoTokenizer.from_pretrained(str(target_path))
    state.eos_ids = eos_ids(state.tokenizer, plan.target_config)
    if plan.kind == "draft" and spec.draft_model_path:
        # Tokenizers are cheap: refuse a different vocabulary before loading any weights.
        check_classic_vocabulary(state.tokenizer, Path(spec.draft_model_path))
    if plan.backend == "vlm":
        from mlx_vlm.utils import load_model as vlm_load_model

        state.target = vlm_load_model(target_path)
        _load_image_processor(state, target_path, say)
    else:
        from mlx_lm.utils import load_model as lm_load_model

        state.target, _ = lm_load_model(target_path)

    if plan.kind in SUFFIX_METHODS:
        open_suffix_cache(state, plan)
        return state
    if plan.kind is None:
        return state
    assert spec.draft_model_path is not None
    drafter_path = Path(spec.draft_model_path)
    say(f"Loading drafter {drafter_path.name} ({plan.kind})")
    if plan.kind == "draft":
        from mlx_lm.models.cache import can_trim_prompt_cache, make_prompt_cache
        from mlx_lm.utils import load_model as lm_load_model

        state.drafter, _ = lm_load_model(drafter_path)
        for role, model in (("target", state.target), ("drafter", state.drafter)):
            if not can_trim_prompt_cache(make_prompt_cache(model)):
                raise DrafterMismatchError(
                    f"This {role}'s KV cache cannot be rolled back (a recurrent state, e.g. "
                    "Mamba's), which classic speculative decoding needs.",
                    hint="Choose another drafter, or turn speculative decoding off for this model."
                    if role == "drafter"
                    else "Turn speculative decoding off for this model.",
                )
    else:
        from mlx_vlm.speculative.drafters import load_drafter, validate_drafter_compatibility

        state.drafter, kind = load_drafter(str(drafter_path), kind=plan.kind)
        if kind != plan.kind:
            raise DrafterMismatchError(f"mlx-vlm runs this drafter as {kind!r}, not {plan.kind!r}.")
        say("Checking the drafter against the target")
        try:
            validate_drafter_compatibility(state.target, state.drafter, kind)
        except ValueError as exc:
            raise DrafterMismatchError(f"The drafter does not fit this target: {exc}") from exc
        state.greedy_only = bool(getattr(state.drafter, "requires_greedy_sampling", False))
    return state


def _load_image_processor(state: Loaded, target_path: Path, say: Callable[[str], None]) -> None:
    from app.core.engines.mlx.vision import load_image_processor

    processor, why_not = load_image_processor(target_path, state.target)
    if why_not:
        state.notes = (*state.notes, why_not)
        say(why_not)
    state.processor = processor


def open_suffix_cache(state: Loaded, plan: PairPlan) -> None:
    """Give ``state`` the suffix cache of its model-free ``plan`` (suffix decoding's corpus from the
    store of this vocabulary; a fresh one for prompt lookup or a private corpus)."""
    if plan.backend == "lm":
        from mlx_lm.models.cache import can_trim_prompt_cache, make_prompt_cache

        if not can_trim_prompt_cache(make_prompt_cache(state.target)):
            raise DrafterMismatchError(
                f"This model's KV cache cannot be rolled back, which {plan.kind} decoding needs.",
                hint="Turn speculative decoding off for this model.",
            )
    if plan.kind == "suffix" and not plan.private_corpus:
        # Token ids mean something for one vocabulary only: one stored corpus per vocabulary.
        state.store = SuffixStore(vocabulary_fingerprint(state.tokenizer.get_vocab()))
        state.suffix = state.store.open_cache()
    else:  # prompt lookup, or a private corpus: nothing comes from or goes to the store
        state.suffix = SuffixCache()


def check_classic_vocabulary(target_tokenizer: Any, drafter_path: Path) -> None:
    """Refuse a classic drafter whose tokenizer has another vocabulary than the target's."""
    if not any((drafter_path / f).is_file() for f in ("tokenizer.json", "tokenizer.model", "vocab.json")):
        return  # no tokenizer shipped with the drafter: the config-level check already ran
    from transformers import AutoTokenizer

    drafter_tokenizer = AutoTokenizer.from_pretrained(str(drafter_path))
    diff = vocabulary_difference(target_tokenizer.get_vocab(), drafter_tokenizer.get_vocab())
    if diff:
        raise DrafterMismatchError(f"The drafter's vocabulary differs from the target's: {diff}.")
