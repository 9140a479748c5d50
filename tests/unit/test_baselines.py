"""Plain-speed baselines that give a speculative answer its measured speedup."""

from __future__ import annotations

from pathlib import Path

from app.core.chat import AnswerStats
from app.core.measure.baselines import BaselineStore, baseline_key


def test_record_median_and_window(tmp_path: Path) -> None:
    store = BaselineStore(tmp_path / "b.json")
    key = "llama.cpp|m.gguf|1|2"
    assert store.get(key) is None
    store.record(key, 40.0, completion_tokens=5)  # too short to mean anything
    assert store.get(key) is None
    for tps in (30.0, 50.0, 40.0):
        store.record(key, tps, completion_tokens=64)
    b = store.get(key)
    assert b is not None and b.tokens_per_second == 40.0 and b.samples == 3
    for _ in range(20):
        store.record(key, 10.0, completion_tokens=64)
    b = store.get(key)
    assert b is not None and b.samples == 8 and b.tokens_per_second == 10.0
    assert BaselineStore(tmp_path / "b.json").get(key) == b  # persisted


def test_unreadable_file_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text("{broken")
    store = BaselineStore(path)
    assert store.get("k") is None
    store.record("k", 20.0, completion_tokens=32)
    assert store.get("k") is not None


def test_key_distinguishes_files_and_threads(tmp_path: Path) -> None:
    a = tmp_path / "a.gguf"
    a.write_bytes(b"x" * 10)
    b = tmp_path / "b.gguf"
    b.write_bytes(b"x" * 11)
    assert baseline_key("llama.cpp", str(a), 2) != baseline_key("llama.cpp", str(b), 2)
    assert baseline_key("llama.cpp", str(a), 2) != baseline_key("llama.cpp", str(a), 1)
    assert baseline_key("llama.cpp", str(a), 2) != baseline_key("mlx", str(a), 2)


def test_speedup_in_answer_stats() -> None:
    stats = AnswerStats(
        decode_tps=30.0,
        speculation="draft Q4_1",
        baseline_tps=20.0,
        baseline_samples=3,
        drafted=12,
        accepted=9,
    )
    assert stats.speedup == 1.5
    # an answer that drafted nothing was plain decoding: never more than 1.0x
    assert AnswerStats(decode_tps=30.0, speculation="ngram-mod", baseline_tps=20.0).speedup == 1.0
    assert AnswerStats(decode_tps=30.0, speculation="", baseline_tps=20.0).speedup is None
    assert AnswerStats(decode_tps=30.0, speculation="mtp").speedup is None
    assert AnswerStats.from_json(stats.to_json()) == stats
