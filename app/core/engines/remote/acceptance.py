"""Acceptance statistics as each server really reports them, never invented.

- llama.cpp server: per-chunk ``timings`` with ``draft_n`` / ``draft_n_accepted`` (asked for with
  ``timings_per_token``); turned into rounds by the remote engine with the same
  :class:`~app.core.speculative.RoundAccountant` as the in-process engine.
- vLLM: per-request ``metrics.speculative_decoding`` (server started with
  ``--per-request-spec-decode-metrics summary|detailed``; rides the final usage chunk of a stream),
  else the deltas of the Prometheus counters ``vllm:spec_decode_num_drafts_total``,
  ``vllm:spec_decode_num_draft_tokens_total``, ``vllm:spec_decode_num_accepted_tokens_total``
  around the request. The counters are server-wide: other requests running at the same time are
  counted too, so those numbers are marked as blurred by concurrent traffic.
- SGLang: ``meta_info`` of the response (asked for with ``return_meta_info``):
  ``spec_num_proposed_drafts`` / ``spec_num_correct_drafts`` where present, else
  ``spec_verify_ct`` with ``completion_tokens`` (each verify pass emits its accepted drafts plus
  one token, so accepted = completion_tokens - spec_verify_ct; the draft count is then unknown).
- Anything else: "this server does not report acceptance" (drafted and accepted are None).

Shapes are those documented by vLLM (docs/features/speculative_decoding/acceptance_metrics.md,
vLLM 0.2x, marked experimental there) and used by SGLang (tokenizer_manager meta_info,
sglang 0.5.x); see docs/remote.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

NOT_REPORTED = "this server does not report acceptance"
VLLM_COUNTERS = (
    "vllm:spec_decode_num_drafts_total",
    "vllm:spec_decode_num_draft_tokens_total",
    "vllm:spec_decode_num_accepted_tokens_total",
)


@dataclass(frozen=True)
class Acceptance:
    """Drafted / accepted tokens of one answer and where the numbers come from.

    ``None`` means the server did not say (never 0 for "unknown"). ``rounds`` is the number of
    verification passes where known. ``per_round`` holds (drafted, accepted) per pass when the
    server lists them (vLLM ``detailed``).
    """

    source: str
    drafted: int | None = None
    accepted: int | None = None
    rounds: int | None = None
    per_round: tuple[tuple[int, int], ...] = ()
    note: str = ""

    @property
    def reported(self) -> bool:
        return self.accepted is not None or self.drafted is not None


UNREPORTED = Acceptance(NOT_REPORTED)


def _int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    return None


def vllm_request_metrics(chunk: Mapping[str, Any]) -> Acceptance | None:
    """``metrics.speculative_decoding`` of a vLLM response or final stream chunk, if present."""
    metrics = chunk.get("metrics")
    if not isinstance(metrics, Mapping):
        return None
    spec = metrics.get("speculative_decoding")
    if not isinstance(spec, Mapping):
        return None
    drafted = _int(spec.get("num_draft_tokens"))
    accepted = _int(spec.get("num_accepted_draft_tokens"))
    steps = _int(spec.get("num_spec_steps"))
    if drafted is None and accepted is None:
        return None
    per_round: tuple[tuple[int, int], ...] = ()
    step_drafted = spec.get("per_step_drafted")
    step_accepted = spec.get("per_step_accepted")
    if isinstance(step_drafted, list) and isinstance(step_accepted, list):
        pairs = [(_int(d), _int(a)) for d, a in zip(step_drafted, step_accepted, strict=False)]
        if len(step_drafted) == len(step_accepted) and all(
            d is not None and a is not None and a <= d for d, a in pairs
        ):
            per_round = tuple((d, a) for d, a in pairs if d is not None and a is not None)
    return Acceptance("vLLM per-request metrics", drafted, accepted, steps, per_round)


def parse_prometheus(text: str) -> dict[str, float]:
    """Sum of every sample per sample name (labels folded), via prometheus_client's parser."""
    from prometheus_client.parser import text_string_to_metric_families

    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[sample.name] = out.get(sample.name, 0.0) + float(sample.value)
    return out


def vllm_counter_snapshot(text: str) -> dict[str, float] | None:
    """The three vLLM spec-decode counters from a /metrics text, or None when absent."""
    values = parse_prometheus(text)
    if not all(name in values for name in VLLM_COUNTERS):
        return None
    return {name: values[name] for name in VLLM_COUNTERS}


def vllm_counter_delta(before: Mapping[str, float], after: Mapping[str, float]) -> Acceptance | None:
    """Acceptance from two counter snapshots taken around one request."""
    deltas = [round(after[n] - before[n]) for n in VLLM_COUNTERS]
    if any(d < 0 for d in deltas):  # the server restarted in between: the numbers mean nothing
        return None
    drafts, draft_tokens, accepted = deltas
    return Acceptance(
        "vLLM /metrics counters",
        draft_tokens,
        accepted,
        drafts,
        note="server-wide counters read around the request; concurrent traffic on the server blurs them",
    )


