"""Every next step an engine error can name (``EngineError.hint``), marked for translation.

The core has no Qt, so its hints are English; :func:`app.gui.errors.hint_for` shows them through
``QCoreApplication.translate("EngineHints", hint)``. lupdate reads the strings from this table;
``tests/gui/test_error_hints.py`` fails when a hint in ``app.core`` is missing here (or one here
is no longer raised), so a new hint cannot reach a zh/ja/ko user in English.
"""

from __future__ import annotations

from app.gui.errors import QT_TRANSLATE_NOOP

ENGINE_HINTS: tuple[str, ...] = (
    # MCP tools (app/core/tools/errors.py)
    QT_TRANSLATE_NOOP(
        "EngineHints", "Check the server in Settings → Tools; the conversation is kept as it was."
    ),
    QT_TRANSLATE_NOOP("EngineHints", "Fix the field named above, then try again; nothing was changed."),
    QT_TRANSLATE_NOOP(
        "EngineHints",
        "Check the server's command (or address) and its settings in Settings → Tools, then start it again.",
    ),
    QT_TRANSLATE_NOOP("EngineHints", "Start the server in Settings → Tools, then send the message again."),
    QT_TRANSLATE_NOOP(
        "EngineHints",
        "The server may be busy or stuck: try again, or raise its time limit in Settings → Tools.",
    ),
    QT_TRANSLATE_NOOP(
        "EngineHints", "Start the server again in Settings → Tools; its log may say why it stopped."
    ),
    QT_TRANSLATE_NOOP(
        "EngineHints",
        "The tool reported the error above; change the request or the tool's settings and try again.",
    ),
    QT_TRANSLATE_NOOP(
        "EngineHints",
        "Choose a tool that a running server offers, or let the model choose (tool choice auto).",
    ),
    QT_TRANSLATE_NOOP(
        "EngineHints", 'Ask for the configuration that runs (or "auto"), or free memory and try again.'
    ),
    QT_TRANSLATE_NOOP(
        "EngineHints", "Attach the picture again: its file changed or went away after it was attached."
    ),
    QT_TRANSLATE_NOOP("EngineHints", "Change the request; the model stays loaded."),
    QT_TRANSLATE_NOOP(
        "EngineHints",
        "Check that the file is a complete model download; delete and download it again if not.",
    ),
    QT_TRANSLATE_NOOP(
        "EngineHints", "Check that the file is a complete model llama.cpp supports, or pick another file."
    ),
    QT_TRANSLATE_NOOP("EngineHints", "Check that the server is running and the endpoint URL is right."),
    QT_TRANSLATE_NOOP(
        "EngineHints", "Check the path: most servers answer under /v1, e.g. http://host:8000/v1"
    ),
    QT_TRANSLATE_NOOP(
        "EngineHints", "Choose the drafter declared for this model, or turn speculative decoding off."
    ),
    QT_TRANSLATE_NOOP("EngineHints", "Connect again."),
    QT_TRANSLATE_NOOP("EngineHints", "Download it again or pick another file."),
    QT_TRANSLATE_NOOP(
        "EngineHints", "Download the drafter declared for this model, or turn speculative decoding off."
    ),
    QT_TRANSLATE_NOOP("EngineHints", "Fix the speculative decoding settings and load again."),
    QT_TRANSLATE_NOOP(
        "EngineHints", "Give the server's OpenAI API address, e.g. https://gpu-box.example:8000/v1"
    ),
    QT_TRANSLATE_NOOP("EngineHints", "Install the engine's extra (see the README) or choose another engine."),
    QT_TRANSLATE_NOOP("EngineHints", "Load a model first."),
    QT_TRANSLATE_NOOP(
        "EngineHints", "Load a model that reads images (a vision model), or remove the images."
    ),
    QT_TRANSLATE_NOOP("EngineHints", "Load the model again."),
    QT_TRANSLATE_NOOP(
        "EngineHints", "Pick one of the models the server lists (tandem remote-models --endpoint URL)."
    ),
    QT_TRANSLATE_NOOP("EngineHints", "See the server's log for details."),
    QT_TRANSLATE_NOOP(
        "EngineHints", "Set the key in TANDEM_API_KEY or store it for this endpoint (tandem endpoint-key)."
    ),
    QT_TRANSLATE_NOOP("EngineHints", "Set the repeat penalty to 1 (off), or turn speculative decoding off."),
    QT_TRANSLATE_NOOP("EngineHints", "Set the temperature to 0, or turn speculative decoding off to sample."),
    QT_TRANSLATE_NOOP("EngineHints", "Choose one of those, or load the model again with that speculation."),
    QT_TRANSLATE_NOOP(
        "EngineHints", "Shorten the conversation or the message, or load the model with a larger context."
    ),
    QT_TRANSLATE_NOOP(
        "EngineHints",
        "Shorten the message, lower Max new tokens, or load the model with a larger context length.",
    ),
    QT_TRANSLATE_NOOP("EngineHints", "Start the server, or check the host name and port of the endpoint."),
    QT_TRANSLATE_NOOP("EngineHints", "The model stays loaded; try again, or reload it if the error repeats."),
    QT_TRANSLATE_NOOP(
        "EngineHints", "The partial answer is kept. Check the server (it may have stopped) and try again."
    ),
    QT_TRANSLATE_NOOP("EngineHints", "The server is slow or overloaded; try again, or raise the timeout."),
    QT_TRANSLATE_NOOP(
        "EngineHints",
        "The server's HTTPS certificate is not trusted here. Use a certificate from a trusted authority, or add your own CA to the system's trust store.",
    ),
    QT_TRANSLATE_NOOP("EngineHints", "Turn speculative decoding off for this model."),
    QT_TRANSLATE_NOOP(
        "EngineHints",
        "Use https:// for servers on other machines, or allow plain HTTP for this endpoint (--allow-http) if it is on a network you trust.",
    ),
    QT_TRANSLATE_NOOP(
        "EngineHints",
        "Use suffix or prompt-lookup on MLX, choose a drafter model, run the model on llama.cpp, or turn speculative decoding off.",
    ),
    QT_TRANSLATE_NOOP(
        "EngineHints",
        "Use the drafter declared for this model (e.g. a Gemma 4 assistant), or turn speculative decoding off.",
    ),
    QT_TRANSLATE_NOOP(
        "EngineHints",
        "Use the method 'draft' for a classic same-vocabulary drafter, or pick the model's own drafter.",
    ),
)
