"""What llama.cpp can load, refused before any process starts: the files, the drafter against the
method and the target, known native aborts, the vision projector.

A refusal is one line saying what the file is and what to do (llama.cpp itself only logs most of
these, or ends the process with a ``GGML_ASSERT``, which would close the app).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.engines.base import DrafterMismatchError, ModelLoadError
from app.core.engines.capability import GGUFFacts, llamacpp_abort, vision_problem
from app.core.engines.llamacpp import translate
from app.core.gguf_tools import GGUFFormatError, compare_vocab, read_header, vocab_info
from app.core.speculative.detect import (
    ModelFacts,
    facts_from_fields,
    method_for_drafter,
    method_mismatch,
    pair_problem,
)


class MethodRefusedError(DrafterMismatchError):
    """A method / drafter / target combination that cannot draft, refused from GGUF metadata; the
    one-line message says what the file is and what to do."""

    hint = ""


class KnownAbortError(ModelLoadError):
    """A configuration llama.cpp is known to abort the process on; the message is the whole story."""

    hint = ""


def gguf_facts(path: Path) -> GGUFFacts:
    fields = read_header(path).fields
    arch = str(fields.get("general.architecture") or "")

    def number(key: str) -> int | None:
        value = fields.get(f"{arch}.{key}")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    return GGUFFacts(
        arch, number("embedding_length"), number("embedding_length_out"), number("target_hidden_size")
    )


def model_facts(path: Path) -> ModelFacts:
    try:
        return facts_from_fields(read_header(path).fields)
    except GGUFFormatError as exc:
        raise ModelLoadError(str(exc)) from exc


def check_drafter(
    p: translate.LlamaCppPlan,
    method: str,
    target: Path,
    target_facts: ModelFacts,
    target_vocab: Any,
    drafter: Path,
    draft_vocab: Any,
) -> translate.LlamaCppPlan:
    """The plan with the drafter's own method when the user left it at ``draft`` (the drafter's
    architecture picks it), or a one-line refusal of a drafter the method or the target cannot use."""
    facts = model_facts(drafter)
    if not p.user_driven:
        fits = TYPE_BY_METHOD_FOR_DRAFTER[method_for_drafter(facts)]
        if "DRAFT_SIMPLE" in p.types and fits != "DRAFT_SIMPLE":  # "draft" is the default method
            p = translate.LlamaCppPlan(
                **{**p.__dict__, "types": [fits if t == "DRAFT_SIMPLE" else t for t in p.types]}
            )
        else:
            problem = method_mismatch(method, facts, drafter.name)
            if problem:
                raise MethodRefusedError(f"refused: {problem}")
    problem = pair_problem(target_facts, facts, target.name, drafter.name)
    if problem:
        raise MethodRefusedError(f"refused: {problem}")
    if facts.role == "lm" and draft_vocab.size:
        diff = compare_vocab(target_vocab, draft_vocab)
        if diff:
            raise DrafterMismatchError(
                f"the drafter {drafter.name} cannot draft for {target.name}: {diff}. "
                "A drafter must share the target's vocabulary."
            )
    return p


def check_native_types(p: translate.LlamaCppPlan, drafter: Path) -> None:
    """Engine-native ``speculative.types`` whose drafter types cannot run this drafter draft nothing
    (llama.cpp only logs it): refused in one line. llama.cpp runs an EAGLE-3 or DFlash drafter under
    DRAFT_SIMPLE too, by its architecture."""
    drafter_types = [t for t in p.types if t in TYPE_BY_METHOD_FOR_DRAFTER.values()]
    if not drafter_types:
        return
    facts = model_facts(drafter)
    fits = TYPE_BY_METHOD_FOR_DRAFTER[method_for_drafter(facts)]
    if fits in p.types or (fits in ("DRAFT_EAGLE3", "DRAFT_DFLASH") and "DRAFT_SIMPLE" in p.types):
        return
    raise MethodRefusedError(
        f"refused: your engine-native speculative.types ({', '.join(drafter_types)}) cannot use "
        f"{drafter.name}: it is {facts.described}, which runs with {fits}"
    )


TYPE_BY_METHOD_FOR_DRAFTER = {m: translate.TYPE_BY_METHOD[m] for m in ("draft", "mtp", "eagle3", "dflash")}


def refuse_known_aborts(p: translate.LlamaCppPlan, target: Path, drafter: Path) -> None:
    """Refuse, in one line, a configuration llama.cpp is known to abort the process on.

    A GGML_ASSERT ends the whole process, GUI included, so this runs before the engine is built,
    whether the types came from Tandem's options or from an explicit engine-native setting.
    """
    try:
        row = llamacpp_abort(p.types, gguf_facts(target), gguf_facts(drafter))
    except GGUFFormatError as exc:
        raise ModelLoadError(str(exc)) from exc
    if row is None:
        return
    source = "your engine-native speculative.types" if p.user_driven else "the chosen method"
    raise KnownAbortError(
        f"refused: {row.speculative_type} ({source}) with the drafter {drafter.name} and the target "
        f"{target.name} would abort llama.cpp and close the app; {row.advice}."
    )


def check_mmproj(mmproj: Path, target: Path) -> None:
    """A one-line :class:`ModelLoadError` for a projector llama.cpp cannot give this target.

    llama.cpp itself only says "Failed to init server" for a missing, corrupt or foreign file, and
    for a projector made for a model of another width (``mtmd_init_from_file: mismatch between text
    model (n_embd = 128) and mmproj (n_embd = 64)``, in its log): the GGUF header says it first.
    """
    if not mmproj.exists():
        raise ModelLoadError(
            f"the vision projector {mmproj} does not exist", "Download it again or pick another file."
        )
    if mmproj.is_dir():
        raise ModelLoadError(
            f"the vision projector path {mmproj} is a folder; llama.cpp needs an mmproj .gguf file"
        )
    try:
        fields = read_header(mmproj).fields
        target_fields = read_header(target).fields
    except GGUFFormatError as exc:
        raise ModelLoadError(f"the vision projector cannot be used: {exc}") from exc
    arch = str(fields.get("general.architecture") or "")
    if arch != "clip":
        kind = f"a {arch} model" if arch else "a GGUF file without an architecture"
        raise ModelLoadError(
            f"{mmproj.name} is not a vision projector (mmproj): it is {kind}",
            "Download it again or pick another file.",
        )
    # the converter writes the flag only for a vision encoder; an audio-only projector has none
    if not fields.get("clip.has_vision_encoder", not fields.get("clip.has_audio_encoder", False)):
        raise ModelLoadError(
            f"{mmproj.name} has no vision encoder (an audio-only projector); images need a vision one"
        )
    width = fields.get("clip.vision.projection_dim")
    target_arch = str(target_fields.get("general.architecture") or "")
    target_width = target_fields.get(f"{target_arch}.embedding_length")
    if whole(width) and whole(target_width) and width != target_width:
        raise ModelLoadError(
            f"the vision projector {mmproj.name} makes {width}-wide embeddings but {target.name} is "
            f"{target_width} wide: it belongs to another model (use the mmproj published with this one)",
            "Download it again or pick another file.",
        )


def whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def refuse_without_vision(p: translate.LlamaCppPlan, drafter_arch: str, mmproj: Path) -> None:
    """Refuse, in one line, a speculation method the vision probe saw fail once images are in the
    prompt (:data:`~app.core.engines.capability.LLAMACPP_VISION`); before any process starts."""
    names = translate.METHOD_BY_TYPE
    methods = [names[t] for t in p.types if t in names]
    if drafter_arch in ("eagle3", "dflash") and "draft" in methods:  # llama.cpp runs it by its kind
        methods = [drafter_arch if m == "draft" else m for m in methods]
    for method in methods:
        problem = vision_problem(method)
        if problem:
            source = "your engine-native speculative.types" if p.user_driven else "the chosen method"
            raise MethodRefusedError(
                f"refused: {method} ({source}) with the vision projector {mmproj.name}: {problem}"
            )


def probe(path: Path, role: str) -> Any:
    if not path.exists():
        raise ModelLoadError(
            f"the {role} file {path} does not exist", "Download it again or pick another file."
        )
    if path.is_dir():
        raise ModelLoadError(f"the {role} path {path} is a folder; llama.cpp needs a .gguf file")
    try:
        return vocab_info(path)
    except GGUFFormatError as exc:
        raise ModelLoadError(str(exc)) from exc
