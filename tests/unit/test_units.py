"""One way to write byte sizes: one function for the whole app, negative sizes (freed space) included."""

from __future__ import annotations

from app.core.units import human_bytes


def test_sizes_are_written_in_powers_of_1024_with_one_decimal() -> None:
    assert human_bytes(0) == "0 B"
    assert human_bytes(1023) == "1023 B"
    assert human_bytes(1024) == "1.0 KB"
    assert human_bytes(1536 * 1024) == "1.5 MB"
    assert human_bytes(int(2.25 * 1024**3)) == "2.2 GB"  # round half to even at one decimal
    assert human_bytes(3 * 1024**4) == "3.0 TB"
    assert human_bytes(-2048) == "-2.0 KB"  # freed space reported as a negative change
