"""The per-round draft length of Tandem's classic-drafter loop."""

from __future__ import annotations

import pytest

from app.core.speculative.depth import START_DEPTH, DepthControl


def _measured(one: float, extra: float, draft: float, accept: float, ceiling: int = 8) -> DepthControl:
    """A controller that has seen a plain step and some rounds with these costs and acceptance."""
    c = DepthControl(ceiling)
    c.observe_plain(one)
    for _ in range(40):
        k = 4
        accepted = round(accept * k)
        c.observe_round(k, accepted, k * draft, one + k * extra)
    return c


def test_first_a_plain_step_then_a_measuring_round() -> None:
    c = DepthControl(8)
    assert c.next_depth(100) == 0  # the plain speed everything is compared with
    c.observe_plain(0.010)
    assert c.next_depth(100) == START_DEPTH
    assert DepthControl(2).next_depth(100) == 0
    two = DepthControl(2)
    two.observe_plain(0.010)
    assert two.next_depth(100) == 2  # the start depth is capped by the ceiling


def test_cheap_verification_and_full_acceptance_draft_the_ceiling() -> None:
    # a GPU-like target (a pass over 9 tokens costs about one) and a drafter 10x cheaper
    c = _measured(one=0.020, extra=0.0005, draft=0.002, accept=1.0)
    assert c.acceptance > 0.9
    assert c.next_depth(100) == 8
    assert c.next_depth(5) == 4  # at most tokens left - 1: the round's own token ends the answer
    assert c.next_depth(1) == 0


def test_costly_verification_means_plain_steps_with_rare_probes() -> None:
    # a CPU where a pass costs in proportion to its tokens and the drafter is half the target:
    # even 90% acceptance does not pay
    c = _measured(one=0.020, extra=0.020, draft=0.010, accept=0.75)
    depths = [c.next_depth(1000) for _ in range(16)]
    assert depths.count(0) == 14 and depths.count(1) == 2  # one-token probes, every 8th step
    # a failed probe doubles the wait before the next one
    c.observe_round(1, 0, 0.010, 0.040)
    depths = [c.next_depth(1000) for _ in range(16)]
    assert depths.count(1) == 1


def test_depth_follows_acceptance_both_ways() -> None:
    c = _measured(one=0.020, extra=0.002, draft=0.002, accept=1.0)
    high = c.next_depth(1000)
    for _ in range(6):  # early rejections
        c.observe_round(high, 0, high * 0.002, 0.020 + high * 0.002)
    low = c.next_depth(1000)
    assert low < high
    for _ in range(12):  # full acceptances again
        c.observe_round(max(low, 1), max(low, 1), 0.002, 0.022)
    assert c.next_depth(1000) > low


def test_fixed_depth_drafts_the_ceiling_every_round() -> None:
    c = DepthControl(3, adaptive=False)
    assert [c.next_depth(left) for left in (100, 100, 3, 1)] == [3, 3, 2, 0]


def test_rate_of_a_plain_step_and_bad_input() -> None:
    c = DepthControl(4)
    assert c.rate(0) is None and c.best() == -1
    c.observe_plain(0.025)
    assert c.rate(0) == pytest.approx(40.0)
    with pytest.raises(ValueError):
        DepthControl(0)
    with pytest.raises(ValueError):
        c.observe_round(2, 3, 0.01, 0.01)


def test_settles_on_plain_decoding_within_a_request_and_across_requests() -> None:
    c = _measured(one=0.020, extra=0.020, draft=0.010, accept=0.75)
    assert c.start_request() is False  # measured not to pay: the request decodes plainly
    c = _measured(one=0.020, extra=0.020, draft=0.010, accept=0.75)
    depths = [c.next_depth(1000) for _ in range(9)]
    assert depths.count(0) == 8 and depths.count(1) == 1  # one probe before it settles
    assert c.settled_plain
    # whole requests: plain, with a re-measuring request after 4, then after 8, 16, 32, 32
    gaps = []
    run = 0
    for _ in range(120):
        if c.start_request():
            gaps.append(run)
            run = 0
            c.observe_round(1, 0, 0.010, 0.040)  # the re-measure finds it still does not pay
        else:
            run += 1
    assert gaps[:5] == [4, 8, 16, 32, 32]


def test_a_request_drafts_when_drafting_pays_or_is_not_measured() -> None:
    assert DepthControl(8).start_request() is True
    assert _measured(one=0.020, extra=0.0005, draft=0.002, accept=1.0).start_request() is True
    fixed = DepthControl(4, adaptive=False)
    assert fixed.start_request() is True and not fixed.settled_plain
