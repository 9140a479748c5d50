"""Images through the llama.cpp engine: the tiny Gemma 4 target with its tiny ``gemma4v``
vision projector (``scripts/make_tiny_mmproj.py``), on the real xllamacpp.

Real PNG files made with Pillow (RGB, RGBA, grayscale, a 4000x3000 photo-sized one) go through the
whole path: ``ChatMessage.images`` -> data URL content parts -> llama-server's mtmd -> the answer.
Greedy parity with an image for every speculation method allowed with a projector
(:func:`app.core.engines.capability.vision_methods`): llama-server streams no token ids once a
drafter runs, so each side is compared twice: the chat route piece by piece (one token per chunk),
and the token ids of ``/completion`` with ``return_tokens`` on the same loaded engine. Refused
combinations, bad projectors and images sent to a text-only load each give one line.
"""

from __future__ import annotations

import base64
import http.client
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core import images
from app.core.answer import collect
from app.core.engines import capability
from app.core.engines.base import (
    ChatMessage,
    Finished,
    ImagesUnsupportedError,
    InvalidRequestError,
    LoadRequest,
    ModelLoadError,
    Sampling,
)
from app.core.engines.blocking import generate
from app.core.engines.llamacpp.checks import MethodRefusedError
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.engines.llamacpp.host import live_processes
from app.core.speculative import SpeculationOptions
from app.devtools import tiny_mmproj as projector
from app.devtools.tiny_models import (
    plain_drafter,
    tiny_drafters,
    tiny_mmproj,
    tiny_pair,
)

ROOT = Path(__file__).resolve().parents[2]


GREEDY = Sampling(temperature=0.0, max_tokens=32)


def _load(target: Path, mmproj: Path | None, **spec: Any) -> LlamaCppEngine:
    return LlamaCppEngine.load(
        LoadRequest(
            str(target),
            SpeculationOptions.build(**spec),
            n_ctx=2048,
            n_threads=2,
            mmproj_path=str(mmproj) if mmproj is not None else None,
        )
    )


@pytest.fixture(scope="module", autouse=True)
def _no_process_left() -> Iterator[None]:
    yield
    assert live_processes() == [], "a llama.cpp child process outlived the tests"


@pytest.fixture(scope="module")
def pair(real_models: None) -> tuple[Path, Path]:
    return tiny_pair()


@pytest.fixture(scope="module")
def mmproj(real_models: None) -> Path:
    return tiny_mmproj()


