"""The launch dialog's words: each form note said in the user's language, and the tooltips the
dialog computes (the tokens-per-round field's, the drafter switch's, the model-free methods'),
and the sentence that says what a launch without Auto runs.

Every text keeps the dialog's translation context (``LaunchDialog``), so the translations it
always had apply wherever the text is built.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.core.launch.form_state import LaunchSpeculation, Note, NoteCode
from app.core.speculative import DefaultDepth
from app.gui.errors import QT_TRANSLATE_NOOP
from app.gui.views.depth_field import DepthField

#: Each note code's sentence, in the dialog's translation context (the sentences and their
#: translations are the ones the dialog always had); parameters are filled in by ``_say``.
NOTE_TEXTS: dict[NoteCode, str] = {
    NoteCode.ENGINE_UNAVAILABLE: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "This engine is not available here: {reason}",
    ),
    NoteCode.TARGET_NOT_CACHED: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "{quant} is not downloaded yet; launching queues its download first.",
    ),
    NoteCode.DRAFTER_NOT_CACHED: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "The drafter ({quant}) is not downloaded yet. Launching queues its download, "
        "then loads the model with it.",
    ),
    NoteCode.MOE_DRAFTER_COST: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "This is a mixture-of-experts model: it computes only part of itself per token, so a "
        "drafter may cost more than it saves. Compare the tokens/s in the statistics strip "
        "with speculation on and off.",
    ),
    NoteCode.AUTO_DRAFTER_NOT_CACHED: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "The drafter ({quant}) is not downloaded, so Auto measures without it. Download it "
        "from the Models page to let Auto try it.",
    ),
    NoteCode.FINDING_DRAFTERS: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "Looking for a compatible drafter on this computer…",
    ),
    NoteCode.NO_COMPATIBLE_DRAFTER: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "No compatible drafter found on this computer. Download a smaller model of the same "
        "family (same vocabulary) to draft for it, or use a model-free method.",
    ),
    NoteCode.DRAFTER_SEARCH_FAILED: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "The drafter search failed: {detail}",
    ),
    NoteCode.DRAFTER_BLOCKS_MODEL_FREE: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "Turn the drafter off to use a model-free method.",
    ),
    NoteCode.PROJECTOR_NOT_CACHED: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "This model reads images with its projector (mmproj), which is not downloaded: this launch "
        "reads text only. Download the model again from the Models page to fetch it.",
    ),
    NoteCode.METHOD_BLOCKS_IMAGES: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "{method} cannot run with pictures on this llama.cpp: this launch reads text only. "
        "Choose another speculation method to send pictures.",
    ),
    NoteCode.MAX_TOKENS_NOT_BELOW_CONTEXT: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "Max new tokens ({max}) must be less than the context length ({ctx}): the "
        "conversation needs room in the context too.",
    ),
}
#: A note code without a sentence of its own: a sampling value the form refused.
SAMPLING_NOTE = QT_TRANSLATE_NOOP("LaunchDialog", "These sampling values cannot be used: {detail}")


#: What the launch dialog says when the conversation that launches has pictures this launch
#: cannot read (``CHAT_IMAGES_UNREADABLE``), by the note's ``why``.
CHAT_IMAGES_TEXTS: dict[str, str] = {
    "text-model": QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "This conversation has pictures, and this model reads text only: a message with a picture "
        "cannot go to it. Choose a model that reads images, or start a new conversation.",
    ),
    "projector": QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "This conversation has pictures, but this launch reads text only: the model's image "
        "projector (mmproj) is not downloaded. Download the model again from the Models page.",
    ),
    "method": QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "This conversation has pictures, but {method} cannot run with pictures here: this launch "
        "reads text only. Choose another speculation method to send them.",
    ),
}


def say(note: Note) -> str:
    """A form model's note in the user's language (:data:`NOTE_TEXTS`)."""
    if note.code == NoteCode.DEPTH_INVALID:
        return DepthField.invalid_text()
    p = note.params
    if note.code == NoteCode.READS_IMAGES:
        if not p.get("methods"):
            return QCoreApplication.translate(
                "LaunchDialog", "Reads images: its vision tower is part of the model."
            )
        if p.get("refused"):
            return QCoreApplication.translate(
                "LaunchDialog",
                "Reads images with its projector. With pictures, speculation runs with {methods}; "
                "not with {refused}.",
            ).format(methods=p["methods"], refused=p["refused"])
        return QCoreApplication.translate(
            "LaunchDialog", "Reads images with its projector; speculation runs with pictures too."
        )
    if note.code == NoteCode.CHAT_IMAGES_UNREADABLE:
        why = str(p.get("why", "text-model"))
        text = QCoreApplication.translate(
            "LaunchDialog", CHAT_IMAGES_TEXTS.get(why, CHAT_IMAGES_TEXTS["text-model"])
        )
        return text.format(method=p.get("method", ""))
    text = QCoreApplication.translate("LaunchDialog", NOTE_TEXTS.get(note.code, SAMPLING_NOTE))
    return text.format(
        reason=p.get("reason", ""),
        quant=p.get("quant") or QCoreApplication.translate("LaunchDialog", "default"),
        detail=p.get("detail", ""),
        max=p.get("max_tokens", ""),
        ctx=p.get("n_ctx", ""),
        method=p.get("method", ""),
    )


def placeholder(value: int | None) -> str:
    """The tokens-per-round field's placeholder: the engine's default depth."""
    if value is None:
        return QCoreApplication.translate("LaunchDialog", "engine default")
    return QCoreApplication.translate("LaunchDialog", "engine default: {value}").format(value=value)


def depth_tip(engine: str, method: str, default: DefaultDepth) -> str:
    """What the tokens-per-round value means on ``engine``: drafted tokens per round on every
    engine (llama.cpp ``draft.n_max``; on MLX the drafter's block minus the verified token)."""
    value = default.value
    base = QCoreApplication.translate(
        "LaunchDialog",
        "Tokens per round: how many tokens are drafted before the model verifies them. The model "
        "adds one token of its own every round, so a round yields at most this many plus one. "
        "Leave empty for the engine default.",
    )
    explained = engine == "mlx" and method == "mtp" and value is not None
    if engine == "mlx" and method == "mtp" and value is not None:
        detail = QCoreApplication.translate(
            "LaunchDialog",
            "On MLX the Gemma 4 assistant is trained on blocks of {block} tokens that include the "
            "verified token, so it drafts {value} per round by default.",
        ).format(block=value + 1, value=value)
    elif engine == "mlx" and method in ("suffix", "prompt-lookup"):
        detail = QCoreApplication.translate(
            "LaunchDialog",
            "On MLX suffix decoding and prompt lookup this is the longest draft in a round; a round "
            "drafts fewer when the learned text is less sure.",
        )
    elif engine == "mlx":
        detail = QCoreApplication.translate(
            "LaunchDialog",
            "On MLX this is the drafter's block size minus the verified token; empty uses the depth "
            "the drafter was trained for.",
        )
    elif method.startswith("ngram"):
        detail = QCoreApplication.translate(
            "LaunchDialog",
            "On llama.cpp n-gram methods this is the longest draft taken from earlier text in a round.",
        )
    else:
        detail = QCoreApplication.translate(
            "LaunchDialog",
            "On llama.cpp this is the drafter's maximum draft length (draft.n_max); a round may "
            "draft fewer when the drafter is unsure.",
        )
    if value is not None and not explained:
        detail += " " + QCoreApplication.translate(
            "LaunchDialog", "Default here: {value} ({source})."
        ).format(value=value, source=default_source(default))
    return f"{base}\n\n{detail}"


def default_source(default: DefaultDepth) -> str:
    """Why the default is what it is, from core's code, in the user's language."""
    if default.code == "gemma4-size-table":
        return QCoreApplication.translate("LaunchDialog", "recommended for this Gemma 4 size")
    if default.code == "trained-depth":
        return QCoreApplication.translate("LaunchDialog", "the drafter's trained depth")
    if default.code == "not-offered":
        return QCoreApplication.translate("LaunchDialog", "not offered by this engine")
    if default.code == "model-free-ceiling":
        return QCoreApplication.translate("LaunchDialog", "Tandem's longest draft for this method")
    if default.code == "adaptive-ceiling":
        return QCoreApplication.translate(
            "LaunchDialog", "Tandem's longest draft; each round's depth follows the measured acceptance"
        )
    return QCoreApplication.translate("LaunchDialog", "llama.cpp's own default")


def drafter_tip(source: str, on_disk: bool, quant: str | None) -> str:
    """The drafter switch's tooltip: what it runs and whether turning it on downloads anything
    (it follows the drafter's cache state: a declared drafter on disk is not downloaded again)."""
    if source == "found":
        return QCoreApplication.translate(
            "LaunchDialog",
            "Runs the drafter file chosen below beside the model: it proposes several tokens per "
            "round and the model verifies them in one pass, so the answer is identical. It was "
            "found on this computer with the same vocabulary; nothing is downloaded.",
        )
    if source == "builtin":
        return QCoreApplication.translate(
            "LaunchDialog",
            "Drafts with the model's own multi-token prediction (MTP) heads: they propose several "
            "tokens per round and the model verifies them in one pass, so the answer is identical. "
            "The heads are part of the model's file; nothing is downloaded.",
        )
    what = QCoreApplication.translate(
        "LaunchDialog",
        "Runs a small drafter beside the model. The drafter proposes several tokens per round and "
        "the model verifies them in one pass: the answer is identical, decoding is faster.",
    )
    name = quant or QCoreApplication.translate("LaunchDialog", "default")
    if on_disk:
        disk = QCoreApplication.translate(
            "LaunchDialog", "The drafter ({quant}) is already on this computer; nothing is downloaded."
        )
    else:
        disk = QCoreApplication.translate(
            "LaunchDialog",
            "The drafter ({quant}) is not on this computer yet: launching with it on downloads it first.",
        )
    return f"{what}\n\n{disk.format(quant=name)}"


def speculation_summary(sp: LaunchSpeculation, method_name: str) -> str:
    """What a launch without Auto runs, in one sentence for the Speculation box (``method_name``:
    the model-free method as the dialog names it)."""
    if sp.kind == "off":
        return QCoreApplication.translate(
            "LaunchDialog",
            "Auto is off: this launch answers without speculation. Turn Auto on to let Tandem "
            "choose, or choose a drafter or a model-free method below.",
        )
    if sp.kind == "drafter" and sp.source == "builtin":
        what = QCoreApplication.translate("LaunchDialog", "the model's own MTP heads")
    elif sp.kind == "drafter" and sp.method == "mtp":
        what = QCoreApplication.translate("LaunchDialog", "the MTP assistant")
    elif sp.kind == "drafter" and sp.method != "draft":
        what = QCoreApplication.translate("LaunchDialog", "the drafter model ({method})").format(
            method=sp.method
        )
    elif sp.kind == "drafter":
        what = QCoreApplication.translate("LaunchDialog", "the drafter model")
    else:
        what = method_name
    depth = sp.depth if sp.depth is not None else sp.default_depth
    if depth is None:
        runs = QCoreApplication.translate(
            "LaunchDialog",
            "This launch drafts with {what}, as many tokens per round as the engine's default.",
        ).format(what=what)
    else:
        runs = QCoreApplication.translate(
            "LaunchDialog", "This launch drafts with {what}, up to {depth} tokens per round."
        ).format(what=what, depth=depth)
    if not sp.replaces_auto:
        return runs + "\n" + QCoreApplication.translate("LaunchDialog", "Auto is off.")
    if sp.kind == "drafter":
        back = QCoreApplication.translate(
            "LaunchDialog", "Auto is off while the drafter is on: turn the drafter off to go back to Auto."
        )
    else:
        back = QCoreApplication.translate(
            "LaunchDialog",
            "Auto is off while a model-free method is chosen: choose Off there to go back to Auto.",
        )
    return f"{runs}\n{back}"  # a line each: no sentence joining that reads wrong in CJK


def model_free_texts() -> tuple[dict[str, str], dict[str, str]]:
    """The names and tooltips of MLX's suffix decoding and prompt lookup."""
    tips = {
        "suffix": QCoreApplication.translate(
            "LaunchDialog",
            "Suffix decoding: drafts from your earlier questions and answers (kept on this computer), "
            "so a regenerated or similar answer comes out many tokens per round; the model still "
            "checks every token, so the answer is the same. Settings > Forget learned text deletes "
            "what it learned; deleting a conversation deletes what that conversation taught.",
        ),
        "prompt-lookup": QCoreApplication.translate(
            "LaunchDialog",
            "Prompt lookup: drafts by copying from this request's own text (the conversation so far), "
            "nothing is kept between requests. It helps when the answer repeats the question, such "
            "as editing code.",
        ),
    }
    names = {
        "suffix": QCoreApplication.translate("LaunchDialog", "Suffix decoding"),
        "prompt-lookup": QCoreApplication.translate("LaunchDialog", "Prompt lookup"),
    }
    return names, tips
