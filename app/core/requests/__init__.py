"""The request layer: one chat request as every entry point becomes it, fitted to the loaded model,
below the HTTP APIs (:mod:`app.core.serving`) and the tool loop (:mod:`app.core.tools`), which
both build on it (:mod:`~app.core.requests.request`, :mod:`~app.core.requests.shaping`,
:mod:`~app.core.requests.tool_style`)."""
