"""The launch dialog's rules as a Qt-free form model: gating, validity, and codes (not
English the dialog has to substring-match)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from app.core.catalog.drafters import Candidate
from app.core.engines import capability
from app.core.engines.base import SamplingError
from app.core.engines.capability import Support
from app.core.launch.form import LaunchForm, StatusOf
from app.core.launch.form_drafters import ordered_draft_quants
from app.core.launch.form_state import FormValues, NoteCode, QuantOption, SwitchLabel
from app.core.launch.plan import Role
from app.core.registry import AnySpec, Family, Registry
from app.core.speculative import default_tokens


def test_default_depth_says_why_with_a_code() -> None:
    assert default_tokens("llama.cpp", "gemma-4", 3.0).code == "llamacpp-default"  # not in the table
    gemma = default_tokens("llama.cpp", "gemma-4", 4.0)
    assert gemma.code == "gemma4-size-table" and gemma.value is not None
    assert default_tokens("mlx", "gemma-4", 4.0, "mtp").code == "trained-depth"
    assert default_tokens("mlx", "x", 1.0, "ngram-mod").code == "not-offered"
    for method in ("draft", "ngram-mod", "ngram-simple", "ngram-cache"):
        assert default_tokens("llama.cpp", "smollm2", 0.135, method).code == "llamacpp-default"


# --- the launch dialog's form model, without Qt ------------------------------------------------
# The registry is real; the cache's status and the engine's install check are the other layers the
# form asks (a status table and a monkeypatched availability), as in the GUI tests.


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, bool]]:
    state = {"llama.cpp": True, "mlx": True}

    def availability(name: str) -> capability.Availability:
        if state.get(name):
            return capability.Availability(True, "9999.1.1")
        return capability.Availability(False, None, f"{name} is not installed")

    monkeypatch.setattr(capability, "engine_availability", availability)
    yield state


def pick(name: str, fmt: str, size: str | None = None) -> tuple[Family, AnySpec, str]:
    return Registry.load().match(name, fmt, size)


def statuses(cached: set[tuple[str, str | None]] | None = None) -> StatusOf:
    """A cache where only ``cached`` (role, quantization) pairs are downloaded."""
    have = cached or set()

    def status(family: Family, spec: AnySpec, role: Role, quant: str | None, /) -> str:
        return "cached" if (role, quant) in have else "absent"

    return status


def values(spec: AnySpec, quant: str, engine: str, **kw: Any) -> FormValues:
    return replace(FormValues(spec=spec, quant=quant, engine=engine, n_ctx=4096, max_tokens=256), **kw)


# spec declares a drafter x engine can run it x switch on -> panel shown, drafter in use
GATE = [
    ("smollm2-135m-instruct", True, True, True, True),
    ("smollm2-135m-instruct", True, True, False, False),
    ("smollm2-135m-instruct", False, False, True, False),
    ("smollm2-135m-instruct", False, False, False, False),
    ("gemma-3-270m", True, False, True, False),
    ("gemma-3-270m", True, False, False, False),
    ("gemma-3-270m", False, False, True, False),
    ("gemma-3-270m", False, False, False, False),
]


@pytest.mark.parametrize(("name", "can_run", "shown", "switch", "drafting"), GATE)
def test_gate_table(
    installed: dict[str, bool], name: str, can_run: bool, shown: bool, switch: bool, drafting: bool
) -> None:
    fam, spec, quant = pick(name, "gguf")

    def support(family: Family, s: AnySpec, engine: str) -> Support:
        return Support(True, "", "draft") if can_run else Support(False, "cannot", None)

    st = LaunchForm(fam, statuses(), support).evaluate(values(spec, quant, "llama.cpp", drafter_on=switch))
    assert st.panel_visible is shown and st.drafter_on is drafting
    # the drafter's quantization is asked only while drafting; tokens per round stays in view
    assert st.draft_quant_shown is drafting and st.depth_enabled is drafting
    assert (st.download_note is not None) is drafting  # nothing cached: launching queues it
    assert (st.download_note.code if st.download_note else None) == (
        NoteCode.DRAFTER_NOT_CACHED if drafting else None
    )
    # model-free methods: offered on llama.cpp for any model, disabled while the drafter is on
    assert st.model_free_methods == tuple(capability.model_free_methods("llama.cpp"))
    assert st.model_free_enabled is not drafting
    assert (st.model_free_note is not None) is drafting
    assert st.launch_enabled and st.engine_available


@pytest.mark.parametrize(("name", "fmt", "engine"), [("smollm2-135m-instruct", "gguf", "llama.cpp"),
                                                     ("gemma-4", "mlx", "mlx")])  # fmt: skip
def test_engine_not_installed(installed: dict[str, bool], name: str, fmt: str, engine: str) -> None:
    fam, spec, quant = pick(name, fmt)
    form = LaunchForm(fam, statuses())
    assert form.evaluate(values(spec, quant, engine, drafter_on=True)).panel_visible  # installed: shown
    installed[engine] = False
    st = form.evaluate(values(spec, quant, engine, drafter_on=True))
    assert not st.engine_available and not st.launch_enabled and not st.panel_visible
    assert st.engine_note is not None and st.engine_note.code == NoteCode.ENGINE_UNAVAILABLE
    assert st.engine_note.params["reason"] == f"{engine} is not installed"
    assert st.model_free_methods == ()
    listed = form.engines(spec)
    assert [(e.name, e.available) for e in listed] == [(engine, False)]
    assert listed[0].reason == f"{engine} is not installed"


def test_preferred_engine_is_the_settings_default_when_it_runs_the_spec(installed: dict[str, bool]) -> None:
    fam, spec, _ = pick("gemma-4", "gguf", "E2B")
    assert LaunchForm(fam, statuses(), default_engine="mlx").preferred_engine(spec) == "llama.cpp"
    assert LaunchForm(fam, statuses(), default_engine="llama.cpp").preferred_engine(spec) == "llama.cpp"
    _, mlx_spec, _ = pick("gemma-4", "mlx", "E2B")
    assert LaunchForm(fam, statuses(), default_engine="llama.cpp").preferred_engine(mlx_spec) == "mlx"


def test_threads_do_not_apply_on_mlx(installed: dict[str, bool]) -> None:
    fam, spec, quant = pick("gemma-4", "mlx", "E2B")
    form = LaunchForm(fam, statuses())
    v = values(spec, quant, "mlx", threads=6)
    assert not form.evaluate(v).threads_apply and form.choice(v).threads is None
    fam, spec, quant = pick("smollm2-135m-instruct", "gguf")
    form = LaunchForm(fam, statuses())
    assert form.evaluate(values(spec, quant, "llama.cpp")).threads_apply
    assert form.choice(values(spec, quant, "llama.cpp", threads=6)).threads == 6
    assert form.choice(values(spec, quant, "llama.cpp", threads=0)).threads is None  # Automatic


@pytest.mark.parametrize("text", ["0", "-2", "abc", "2.5", "1e3", "  x "])
def test_bad_tokens_per_round(installed: dict[str, bool], text: str) -> None:
    fam, spec, quant = pick("smollm2-135m-instruct", "gguf")
    form = LaunchForm(fam, statuses())
    on = form.evaluate(values(spec, quant, "llama.cpp", drafter_on=True, depth=text))
    assert on.depth_error is not None and on.depth_error.code == NoteCode.DEPTH_INVALID
    assert "num_speculative_tokens" in str(on.depth_error.params["detail"])  # the parser's words
    assert not on.launch_enabled
    off = form.evaluate(values(spec, quant, "llama.cpp", drafter_on=False, depth=text))
    assert off.launch_enabled  # the field is not in use while the switch is off
    mf = form.evaluate(values(spec, quant, "llama.cpp", model_free="ngram-mod", model_free_depth=text))
    assert mf.model_free_depth_error is not None and not mf.launch_enabled
    masked = form.evaluate(
        values(spec, quant, "llama.cpp", drafter_on=True, model_free="ngram-mod", model_free_depth=text)
    )
    assert masked.launch_enabled and not masked.model_free_depth_enabled  # the drafter wins


@pytest.mark.parametrize("text", ["", "4", " 12 "])
def test_good_tokens_per_round_reach_the_choice(installed: dict[str, bool], text: str) -> None:
    fam, spec, quant = pick("smollm2-135m-instruct", "gguf")
    form = LaunchForm(fam, statuses({("target", quant), ("drafter", "Q4_1")}))
    v = values(spec, quant, "llama.cpp", drafter_on=True, draft_quant="Q4_1", depth=text)
    st = form.evaluate(v)
    assert st.depth_error is None and st.launch_enabled and st.download_note is None
    choice = form.choice(v)
    assert choice.speculation.enabled and choice.speculation.method == "draft"
    assert choice.speculation.num_speculative_tokens == (int(text) if text.strip() else None)
    assert choice.downloads == []


BAD_SAMPLING = [
    ({"max_tokens": 4096}, NoteCode.MAX_TOKENS_NOT_BELOW_CONTEXT),
    ({"max_tokens": 5000}, NoteCode.MAX_TOKENS_NOT_BELOW_CONTEXT),
    ({"temperature": -0.5}, NoteCode.SAMPLING_INVALID),
    ({"temperature": float("nan")}, NoteCode.SAMPLING_INVALID),
    ({"top_p": 0.0}, NoteCode.SAMPLING_INVALID),
    ({"top_p": 1.5}, NoteCode.SAMPLING_INVALID),
    ({"top_k": -1}, NoteCode.SAMPLING_INVALID),
    ({"repeat_penalty": 0.0}, NoteCode.SAMPLING_INVALID),
    ({"max_tokens": 0}, NoteCode.SAMPLING_INVALID),
]


@pytest.mark.parametrize(("bad", "code"), BAD_SAMPLING)
def test_bad_sampling(installed: dict[str, bool], bad: dict[str, float], code: NoteCode) -> None:
    fam, spec, quant = pick("smollm2-135m-instruct", "gguf")
    form = LaunchForm(fam, statuses())
    v = values(spec, quant, "llama.cpp")
    for key, value in bad.items():
        setattr(v, key, value)
    st = form.evaluate(v)
    assert st.sampling is None and not st.launch_enabled
    assert st.sampling_error is not None and st.sampling_error.code == code
    if code == NoteCode.MAX_TOKENS_NOT_BELOW_CONTEXT:
        assert st.sampling_error.params == {"max_tokens": v.max_tokens, "n_ctx": 4096}
    with pytest.raises(SamplingError):
        form.choice(v)
    ok = form.evaluate(values(spec, quant, "llama.cpp"))
    assert ok.sampling is not None and ok.sampling_error is None and ok.launch_enabled


def test_drafter_quantizations_unquantized_first_with_their_status() -> None:
    assert ordered_draft_quants(["Q8_0", "BF16", "Q4_0", "F16"]) == ["BF16", "F16", "Q8_0", "Q4_0"]
    fam, spec, _ = pick("gemma-4", "gguf", "E2B")
    form = LaunchForm(fam, statuses({("drafter", "F16")}))
    assert form.draft_quants(spec) == [
        QuantOption("BF16", "absent"),
        QuantOption("F16", "cached"),
        QuantOption("Q8_0", "absent"),
    ]
    fam, spec, quant = pick("smollm2-135m-instruct", "gguf")
    one = LaunchForm(fam, statuses())
    assert [q.value for q in one.draft_quants(spec)] == ["Q4_1"]
    st = one.evaluate(values(spec, quant, "llama.cpp", drafter_on=True))
    assert st.draft_quant_shown and not st.draft_quant_enabled  # nothing to choose from


def test_target_note_and_downloads_follow_the_cache(installed: dict[str, bool]) -> None:
    fam, spec, quant = pick("smollm2-135m-instruct", "gguf")
    missing = LaunchForm(fam, statuses())
    st = missing.evaluate(values(spec, quant, "llama.cpp"))
    assert st.target_note is not None and st.target_note.code == NoteCode.TARGET_NOT_CACHED
    assert st.target_note.params == {"quant": quant}
    v = values(spec, quant, "llama.cpp", drafter_on=True, draft_quant="Q4_1")
    assert missing.choice(v).downloads == [("target", quant), ("drafter", "Q4_1")]
    cached = LaunchForm(fam, statuses({("target", quant)}))
    assert cached.evaluate(values(spec, quant, "llama.cpp")).target_note is None


@pytest.mark.parametrize(
    ("name", "fmt", "size", "engine", "label", "method"),
    [
        ("gemma-4", "gguf", "E2B", "llama.cpp", SwitchLabel.ENABLE_MTP, "mtp"),
        ("gemma-4", "mlx", "E2B", "mlx", SwitchLabel.ENABLE_MTP, "mtp"),
        ("smollm2-135m-instruct", "gguf", None, "llama.cpp", SwitchLabel.USE_DRAFTER, "draft"),
        ("qwen3", "mlx", "4", "mlx", SwitchLabel.USE_DRAFTER, "draft"),
    ],
)
def test_switch_label_and_method(
    installed: dict[str, bool], name: str, fmt: str, size: str | None, engine: str, label: str, method: str
) -> None:
    fam, spec, quant = pick(name, fmt, size)
    st = LaunchForm(fam, statuses()).evaluate(values(spec, quant, engine))
    assert st.panel_visible and st.switch_label == label and st.method == method


def test_model_free_methods_per_engine(installed: dict[str, bool]) -> None:
    fam, spec, quant = pick("gemma-4", "mlx", "E2B")
    st = LaunchForm(fam, statuses()).evaluate(values(spec, quant, "mlx", model_free="prompt-lookup"))
    assert st.model_free_methods == tuple(capability.model_free_methods("mlx"))
    assert st.model_free_depth_enabled and st.model_free_default is not None
    # a method the engine does not offer is not kept (left from another engine)
    st = LaunchForm(fam, statuses()).evaluate(values(spec, quant, "mlx", model_free="ngram-mod"))
    assert not st.model_free_depth_enabled and st.model_free_default is None
    fam, spec, quant = pick("gemma-3-270m", "gguf")
    form = LaunchForm(fam, statuses())
    v = values(spec, quant, "llama.cpp", model_free="ngram-mod", model_free_depth="5")
    st = form.evaluate(v)
    assert not st.panel_visible and st.model_free_depth_enabled
    assert st.model_free_default is not None and st.model_free_default.code == "llamacpp-default"
    choice = form.choice(v)
    assert choice.speculation.method == "ngram-mod" and choice.speculation.num_speculative_tokens == 5


def test_moe_note_only_with_the_panel(installed: dict[str, bool]) -> None:
    fam, spec, quant = pick("gemma-4", "gguf", "26B-A4B")
    st = LaunchForm(fam, statuses()).evaluate(values(spec, quant, "llama.cpp"))
    assert st.moe_note is not None and st.moe_note.code == NoteCode.MOE_DRAFTER_COST
    # mixture of experts with a declared EAGLE-3 drafter, which llama.cpp runs
    fam, spec, quant = pick("gpt-oss", "gguf")
    st = LaunchForm(fam, statuses()).evaluate(values(spec, quant, "llama.cpp"))
    assert st.panel_visible and st.method == "eagle3" and st.moe_note is not None


def test_notes_are_codes_not_sentences(installed: dict[str, bool]) -> None:
    """Every note the form returns is a code the dialog translates; parameters are values."""
    installed["llama.cpp"] = False
    fam, spec, quant = pick("gemma-4", "gguf", "26B-A4B")
    st = LaunchForm(fam, statuses()).evaluate(values(spec, quant, "llama.cpp", max_tokens=9999, depth="x"))
    notes = [st.engine_note, st.target_note, st.depth_error, st.sampling_error]
    assert all(n is not None and isinstance(n.code, NoteCode) for n in notes)
    assert {n.code for n in notes if n} == {
        NoteCode.ENGINE_UNAVAILABLE, NoteCode.TARGET_NOT_CACHED, NoteCode.DEPTH_INVALID,
        NoteCode.MAX_TOKENS_NOT_BELOW_CONTEXT,
    }  # fmt: skip


# --- drafters found on this computer for a model that declares none ----------------------------
# The candidates are the finder's own type; which files are compatible is the finder's test
# (tests/unit/test_drafter_finder*.py) and the GUI test runs it on real files.


def found(*compat: str, refused: tuple[str, ...] = ()) -> tuple[Candidate, ...]:
    ok = tuple(Candidate("file", True, "identical vocabulary", 100, path=p) for p in compat)
    bad = tuple(Candidate("file", False, "tokenizer type differs", 50, path=p) for p in refused)
    return ok + bad


# found (compatible) x engine installed -> panel shown; note shown when searched and none found
FOUND_GATE = [
    (found("/m/a.gguf"), True, True, None),
    (found("/m/a.gguf", refused=("/m/g.gguf",)), True, True, None),
    (found(refused=("/m/g.gguf",)), True, False, NoteCode.NO_COMPATIBLE_DRAFTER),
    ((), True, False, NoteCode.NO_COMPATIBLE_DRAFTER),
    (None, True, False, None),  # not searched (e.g. the model is not on disk): nothing to say
    (found("/m/a.gguf"), False, False, None),  # the engine cannot run it: no panel, no note
]


@pytest.mark.parametrize(("cands", "engine_ok", "shown", "note"), FOUND_GATE)
def test_found_drafter_gate(
    installed: dict[str, bool],
    cands: tuple[Candidate, ...] | None,
    engine_ok: bool,
    shown: bool,
    note: NoteCode | None,
) -> None:
    fam, spec, quant = pick("gemma-3-270m", "gguf")
    assert not spec.declares_drafter()
    installed["llama.cpp"] = engine_ok
    form = LaunchForm(fam, statuses({("target", quant)}))
    st = form.evaluate(values(spec, quant, "llama.cpp", found=cands))
    assert st.panel_visible is shown
    assert st.drafter_source == ("found" if shown else "")
    assert (st.found_note.code if st.found_note else None) == note
    if note == NoteCode.NO_COMPATIBLE_DRAFTER:
        assert st.found_note is not None and st.found_note.params["rejected"] == len(cands or ())
    # only compatible files are ever offered
    assert all(c.compatible for c in st.found_drafters)
    assert [c.path for c in st.found_drafters] == (
        [c.path for c in cands or () if c.compatible] if shown else []
    )
    assert form.panel_visible(spec, "llama.cpp", cands) is shown
    # the model-free methods stay as they are, with or without a found drafter
    assert st.model_free_methods == (tuple(capability.model_free_methods("llama.cpp")) if engine_ok else ())


def test_finder_runs_only_for_a_gguf_on_disk_without_a_declared_drafter(installed: dict[str, bool]) -> None:
    fam, spec, quant = pick("gemma-3-270m", "gguf")
    assert LaunchForm(fam, statuses({("target", quant)})).wants_drafter_search(spec, quant, "llama.cpp")
    assert not LaunchForm(fam, statuses()).wants_drafter_search(spec, quant, "llama.cpp")  # not on disk
    installed["llama.cpp"] = False
    assert not LaunchForm(fam, statuses({("target", quant)})).wants_drafter_search(spec, quant, "llama.cpp")
    installed["llama.cpp"] = True
    sfam, sspec, squant = pick("smollm2-135m-instruct", "gguf")  # declares one
    assert not LaunchForm(sfam, statuses({("target", squant)})).wants_drafter_search(
        sspec, squant, "llama.cpp"
    )
    st = LaunchForm(sfam, statuses({("target", squant)})).evaluate(
        values(sspec, squant, "llama.cpp", found=found("/m/a.gguf"))
    )
    assert st.drafter_source == "declared" and st.found_drafters == () and st.found_note is None
    registry = Registry.load()
    registry.register(
        {
            "name": "tiny-mlx",
            "specs": [
                {
                    "format": "mlx",
                    "size_in_billions": 1,
                    "quantizations": ["4bit"],
                    "sources": {"huggingface": {"model_id": "org/tiny-{quantization}"}},
                }
            ],
        }
    )
    mfam, mspec, mquant = registry.match("tiny-mlx", "mlx", None)
    mform = LaunchForm(mfam, statuses({("target", mquant)}))
    assert not mform.wants_drafter_search(mspec, mquant, "mlx")
    assert not mform.evaluate(values(mspec, mquant, "mlx", found=found("/m/a"))).panel_visible


def test_found_drafter_choice_and_the_searching_note(installed: dict[str, bool]) -> None:
    fam, spec, quant = pick("gemma-3-270m", "gguf")
    form = LaunchForm(fam, statuses({("target", quant)}))
    st = form.evaluate(values(spec, quant, "llama.cpp", finding=True))
    assert st.found_note is not None and st.found_note.code == NoteCode.FINDING_DRAFTERS
    assert not st.panel_visible
    failed = form.evaluate(values(spec, quant, "llama.cpp", find_error="disk gone"))
    assert failed.found_note is not None and failed.found_note.code == NoteCode.DRAFTER_SEARCH_FAILED

    cands = found("/m/a.gguf", "/m/b.gguf", refused=("/m/g.gguf",))
    # switched on, the second file chosen: a draft launch with that file, nothing to download
    v = values(spec, quant, "llama.cpp", found=cands, drafter_on=True, found_drafter="/m/b.gguf", depth="4")
    st = form.evaluate(v)
    assert st.drafter_on and st.switch_label == SwitchLabel.USE_DRAFTER and st.method == "draft"
    assert not st.draft_quant_shown and st.download_note is None and st.depth_enabled
    assert st.found_drafter == "/m/b.gguf"
    choice = form.choice(v)
    assert not choice.auto and choice.downloads == []
    opts = choice.speculation
    assert (opts.enabled, opts.method, opts.draft_model_path) == (True, "draft", "/m/b.gguf")
    assert opts.num_speculative_tokens == 4 and opts.draft_quantization is None
    # a refused file is never used, even if named: the first compatible one is
    st = form.evaluate(replace(v, found_drafter="/m/g.gguf"))
    assert st.found_drafter == "/m/a.gguf"
    assert form.choice(replace(v, found_drafter="/m/g.gguf")).speculation.draft_model_path == "/m/a.gguf"

    # Auto (the default) may try the chosen found drafter; speculation stays off until it chooses
    auto_v = values(spec, quant, "llama.cpp", found=cands, found_drafter="/m/b.gguf")
    st = form.evaluate(auto_v)
    assert st.auto_on and st.auto_found_drafter == "/m/b.gguf" and st.auto_note is None
    choice = form.choice(auto_v)
    assert choice.auto and not choice.speculation.enabled
    assert choice.speculation.draft_model_path == "/m/b.gguf"
    # none compatible: Auto measures without a drafter
    none = form.choice(values(spec, quant, "llama.cpp", found=found(refused=("/m/g.gguf",))))
    assert none.auto and none.speculation.draft_model_path is None


def test_a_builtin_mtp_target_shows_the_panel_without_a_drafter(installed: dict[str, bool]) -> None:
    """Qwen 3.5 9B declares no drafter but carries MTP heads: the panel runs them, nothing to download."""
    fam, spec, quant = pick("qwen3.5", "gguf", "9")
    assert spec.builtin_mtp and not spec.declares_drafter()
    form = LaunchForm(fam, statuses({("target", quant)}))
    st = form.evaluate(values(spec, quant, "llama.cpp", drafter_on=True, depth="2"))
    assert st.panel_visible and st.method == "mtp" and st.drafter_source == "builtin"
    assert st.switch_label == SwitchLabel.ENABLE_MTP and not st.draft_quant_shown and st.download_note is None
    choice = form.choice(values(spec, quant, "llama.cpp", drafter_on=True, depth="2"))
    assert choice.speculation.method == "mtp" and choice.speculation.draft_model_path is None
    assert choice.speculation.num_speculative_tokens == 2 and choice.downloads == []
    assert not form.wants_drafter_search(spec, quant, "llama.cpp")


def test_capability_runs_chains_and_new_drafter_methods_on_llamacpp_only(installed: dict[str, bool]) -> None:
    fam, spec, _ = pick("qwen3.5", "gguf", "9")
    assert capability.drafter_support(fam, spec, "llama.cpp", "mtp+ngram-mod") == capability.Support(
        True, "", "mtp+ngram-mod"
    )
    assert capability.drafter_support(fam, spec, "llama.cpp").method == "mtp"
    assert not capability.drafter_support(fam, spec, "llama.cpp", "eagle3").ok  # nothing declared
    fam, spec, _ = pick("gpt-oss", "gguf")
    assert capability.drafter_support(fam, spec, "llama.cpp").method == "eagle3"
    fam, spec, _ = pick("qwen3.5", "mlx", "9")
    refused = capability.drafter_support(fam, spec, "mlx", "mtp+ngram-mod")
    assert not refused.ok and "chains" in refused.reason


def test_a_chat_with_pictures_is_told_when_this_launch_cannot_read_them(installed: dict[str, bool]) -> None:
    """The conversation that launches has pictures: a text model, a vision model whose projector
    is not on disk and a speculation method that fails on image prompts each say why; a launch
    that reads them, or a chat without pictures, says nothing."""
    fam, spec, quant = pick("smollm2-135m-instruct", "gguf")
    text = LaunchForm(fam, statuses()).evaluate(values(spec, quant, "llama.cpp", chat_images=True))
    note = text.chat_images_note
    assert note is not None and note.code == NoteCode.CHAT_IMAGES_UNREADABLE
    assert note.params["why"] == "text-model" and note.level == "warn" and text.launch_enabled
    quiet = LaunchForm(fam, statuses()).evaluate(values(spec, quant, "llama.cpp", chat_images=False))
    assert quiet.chat_images_note is None

    vfam, vspec, vquant = pick("gemma-4-ggml", "gguf")
    missing = LaunchForm(vfam, statuses(), projector=lambda *_a: False)
    note = missing.evaluate(values(vspec, vquant, "llama.cpp", chat_images=True)).chat_images_note
    assert note is not None and note.params["why"] == "projector"
    on_disk = LaunchForm(vfam, statuses(), projector=lambda *_a: True)
    assert (
        on_disk.evaluate(values(vspec, vquant, "llama.cpp", chat_images=True, auto=False)).chat_images_note
        is None
    )
    refused = [m for m, why in capability.vision_methods().items() if why is not None]
    assert refused, "this llama.cpp runs every method with images: nothing to refuse"
    blocked = on_disk.evaluate(
        values(vspec, vquant, "llama.cpp", chat_images=True, auto=False, model_free=None, drafter_on=False)
    )
    assert blocked.chat_images_note is None  # speculation off reads pictures
    # a drafter that runs as EAGLE-3 here: llama.cpp fails every image prompt with it
    eagle = LaunchForm(vfam, statuses(), lambda *_a: Support(True, "", "eagle3"), projector=lambda *_a: True)
    st = eagle.evaluate(values(vspec, vquant, "llama.cpp", chat_images=True, auto=False, drafter_on=True))
    note = st.chat_images_note
    assert "eagle3" in refused and note is not None
    assert note.params["why"] == "method" and note.params["method"] == "eagle3"

    mfam, mspec, mquant = pick("gemma-4", "mlx")
    assert (
        LaunchForm(mfam, statuses()).evaluate(values(mspec, mquant, "mlx", chat_images=True)).chat_images_note
        is None
    )