def sglang_meta_info(meta: Mapping[str, Any]) -> Acceptance | None:
    """Acceptance from an SGLang ``meta_info`` object, if it carries speculative counters."""
    proposed = _int(meta.get("spec_num_proposed_drafts", meta.get("spec_draft_token_num")))
    correct = _int(meta.get("spec_num_correct_drafts", meta.get("spec_accept_token_num")))
    verify = _int(meta.get("spec_verify_ct"))
    completion = _int(meta.get("completion_tokens"))
    if proposed is not None and correct is not None and correct <= proposed:
        return Acceptance("SGLang meta_info", proposed, correct, verify)
    if verify is not None and completion is not None and verify > 0 and completion >= verify:
        return Acceptance(
            "SGLang meta_info",
            None,
            completion - verify,
            verify,
            note="accepted = completion_tokens - spec_verify_ct; drafted count not reported",
        )
    return None


def find_sglang_meta(chunk: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """``meta_info`` at the top level of a response/chunk or inside its first choice."""
    meta = chunk.get("meta_info")
    if isinstance(meta, Mapping):
        return meta
    choices = chunk.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], Mapping):
        inner = choices[0].get("meta_info")
        if isinstance(inner, Mapping):
            return inner
    return None


# --- which speculation a server runs -------------------------------------------------------------
#: the method name when a server shows that it drafts but not how
UNNAMED_METHOD = "speculative"
#: vLLM's per-position acceptance counter (one series per draft position)
VLLM_PER_POSITION = "vllm:spec_decode_num_accepted_tokens_per_pos_total"


@dataclass(frozen=True)
class ServerMethod:
    """The speculation a server says it runs: ``method`` is its name (``"ngram"``, ``"suffix"``,
    ``"mtp"``...), :data:`UNNAMED_METHOD` when the server only shows that it drafts, None when it
    runs none or does not say (``source`` tells which); ``depth`` is draft tokens per round."""

    method: str | None
    source: str
    depth: int | None = None


_VLLM_SPEC_TEXT = re.compile(r"speculative_config=(None|SpeculativeConfig\((?P<body>[^()]*)\))")
_VLLM_FIELD = re.compile(r"(\w+)=('(?:[^'\\]|\\.)*'|[^,]*)")


def speculation_of_vllm_config(info: Any) -> ServerMethod | None:
    """The speculative config in vLLM's ``/server_info`` answer (its development routes), or
    None when the answer does not carry it. vLLM 0.32 prints ``vllm_config`` as text
    (``speculative_config=SpeculativeConfig(method='suffix', model=None, num_spec_tokens=8)``);
    a structured ``speculative_config`` object is read too."""
    if not isinstance(info, Mapping):
        return None
    config = info.get("vllm_config")
    source = "vLLM /server_info speculative_config"
    if isinstance(config, str):
        found = _VLLM_SPEC_TEXT.search(config)
        if found is None:
            return None
        if found.group(1) == "None":
            return ServerMethod(None, f"{source}: none (plain decoding)")
        fields = {k: v.strip().strip("'") for k, v in _VLLM_FIELD.findall(found.group("body") or "")}
        method = fields.get("method") or ""
        depth = fields.get("num_spec_tokens") or fields.get("num_speculative_tokens") or ""
        return ServerMethod(
            method if method and method != "None" else UNNAMED_METHOD,
            source,
            int(depth) if depth.isdigit() else None,
        )
    if not isinstance(config, Mapping) or "speculative_config" not in config:
        return None
    spec = config.get("speculative_config")
    if not isinstance(spec, Mapping) or not spec:
        return ServerMethod(None, f"{source}: none (plain decoding)")
    method = spec.get("method")
    return ServerMethod(
        str(method) if method else UNNAMED_METHOD,
        source,
        _int(spec.get("num_speculative_tokens", spec.get("num_spec_tokens"))),
    )


def vllm_method_from_metrics(text: str) -> ServerMethod:
    """What vLLM's ``/metrics`` shows: its drafting counters exist only when the server was
    started with a speculative config (the method's name is not among them); the number of
    per-position series is the draft depth."""
    from prometheus_client.parser import text_string_to_metric_families

    positions: set[str] = set()
    has_counters = False
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name in VLLM_COUNTERS:
                has_counters = True
            elif sample.name == VLLM_PER_POSITION and "position" in sample.labels:
                positions.add(sample.labels["position"])
    if not has_counters:
        return ServerMethod(None, "vLLM /metrics: no speculative decoding counters (plain decoding)")
    return ServerMethod(
        UNNAMED_METHOD,
        "vLLM /metrics: speculative decoding counters (the method's name is not reported)",
        len(positions) or None,
    )


def speculation_of_props(props: Mapping[str, Any]) -> ServerMethod:
    """llama-server's ``/props``: whether its slots speculate and the draft maximum (the type of
    drafting is not reported)."""
    settings = props.get("default_generation_settings")
    if not isinstance(settings, Mapping) or "speculative" not in settings:
        return ServerMethod(None, "llama-server /props does not say whether it speculates")
    if not settings.get("speculative"):
        return ServerMethod(None, "llama-server /props: speculative decoding off")
    params = settings.get("params")
    depth = _int(params.get("speculative.n_max")) if isinstance(params, Mapping) else None
    return ServerMethod(UNNAMED_METHOD, "llama-server /props: speculative decoding on", depth)
