"""Parsers of other servers' acceptance reports, and the endpoint rules (URL, HTTPS, keyring).

The vLLM and SGLang payloads are recorded shapes from their documentation/source (these parse
another server's data, so fixtures are the right tool):
- vLLM docs/features/speculative_decoding/acceptance_metrics.md (vLLM 0.2x, "experimental"):
  ``metrics.speculative_decoding`` of a ``--per-request-spec-decode-metrics summary`` response,
  ``detailed`` adds per-step arrays; Prometheus counters ``vllm:spec_decode_num_*_total``.
- SGLang 0.5.x ``meta_info`` (tokenizer_manager: ``spec_verify_ct`` on finished requests; newer
  builds add ``spec_num_proposed_drafts`` / ``spec_num_correct_drafts``), returned on
  /v1/chat/completions with ``return_meta_info``.
"""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest
from keyring.backend import KeyringBackend

from app.core.engines.remote import acceptance as acc
from app.core.engines.remote.endpoints import (
    Endpoint,
    EndpointError,
    InsecureEndpointError,
    delete_api_key,
    forget_endpoint,
    get_api_key,
    load_endpoints,
    normalize_url,
    remember_endpoint,
    resolve_api_key,
    set_api_key,
)

VLLM_SUMMARY = {
    "choices": [],
    "usage": {"prompt_tokens": 10, "completion_tokens": 53, "total_tokens": 63},
    "metrics": {
        "speculative_decoding": {
            "mean_acceptance_length": 1.2325581395348837,
            "draft_acceptance_rate": 0.07751937984496124,
            "acceptance_histogram": [39, 1, 0, 3],
            "acceptance_histogram_by_draft_length": {"3": [39, 1, 0, 3]},
            "num_spec_steps": 43,
            "num_accepted_draft_tokens": 10,
            "num_draft_tokens": 129,
            "num_spec_tokens": 3,
        }
    },
}

VLLM_METRICS_TEXT = """\
# HELP vllm:spec_decode_num_drafts_total Number of spec decoding drafts.
# TYPE vllm:spec_decode_num_drafts_total counter
vllm:spec_decode_num_drafts_total{{engine="0",model_name="google/gemma-4-E4B-it"}} {drafts}
# HELP vllm:spec_decode_num_draft_tokens_total Number of draft tokens.
# TYPE vllm:spec_decode_num_draft_tokens_total counter
vllm:spec_decode_num_draft_tokens_total{{engine="0",model_name="google/gemma-4-E4B-it"}} {tokens}
# HELP vllm:spec_decode_num_accepted_tokens_total Number of accepted tokens.
# TYPE vllm:spec_decode_num_accepted_tokens_total counter
vllm:spec_decode_num_accepted_tokens_total{{engine="0",model_name="google/gemma-4-E4B-it"}} {accepted}
# HELP vllm:generation_tokens_total Number of generation tokens processed.
# TYPE vllm:generation_tokens_total counter
vllm:generation_tokens_total{{engine="0",model_name="google/gemma-4-E4B-it"}} 900.0
"""


def test_vllm_per_request_summary() -> None:
    a = acc.vllm_request_metrics(VLLM_SUMMARY)
    assert a == acc.Acceptance("vLLM per-request metrics", 129, 10, 43)
    assert acc.vllm_request_metrics({"metrics": {"speculative_decoding": None}}) is None  # n > 1 or off
    assert acc.vllm_request_metrics({"choices": []}) is None


def test_vllm_per_request_detailed_lists_rounds() -> None:
    detailed = {"metrics": {"speculative_decoding": {
        "num_spec_steps": 3, "num_accepted_draft_tokens": 4, "num_draft_tokens": 9,
        "per_step_accepted": [3, 0, 1], "per_step_drafted": [3, 3, 3],
    }}}  # fmt: skip
    a = acc.vllm_request_metrics(detailed)
    assert a is not None and a.per_round == ((3, 3), (3, 0), (3, 1))
    broken = {"metrics": {"speculative_decoding": {
        "num_draft_tokens": 6, "num_accepted_draft_tokens": 1,
        "per_step_accepted": [4], "per_step_drafted": [3],
    }}}  # fmt: skip
    b = acc.vllm_request_metrics(broken)
    assert b is not None and b.per_round == ()  # accepted > drafted: not believed


def test_vllm_counter_deltas_around_a_request() -> None:
    before = acc.vllm_counter_snapshot(VLLM_METRICS_TEXT.format(drafts=100.0, tokens=400.0, accepted=250.0))
    after = acc.vllm_counter_snapshot(VLLM_METRICS_TEXT.format(drafts=112.0, tokens=448.0, accepted=281.0))
    assert before is not None and after is not None
    a = acc.vllm_counter_delta(before, after)
    assert a is not None and (a.drafted, a.accepted, a.rounds) == (48, 31, 12)
    assert "concurrent traffic" in a.note
    assert acc.vllm_counter_delta(after, before) is None  # counters went back: a restart
    no_spec = "# TYPE vllm:generation_tokens_total counter\nvllm:generation_tokens_total 5.0\n"
    assert acc.vllm_counter_snapshot(no_spec) is None


