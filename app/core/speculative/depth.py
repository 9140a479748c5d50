"""Draft length per round for a drafter that Tandem's own decode loop drives.

A round drafts ``k`` tokens with the drafter (``k`` drafter passes), then the target verifies the
last emitted token and the ``k`` drafts in one pass and keeps the drafts up to the first it
disagrees with, plus one token of its own. With a per-token acceptance probability ``a`` the round
emits ``1 + a + a^2 + ... + a^k`` tokens on average and costs ``k * draft + one + k * extra``
seconds (``one``: a one-token target pass, ``extra``: what each more verified position adds). A
plain step (``k = 0``) emits one token for ``one``.

:class:`DepthControl` keeps those four figures as running estimates, measured from the rounds it
sees, and picks the ``k`` with the most tokens per second, up to a ceiling (the user's tokens per
round) and the tokens left. So the depth follows the text: full acceptances raise ``a`` and the
depth grows, early rejections lower it and the depth shrinks, down to plain steps where no depth
pays for its verification (a drafter that is barely faster than its target, or a CPU where a pass
costs in proportion to its tokens). While it runs plain steps it still drafts one token now and
then, so it notices when the text becomes predictable again.

No MLX and no clock here: the loop measures and reports; this only does the arithmetic.
"""

from __future__ import annotations

#: weight of the newest measurement in the cost averages (low: one slow pass, a collection or
#: another process, must not swing the depth)
_EMA = 0.15
#: depths whose expected rates are this close count as equal; the deeper one is taken (the
#: rates of deep drafts at high acceptance differ by less than the noise of the cost estimates)
_TIE = 0.01
#: how much of the acceptance evidence each round keeps (about the last 8 rounds count)
_DECAY = 0.88
#: plain steps between one-token probes at first, and at most (doubles after a failed probe)
_PROBE_EVERY = 8
_PROBE_MAX = 64
#: the depth tried before anything is measured (capped by the ceiling)
START_DEPTH = 4
#: plain decisions in a row after which the rest of a request decodes plainly (the loop may then
#: hand over to the library's pipelined plain decoding, and the drafter stops catching up)
SETTLE_PLAIN = 8
#: requests decoded plainly between requests that draft again to re-measure, at first and at most
_REQUEST_PROBE_EVERY = 4
_REQUEST_PROBE_MAX = 32