@pytest.fixture(scope="module")
def pictures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Real PNG files: RGB, RGBA (with transparency), grayscale, and a 4000x3000 one."""
    import numpy as np
    from PIL import Image

    folder = tmp_path_factory.mktemp("pictures")
    rng = np.random.default_rng(3)
    out = {
        "rgb": Image.fromarray(rng.integers(0, 255, (48, 64, 3), dtype=np.uint8), "RGB"),
        "rgba": Image.fromarray(rng.integers(0, 255, (80, 100, 4), dtype=np.uint8), "RGBA"),
        "gray": Image.fromarray(rng.integers(0, 255, (90, 90), dtype=np.uint8), "L"),
        "red": Image.new("RGB", (64, 48), (200, 30, 30)),
        "blue": Image.new("RGB", (64, 48), (30, 30, 200)),
    }
    x = np.linspace(0, 255, 4000, dtype=np.float32)  # smooth: a photo-sized file of a few MB
    big = np.stack([np.tile(x, (3000, 1)), np.tile(x[::-1], (3000, 1)), np.full((3000, 4000), 90.0)], -1)
    out["big"] = Image.fromarray(big.astype(np.uint8), "RGB")
    paths = {}
    for name, im in out.items():
        paths[name] = folder / f"{name}.png"
        im.save(paths[name])
        images.check_image(paths[name].read_bytes(), name)  # what the chat's attach button does
    return paths


@pytest.fixture(scope="module")
def seeing(pair: tuple[Path, Path], mmproj: Path) -> Iterator[LlamaCppEngine]:
    with _load(pair[0], mmproj) as eng:
        yield eng


def _ask(engine: LlamaCppEngine, messages: list[ChatMessage], top_logprobs: int = 0) -> Any:
    return collect(generate(engine, messages, GREEDY, None, top_logprobs=top_logprobs))


def _user(text: str, *pictures: Path) -> ChatMessage:
    return {"role": "user", "content": text, "images": [str(p) for p in pictures]}


# --- the projector file -------------------------------------------------------------------------
def test_builder_writes_a_gemma4v_projector_deterministically(tmp_path: Path) -> None:
    import gguf

    b = projector
    one = b.build(tmp_path / "a")
    two = b.build(tmp_path / "b")
    assert one.read_bytes() == two.read_bytes()
    reader = gguf.GGUFReader(str(one))
    kv = {k: f.contents() for k, f in reader.fields.items() if not k.startswith("GGUF.")}
    assert kv["general.architecture"] == "clip" and kv["general.type"] == "mmproj"
    assert kv["clip.vision.projector_type"] == "gemma4v"
    assert kv["clip.has_vision_encoder"] is True
    assert kv["clip.vision.projection_dim"] == 128  # the tiny Gemma 4 target's width
    names = {t.name for t in reader.tensors}
    assert {"v.patch_embd.weight", "v.position_embd.weight", "mm.input_projection.weight"} <= names
    assert {"v.blk.0.attn_q.weight", "v.blk.0.attn_q_norm.weight", "v.blk.0.out_scale.weight"} <= names
    shapes = {t.name: [int(x) for x in t.shape] for t in reader.tensors}
    assert shapes["mm.input_projection.weight"] == [b.HIDDEN, 128]  # GGUF order: [in, out]
    assert shapes["v.patch_embd.weight"] == [b.PATCH, b.PATCH, 3, b.HIDDEN]
    assert one.stat().st_size < 1_000_000


# --- the whole path -------------------------------------------------------------------------------
def test_a_projector_makes_the_engine_see(seeing: LlamaCppEngine, pair: tuple[Path, Path]) -> None:
    assert seeing.supports_images and seeing.mmproj_path.endswith(".gguf")
    with _load(pair[0], None) as blind:
        assert not blind.supports_images


@pytest.mark.parametrize("name", ["rgb", "rgba", "gray", "big"])
def test_real_pictures_go_through_the_whole_path(
    seeing: LlamaCppEngine, pictures: dict[str, Path], name: str
) -> None:
    text_only = _ask(seeing, [{"role": "user", "content": "What is in the picture?"}])
    answer = _ask(seeing, [_user("What is in the picture?", pictures[name])])
    fin = answer.finished
    assert isinstance(fin, Finished) and fin.reason == "length"
    assert answer.completion_tokens == GREEDY.max_tokens and answer.text
    # llama.cpp turns every picture into 40..512 embeddings between <|image> and <image|>
    assert fin.prompt_tokens >= text_only.finished.prompt_tokens + 40
    if name == "big":
        assert fin.prompt_tokens >= text_only.finished.prompt_tokens + 400  # resized to the most tokens
        # the time to first token covers the data URL, llama-server's decode and the image
        # encoder: it is never less than llama.cpp's own prompt time
        assert answer.ttft_ms is not None and answer.ttft_ms >= fin.prompt_ms > 0


def test_the_picture_reaches_the_model(seeing: LlamaCppEngine, pictures: dict[str, Path]) -> None:
    red = _ask(seeing, [_user("What colour is it?", pictures["red"])])
    blue = _ask(seeing, [_user("What colour is it?", pictures["blue"])])
    again = _ask(seeing, [_user("What colour is it?", pictures["red"])])
    assert red.text != blue.text  # random weights, but the image embeddings steer the answer
    assert red.text == again.text


def test_a_conversation_keeps_its_picture(seeing: LlamaCppEngine, pictures: dict[str, Path]) -> None:
    first = _ask(seeing, [_user("Look at this.", pictures["rgb"])])
    follow = [
        _user("Look at this.", pictures["rgb"]),
        {"role": "assistant", "content": first.text},
        {"role": "user", "content": "And now?"},
    ]
    answer = _ask(seeing, follow)
    assert answer.completion_tokens == GREEDY.max_tokens
    assert answer.finished.prompt_tokens > first.finished.prompt_tokens


def test_an_image_for_a_text_only_load_is_refused(pair: tuple[Path, Path], pictures: dict[str, Path]) -> None:
    with _load(pair[0], None) as blind, pytest.raises(ImagesUnsupportedError) as err:
        list(generate(blind, [_user("What is it?", pictures["rgb"])], GREEDY))
    assert "\n" not in str(err.value) and "cannot read images" in str(err.value)


def test_a_picture_gone_since_it_was_attached_is_one_line(
    seeing: LlamaCppEngine, tmp_path: Path, pictures: dict[str, Path]
) -> None:
    gone = tmp_path / "gone.png"
    gone.write_bytes(pictures["rgb"].read_bytes())
    events = generate(seeing, [_user("What is it?", gone)], GREEDY)
    gone.unlink()  # the body is built when the request runs, on the engine's thread
    with pytest.raises(InvalidRequestError) as err:
        list(events)
    assert "\n" not in str(err.value) and str(err.value).startswith("an attached image cannot be sent")
    assert _ask(seeing, [{"role": "user", "content": "still there?"}]).completion_tokens  # engine fine


# --- greedy parity with an image, per allowed method -------------------------------------------------
def _completion_ids(engine: LlamaCppEngine, text: str, picture: Path) -> list[int]:
    """The greedy token ids of one image prompt through llama-server's ``/completion`` (which has
    ``return_tokens``; the chat route streams no ids once a drafter runs), chat template applied."""
    address = engine.listening_address.split("//")[-1]
    host, port = address.rsplit(":", 1)
    headers = {"Authorization": f"Bearer {engine._api_key}", "Content-Type": "application/json"}

    def call(path: str, body: dict[str, Any]) -> dict[str, Any]:
        conn = http.client.HTTPConnection(host, int(port), timeout=120)
        try:
            conn.request("POST", path, json.dumps(body).encode(), headers)
            reply = conn.getresponse()
            data: dict[str, Any] = json.loads(reply.read())
            assert reply.status == 200, data
            return data
        finally:
            conn.close()

    message = images.wire_message(_user(text, picture))
    prompt = call("/apply-template", {"messages": [message]})["prompt"]
    raw = base64.b64encode(picture.read_bytes()).decode()
    reply = call(
        "/completion",
        {
            "prompt": {"prompt_string": prompt, "multimodal_data": [raw]},
            "n_predict": GREEDY.max_tokens,
            "temperature": 0,
            "top_k": 0,
            "return_tokens": True,
        },
    )
    ids: list[int] = reply["tokens"]
    return ids


def _first_difference(a: list[Any], b: list[Any]) -> int | None:
    pos = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
    if pos is None and len(a) != len(b):
        pos = min(len(a), len(b))
    return pos


def _parity(off: LlamaCppEngine, on: LlamaCppEngine, pictures: dict[str, Path]) -> int:
    """Spec-on against spec-off on two image prompts; returns the tokens drafted on the chat route."""
    drafted = 0
    for name in ("rgb", "gray"):
        prompt = "Describe the picture in detail."
        a = _ask(off, [_user(prompt, pictures[name])], top_logprobs=1)
        b = _ask(on, [_user(prompt, pictures[name])])
        assert a.token_ids is not None and len(a.token_ids) == GREEDY.max_tokens
        pos = _first_difference(a.pieces, b.pieces)
        assert pos is None, (
            f"{on.spec_kind} with image {name}: chat answer diverged at token {pos}: "
            f"off={a.pieces[pos : pos + 3]!r} on={b.pieces[pos : pos + 3]!r}"
        )
        assert len(b.pieces) == b.completion_tokens == GREEDY.max_tokens  # one token per chunk
        ids_off, ids_on = (
            _completion_ids(off, prompt, pictures[name]),
            _completion_ids(on, prompt, pictures[name]),
        )
        assert ids_off == a.token_ids  # the two routes agree on what spec-off says
        pos = _first_difference(ids_off, ids_on)
        assert pos is None, f"{on.spec_kind} with image {name}: token ids diverged at position {pos}"
        drafted += b.drafted_total
    return drafted


@pytest.fixture(scope="module")
def plain_target_drafter(real_models: None) -> Path:
    return plain_drafter()


ALLOWED_ON_GEMMA4 = ["mtp", "draft", "mtp+ngram-mod", "ngram-mod", "ngram-cache", "ngram-simple",
                     "ngram-map-k", "ngram-map-k4v"]  # fmt: skip


def test_every_allowed_method_is_covered_here() -> None:
    allowed = {m for m, reason in capability.vision_methods().items() if reason is None}
    assert allowed == (set(ALLOWED_ON_GEMMA4) - {"mtp+ngram-mod"}) | {"dflash"}


@pytest.mark.parametrize("method", ALLOWED_ON_GEMMA4)
def test_greedy_parity_with_an_image(
    seeing: LlamaCppEngine,
    pair: tuple[Path, Path],
    mmproj: Path,
    pictures: dict[str, Path],
    plain_target_drafter: Path,
    method: str,
) -> None:
    drafter = {"mtp": pair[1], "draft": plain_target_drafter, "mtp+ngram-mod": pair[1]}.get(method)
    spec: dict[str, Any] = {"enabled": True, "method": method}
    if drafter is not None:
        spec["draft_model_path"] = str(drafter)
    with _load(pair[0], mmproj, **spec) as on:
        assert on.spec_kind == method and on.supports_images
        drafted = _parity(seeing, on, pictures)
    if drafter is not None:
        assert drafted > 0, f"{method} never drafted with an image"


def test_greedy_parity_with_an_image_for_dflash(mmproj: Path, pictures: dict[str, Path]) -> None:
    """DFlash reads llama target states: the tiny llama target (128 wide, like the projector)."""
    tiny = tiny_drafters()
    with (
        _load(tiny.target, mmproj) as off,
        _load(tiny.target, mmproj, enabled=True, method="dflash", draft_model_path=str(tiny.dflash)) as on,
    ):
        assert on.spec_kind == "dflash"
        assert _parity(off, on, pictures) > 0


def test_drafts_are_accepted_with_an_image(mmproj: Path, pictures: dict[str, Path]) -> None:
    """The forced-acceptance pair: every MTP draft is accepted with a picture in the prompt too."""
    target, assistant = tiny_pair(agree=True)
    with _load(target, mmproj, enabled=True, method="mtp", draft_model_path=str(assistant)) as on:
        answer = _ask(on, [_user("What is it?", pictures["rgb"])])
    assert answer.drafted_total > 0 and answer.accepted_total == answer.drafted_total
    assert set(answer.text) == {"a"}


# --- refusals, one line each, before any process starts ------------------------------------------------
def _refused(target: Path, mmproj: Path, **spec: Any) -> str:
    before = live_processes()
    with pytest.raises(ModelLoadError) as err:
        _load(target, mmproj, **spec)
    assert live_processes() == before  # refused before the child was started
    message = str(err.value)
    assert "\n" not in message, message
    return message


def test_eagle3_with_a_projector_is_refused_in_one_line(mmproj: Path) -> None:
    tiny = tiny_drafters()
    message = _refused(tiny.target, mmproj, enabled=True, method="eagle3", draft_model_path=str(tiny.eagle3))
    assert message.startswith("refused: eagle3 (the chosen method) with the vision projector")
    assert "image prompt" in message
    # the drafter's architecture picks eagle3 under "draft" too, and engine-native types are checked
    message = _refused(tiny.target, mmproj, enabled=True, method="draft", draft_model_path=str(tiny.eagle3))
    assert message.startswith("refused: eagle3")
    native = {"speculative.types": "DRAFT_EAGLE3", "speculative.draft.mparams.path": str(tiny.eagle3)}
    message = _refused(tiny.target, mmproj, engine_native=native)
    assert message.startswith("refused: eagle3 (your engine-native speculative.types)")
    message = _refused(tiny.target, mmproj, enabled=True, method="eagle3+ngram-mod",
                       draft_model_path=str(tiny.eagle3))  # fmt: skip
    assert message.startswith("refused: eagle3")


def test_refused_methods_are_errors_the_ui_shows_as_refusals(mmproj: Path) -> None:
    tiny = tiny_drafters()
    with pytest.raises(MethodRefusedError):
        _load(tiny.target, mmproj, enabled=True, method="eagle3", draft_model_path=str(tiny.eagle3))


@pytest.fixture(scope="module")
def bad_projectors(
    tmp_path_factory: pytest.TempPathFactory, mmproj: Path, pair: tuple[Path, Path]
) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bad-mmproj")
    out = {
        "corrupt": folder / "mmproj-corrupt.gguf",
        "cut": folder / "mmproj-cut.gguf",
        "narrow": tiny_mmproj(projection_dim=64),
        "not-a-projector": pair[1],  # the assistant drafter: a GGUF, but a language model
        "missing": folder / "mmproj-missing.gguf",
        "folder": folder,
    }
    out["corrupt"].write_bytes(b"\x00\x01junk" * 1000)
    data = mmproj.read_bytes()
    out["cut"].write_bytes(data[: len(data) // 2])
    return out


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("corrupt", "not a GGUF model file"),
        ("cut", "damaged or incomplete"),
        ("narrow", "makes 64-wide embeddings but gemma4-tiny.gguf is 128 wide"),
        ("not-a-projector", "is not a vision projector (mmproj): it is a gemma4-assistant model"),
        ("missing", "does not exist"),
        ("folder", "is a folder"),
    ],
)
def test_a_bad_projector_is_one_line(
    pair: tuple[Path, Path], bad_projectors: dict[str, Path], kind: str, says: str
) -> None:
    assert says in _refused(pair[0], bad_projectors[kind])


def test_llama_cpp_itself_rejects_the_narrow_projector(pair: tuple[Path, Path]) -> None:
    """What the header check saves the user from: llama.cpp refuses the same file with a bare
    "Failed to init server" (the width only appears in its log)."""
    code = (
        "import sys, xllamacpp\n"
        "p = xllamacpp.CommonParams(); p.model.path = sys.argv[1]; p.mmproj.path = sys.argv[2]\n"
        "p.n_ctx = 512; p.warmup = False\n"
        "try:\n    xllamacpp.Server(p)\nexcept RuntimeError as e:\n    print('refused:', e)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code, str(pair[0]), str(tiny_mmproj(projection_dim=64))],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert "refused: Failed to init server" in r.stdout
    assert "mismatch between text model (n_embd = 128) and mmproj (n_embd = 64)" in r.stderr


# --- the table still matches what llama.cpp does ---------------------------------------------------------
@pytest.mark.usefixtures("real_models")
def test_the_vision_table_matches_a_fresh_probe(tmp_path: Path) -> None:
    """Every row of ``LLAMACPP_VISION`` against a new run of the probe on the installed xllamacpp
    (each combination in its own child process): a row is dropped or flipped only on evidence."""
    probe = ROOT / "scripts" / "probe_vision_speculation.py"
    r = subprocess.run(
        [sys.executable, str(probe), "--out", str(tmp_path), "--json"],
        capture_output=True, text=True, timeout=900, cwd=ROOT,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr[-2000:]
    seen: dict[str, list[str]] = {}
    for line in r.stdout.splitlines():
        row = json.loads(line)
        seen.setdefault(row["method"].split(" ")[0], []).append(row["verdict"])  # "mtp (agree)" -> mtp
    table = capability.vision_findings()
    assert set(table) <= set(seen)
    for method, verdicts in seen.items():
        works = all(v.startswith("works") for v in verdicts)
        if "+" in method:  # a chain runs when its parts do
            assert works == all(table[p].works for p in method.split("+")), (method, verdicts)
        else:
            assert table[method].works == works, (method, verdicts)


# --- the CLI --------------------------------------------------------------------------------------
def test_tandem_drafters_says_which_methods_run_with_a_projector(
    pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    assert main(["drafters", "--model-path", str(pair[0]), "--search", str(pair[1].parent)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("ok ") and out[0].split()[1] == str(pair[1])
    assert out[-1] == capability.vision_summary()
    assert main(["drafters", "--model-path", str(pair[0]), "--search", str(pair[1].parent), "--json"]) == 0
    captured = capsys.readouterr()
    assert [Path(c["path"]) for c in json.loads(captured.out)] == [pair[1]]  # stdout stays JSON
    assert capability.vision_summary() in captured.err


def test_cli_generate_loads_the_projector_and_refuses_a_wrong_one(
    pair: tuple[Path, Path], mmproj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    args = ["generate", "--model-path", str(pair[0]), "--prompt", "hi", "--max-tokens", "4", "--json"]
    assert main([*args, "--mmproj", str(mmproj)]) == 0
    assert json.loads(capsys.readouterr().out)["completion_tokens"] == 4
    assert main([*args, "--mmproj", str(tiny_mmproj(projection_dim=64))]) == 3
    err = capsys.readouterr().err
    assert "makes 64-wide embeddings but gemma4-tiny.gguf is 128 wide" in err
    assert main(["generate", "--prompt", "hi", "--mmproj", str(mmproj)]) == 2  # a registry name: no
    assert "--mmproj goes with a llama.cpp --model-path" in capsys.readouterr().err


# --- the remote engine against a real llama-server that sees (and one that does not) ------------------
def test_the_remote_engine_reads_vision_from_llama_server_props(
    seeing: LlamaCppEngine, pair: tuple[Path, Path], pictures: dict[str, Path]
) -> None:
    """The local engine's child is a real llama-server: connected to as a remote server, it says
    in ``/props`` that it sees (projector loaded), the picture goes as a data URL content part and
    the answer is the local engine's; a llama-server without a projector says it does not, and the
    remote engine refuses the picture in one line before sending it."""
    from app.core.engines.remote.endpoints import Endpoint
    from app.core.engines.remote.engine import RemoteEngine

    question = [_user("What is in the picture?", pictures["rgba"])]
    local = _ask(seeing, question)
    remote = RemoteEngine.connect(Endpoint(seeing.listening_address + "/v1"), api_key=seeing._api_key)
    try:
        assert remote.server_kind == "llama.cpp" and remote.supports_images
        answer = collect(generate(remote, question, GREEDY))
        assert answer.text == local.text and answer.completion_tokens == local.completion_tokens
    finally:
        remote.close()
    blind = _load(pair[0], None)
    try:
        remote = RemoteEngine.connect(Endpoint(blind.listening_address + "/v1"), api_key=blind._api_key)
        try:
            assert remote.supports_images is False
            with pytest.raises(ImagesUnsupportedError) as err:
                list(generate(remote, question, GREEDY))
            assert "cannot read images" in str(err.value) and "\n" not in str(err.value)
        finally:
            remote.close()
    finally:
        blind.close()