def test_sglang_meta_info() -> None:
    full = {"completion_tokens": 96, "spec_verify_ct": 40, "spec_num_proposed_drafts": 120,
            "spec_num_correct_drafts": 56}  # fmt: skip
    assert acc.sglang_meta_info(full) == acc.Acceptance("SGLang meta_info", 120, 56, 40)
    verify_only = acc.sglang_meta_info({"completion_tokens": 96, "spec_verify_ct": 40})
    assert verify_only is not None
    assert (verify_only.drafted, verify_only.accepted, verify_only.rounds) == (None, 56, 40)
    assert acc.sglang_meta_info({"completion_tokens": 12, "e2e_latency": 0.3}) is None
    chunk = {"choices": [{"index": 0, "meta_info": {"spec_verify_ct": 2, "completion_tokens": 5}}]}
    meta = acc.find_sglang_meta(chunk)
    assert meta is not None and meta["spec_verify_ct"] == 2
    assert acc.find_sglang_meta({"choices": [{"delta": {}}]}) is None


def test_unreported_acceptance_is_none_not_zero() -> None:
    assert acc.UNREPORTED.drafted is None and acc.UNREPORTED.accepted is None
    assert not acc.UNREPORTED.reported and acc.UNREPORTED.source == acc.NOT_REPORTED


# --- endpoints ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("url", "norm"),
    [
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/v1"),
        ("HTTPS://GPU-Box.example:8000/v1/", "https://gpu-box.example:8000/v1"),
        ("http://[::1]:30000/v1", "http://[::1]:30000/v1"),
        ("https://gpu-box.example:443/api/v1/", "https://gpu-box.example/api/v1"),  # the default port
    ],
)
def test_normalize_url(url: str, norm: str) -> None:
    assert normalize_url(url) == norm


@pytest.mark.parametrize(
    "bad", ["", "gpu-box:8000", "ftp://host/v1", "http://", "http://host:99999/v1", "http://u:p@host/v1",
            "http://host/v1?x=1", "http://host/v1#top", "http://host/v1?", "http://host:abc/v1",
            "http://host:0/v1"],
)  # fmt: skip
def test_bad_urls_are_one_line(bad: str) -> None:
    with pytest.raises(EndpointError) as info:
        Endpoint.parse(bad)
    assert "\n" not in str(info.value)


def test_https_required_off_loopback_unless_allowed() -> None:
    assert Endpoint.parse("http://localhost:8080/v1").url == "http://localhost:8080/v1"
    assert Endpoint.parse("http://127.0.0.2:8080").server_root == "http://127.0.0.2:8080"
    with pytest.raises(InsecureEndpointError, match="plain HTTP"):
        Endpoint.parse("http://192.168.1.20:8000/v1")
    assert Endpoint.parse("http://192.168.1.20:8000/v1", allow_http=True).allow_http
    assert Endpoint.parse("https://192.168.1.20:8000/v1").url.startswith("https://")


class _MemoryKeyring(KeyringBackend):
    """The OS keyring stand-in (another layer); Tandem's own key handling is what is tested."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        from keyring.errors import PasswordDeleteError

        if self.store.pop((service, username), None) is None:
            raise PasswordDeleteError(username)


@pytest.fixture
def ring() -> Iterator[_MemoryKeyring]:
    previous = keyring.get_keyring()
    memory = _MemoryKeyring()
    keyring.set_keyring(memory)
    yield memory
    keyring.set_keyring(previous)


def test_keys_live_in_the_keyring_per_endpoint(ring: _MemoryKeyring) -> None:
    set_api_key("http://127.0.0.1:8080/", "k-one")
    set_api_key("https://gpu-box:8000/v1", "k-two")
    assert get_api_key("http://127.0.0.1:8080/v1") == "k-one"  # same endpoint, other spelling
    assert get_api_key("https://gpu-box:8000/v1") == "k-two"
    assert ring.store[("tandem", "endpoint:http://127.0.0.1:8080/v1")] == "k-one"
    assert resolve_api_key("http://127.0.0.1:8080/v1", {"TANDEM_API_KEY": "from-env"}) == "from-env"
    assert resolve_api_key("http://127.0.0.1:8080/v1", {}) == "k-one"
    assert delete_api_key("http://127.0.0.1:8080/v1") and get_api_key("http://127.0.0.1:8080/v1") is None
    assert not delete_api_key("http://127.0.0.1:8080/v1")


def test_saved_endpoints_hold_no_secrets(ring: _MemoryKeyring, tmp_path: object) -> None:
    ep = Endpoint.parse("http://10.0.0.5:8000/v1", allow_http=True, name="lab")
    remember_endpoint(ep)
    set_api_key(ep.url, "secret-key")
    saved = load_endpoints()
    assert saved == [ep]
    from app.core.engines.remote.endpoints import endpoints_file

    assert "secret-key" not in endpoints_file().read_text("utf-8")
    assert forget_endpoint(ep.url) and load_endpoints() == [] and get_api_key(ep.url) is None
    endpoints_file().write_text("{not json", "utf-8")
    assert load_endpoints() == []  # a damaged file is read as empty, never a crash