class DepthControl:
    """Chooses each round's draft length; see the module docstring.

    ``ceiling`` is the most drafted tokens per round. ``adaptive`` False drafts the ceiling every
    round (a fixed depth, what mlx-lm's own loop does) while still measuring.
    """

    def __init__(self, ceiling: int, adaptive: bool = True) -> None:
        if ceiling < 1:
            raise ValueError(f"ceiling must be at least 1, got {ceiling}")
        self.ceiling = ceiling
        self.adaptive = adaptive
        self.one: float | None = None  # seconds of a one-token target pass
        self.extra: float | None = None  # seconds each further verified position adds
        self.draft: float | None = None  # seconds per drafted token (a drafter pass)
        # acceptance evidence, decayed: accepted drafts and rejections (prior: one of each)
        self._hits = 1.0
        self._misses = 1.0
        self._plain_run = 0
        self._probe_every = _PROBE_EVERY
        #: plain decisions in a row (see :data:`SETTLE_PLAIN`)
        self.plain_streak = 0
        self._plain_requests = 0
        self._request_probe_every = _REQUEST_PROBE_EVERY

    # --- what was measured -----------------------------------------------------------------------

    @property
    def acceptance(self) -> float:
        """Estimated probability that the next drafted token is accepted."""
        return self._hits / (self._hits + self._misses)

    def observe_plain(self, seconds: float) -> None:
        """A one-token target pass took ``seconds``."""
        self.one = seconds if self.one is None else (1 - _EMA) * self.one + _EMA * seconds

    def observe_round(self, drafted: int, accepted: int, draft_seconds: float, verify_seconds: float) -> None:
        """A round drafted ``drafted`` tokens in ``draft_seconds`` and verified them (with the last
        emitted token) in one pass of ``verify_seconds``; ``accepted`` drafts were kept."""
        if drafted <= 0:
            return
        if not 0 <= accepted <= drafted:
            raise ValueError(f"inconsistent round: drafted={drafted} accepted={accepted}")
        per_draft = draft_seconds / drafted
        self.draft = per_draft if self.draft is None else (1 - _EMA) * self.draft + _EMA * per_draft
        if self.one is not None:
            per = max(0.0, (verify_seconds - self.one) / drafted)
            self.extra = per if self.extra is None else (1 - _EMA) * self.extra + _EMA * per
        self._hits = _DECAY * self._hits + accepted
        self._misses = _DECAY * self._misses + (1 if accepted < drafted else 0)
        if accepted:
            self._probe_every = _PROBE_EVERY
        else:
            self._probe_every = min(2 * max(self._probe_every, 1), _PROBE_MAX)

    # --- requests --------------------------------------------------------------------------------

    def start_request(self) -> bool:
        """A request begins; False when it should decode plainly from its first token on.

        Where drafting was measured not to pay, a request does not even feed its prompt to the
        drafter (on a CPU that costs a pass as long as the prompt); every few such requests one
        drafts again to re-measure (4 at first, doubling while drafting keeps not paying, up to 32).
        """
        self.plain_streak = 0
        if not self.adaptive or self.best() != 0:
            self._plain_requests = 0
            self._request_probe_every = _REQUEST_PROBE_EVERY
            return True
        self._plain_requests += 1
        if self._plain_requests > self._request_probe_every:
            self._plain_requests = 0
            self._request_probe_every = min(2 * self._request_probe_every, _REQUEST_PROBE_MAX)
            self._hits, self._misses = 1.0, 1.0  # measure acceptance afresh on this text
            self._plain_run = self._probe_every = 0  # draft at once
            return True
        return False

    @property
    def settled_plain(self) -> bool:
        """The rest of this request decodes plainly (:data:`SETTLE_PLAIN` plain choices in a row)."""
        return self.adaptive and self.plain_streak >= SETTLE_PLAIN

    # --- the choice ------------------------------------------------------------------------------

    def rate(self, k: int) -> float | None:
        """Expected tokens per second of a round that drafts ``k`` (None until costs are known)."""
        if self.one is None or self.one <= 0:
            return None
        if k == 0:
            return 1.0 / self.one
        if self.extra is None or self.draft is None:
            return None
        a = min(self.acceptance, 0.999)
        tokens = (1.0 - a ** (k + 1)) / (1.0 - a)
        return tokens / (k * self.draft + self.one + k * self.extra)

    def best(self) -> int:
        """The depth with the most expected tokens per second (0: a plain step), ceiling included."""
        rates = [(self.rate(k), k) for k in range(self.ceiling + 1)]
        known = [(r, k) for r, k in rates if r is not None]
        if len(known) < len(rates):
            return -1  # not measured yet
        top = max(r for r, _ in known)
        return max(k for r, k in known if r >= top * (1 - _TIE))

    def next_depth(self, left: int) -> int:
        """Drafted tokens for the next round, ``left`` being how many more tokens the answer may
        have (the round's own token included, so at most ``left - 1`` drafts)."""
        cap = min(self.ceiling, left - 1)
        if cap <= 0:
            return 0
        if not self.adaptive:
            return cap
        if self.one is None:
            return 0  # a plain step first: what everything is compared with
        k = self.best()
        if k < 0:
            return min(START_DEPTH, cap)  # measure a drafting round
        if k == 0:
            self._plain_run += 1
            if self._plain_run >= self._probe_every:
                self._plain_run = 0
                return 1  # has the text become predictable again?
            self.plain_streak += 1
            return 0
        self._plain_run = 0
        self.plain_streak = 0
        return min(k, cap)
