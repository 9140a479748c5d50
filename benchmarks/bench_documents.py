"""Documents on the local API: quoting answers per configuration, and indexing a 300-page PDF.

    python benchmarks/bench_documents.py [--rounds 2] [--per-round 3] [--max-tokens 128]
        [--threads 2] [--auto calibrated|prior] [--pdf] [--only index|quotes] [--save FILE]

**quotes**: the realistic-cost pair (:mod:`app.devtools.deep_target`: the SmolLM2 target with 150
silent blocks, the embedded Q4_1 as its drafter), llama.cpp, 2 threads, greedy. A made-up member
handbook of a makerspace (:data:`HANDBOOK`, about 2,300 words: hours, fees, rules, numbered steps,
board minutes, contacts) goes with every request as an OpenAI chat ``file`` part (``file_data``, a
``data:`` URL; Markdown, or with ``--pdf`` the same sections as the pages of a PDF), followed by a
question (:data:`QUESTIONS`): explicit quote requests ("Quote ... exactly", "List the steps ... as
written") and ordinary questions about it. The document fits the context, so it goes in whole.

One ``tandem serve`` launch per configuration, each serving the whole run in a temporary
``TANDEM_HOME``: off; ngram-mod and ngram-simple (llama.cpp's prompt-lookup drafter: the last
n-gram of the text looked up in the context), 64 tokens per round (what the engine pool gives each
model-free method); the drafter at 8 per round; and ``--spec auto``, which routes each request by
its kind (a question about documents is ``document``) to the calibration's route, or with
``--auto prior`` (no calibration stored) to its prior, the model-free method. With ``--auto
calibrated`` (the default) ``tandem calibrate --remeasure`` runs first, as a first start does in
the background. Each configuration has a launch of its own because one pool would show a fixed
configuration's answer to its n-gram children before the same request comes to them, which turns
a quote into a repeat; for the same reason every question is asked once per launch: round r asks
questions ``r * per_round`` to ``(r + 1) * per_round - 1``, each to off first, then to the others
in an order that turns question by question. First each launch is asked an unmeasured question
(:data:`WARM_UP`, one token) with the document, so its prompt cache holds the document, as in a
conversation about it (the first pass over the document's ~2,700 tokens takes 1.5 minutes per
launch on the deep target; a question after it about 2 s). Before every request the run waits
until Auto's pool has no background work left (a configuration starting, an answer shown to an
n-gram child), so that work slows no other launch's answer; and it counts the cores other programs
kept busy while the answers ran (this machine is shared).

Per answer: decode tokens/s (the answer's ``tandem.timings.decode_tokens_per_second``), its own
``tandem.speedup`` (against its own tokens decoded plainly), ``speculative_decoding.from_drafts``,
the configuration that answered (``speculative_decoding.method``) and, for Auto, the kind its router
gave the request (the kind whose learned figures the answer moved, read from ``GET
/v1/tandem/auto``), and whether the greedy text equals off's (else the first differing
character). Per configuration: the median decode speed, the median and range of the per-question
ratio against off's answer to the same question (also for quote requests and other questions
apart), and the median share of each answer drafted.

**index**: :func:`report_pages` pages of a made-up annual report (about 400 words each) written as
a PDF with a text layer (:func:`app.devtools.pdf.pdf_bytes`); three times, each timed apart:
:func:`~app.core.documents.extract.read_document` (the text of every page), building its
:class:`~app.core.documents.index.PassageIndex` (passages and BM25), and BM25 queries. Medians.

The defaults take about 20 minutes on a quiet 2-core machine (calibration 2, launches and their
warm-up 10, answers 8). Markdown on stdout for docs/benchmarks.md; progress on stderr; ``--save``
writes every answer's text and figures as JSON.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import datetime
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from typing import Any

import httpx
import psutil
import serving
from serving import start_serve

KEY = "bench-documents"
HEADERS = {"Authorization": f"Bearer {KEY}"}
#: tokens per round of the model-free methods (the engine pool's depth for each of them)
MODEL_FREE_DEPTH = 64
#: tokens per round of the drafter
DRAFT_DEPTH = 8
#: the configurations, off first (every ratio is against it)
CONFIGS = ("off", "ngram-mod", "ngram-simple", "draft", "auto")

# --- the document and its questions -----------------------------------------------------------------

HANDBOOK_TITLE = "Riverside Makerspace Member Handbook"
#: the handbook's sections, each a page of the PDF with ``--pdf``
HANDBOOK: tuple[str, ...] = (
    """# Riverside Makerspace Member Handbook

Revision 4.2, approved by the board of trustees on 12 February 2026. This handbook replaces revision
4.1 of September 2025. Questions about it go to the membership coordinator, Priya Natarajan.

## 1. Welcome and opening hours

Riverside Makerspace is a community workshop run by volunteers and two paid staff members at
14 Canal Street, Unit 3. Members share tools, knowledge and materials, and every member is expected
to leave the space a little better than they found it.

The space is open from 9:00 to 22:00 on weekdays and from 10:00 to 18:00 on Saturdays. It is closed
on Sundays and on public holidays. The wood shop and the metal shop close thirty minutes before the
building does, so that machines can be cleaned and the dust extraction can run empty for ten
minutes before it is switched off.

Members with 24-hour access may use the electronics bench and the textile room outside these hours,
but never the wood shop, the metal shop or the laser cutter.

## 2. Membership tiers and fees

There are three membership tiers. The Casual membership costs 25 pounds a month and includes eight
visits a month, access to hand tools, the electronics bench and the textile room. The Standard
membership costs 45 pounds a month and includes unlimited visits during opening hours, all machines
for which the member has passed an induction, and one storage locker. The Workshop membership costs
80 pounds a month and adds 24-hour access, a large storage shelf and two free guest passes a month.

Students and people receiving income support pay half the fee of any tier. Fees are taken by direct
debit on the first working day of each month. Materials bought from the shop shelf are charged at
cost plus ten percent and are paid at the front desk.
""",
    """## 3. General safety rules

Safety glasses must be worn in the wood shop, the metal shop and the laser room at all times, by
members and visitors alike, even when you are only watching someone else work. Spare glasses hang
by each door. Prescription glasses are not safety glasses; wear the over-glasses on the top shelf.

Long hair must be tied back and loose sleeves rolled up before any machine with a rotating part is
switched on. Gloves must never be worn at the lathe, the pillar drill or the bandsaw.

Never work alone on a machine marked with a red dot. A red dot means that a second person who has
passed the same induction must be in the room while the machine runs.

Food and drink are allowed only in the kitchen and at the long table by the windows. Keep the fire
exits and the yellow hatched areas on the floor clear at all times.

## 4. Inductions

Every machine with a coloured tag needs an induction before you use it on your own. An induction
session lasts ninety minutes, costs 15 pounds and is led by a volunteer trainer. You will watch a
demonstration, then run the machine yourself under supervision, and you will be signed off only when
the trainer has seen you complete a job safely from start to finish. Inductions are booked through
the members' portal and can be cancelled free of charge up to 48 hours before they start.
""",
    """## 5. The laser cutter

The laser cutter is a 60-watt CO2 machine with a bed of 900 by 600 millimetres. It may cut wood up to
6 millimetres thick, acrylic up to 8 millimetres, card, paper, leather and fabric.

PVC, vinyl and any other plastic that contains chlorine must never be cut on the laser cutter. When
it burns, it releases chlorine gas, which harms the people in the room and corrodes the machine's
mirrors and rails. Polycarbonate and ABS are banned too, because they catch fire rather than cut.
If you are not sure what a material is made of, do not cut it.

To start a laser cutter job:

1. Switch on the extraction fan and the air assist, and check that the fan is running.
2. Open the lid and place your material flat on the honeycomb bed.
3. Focus the laser head with the 5 millimetre focus gauge, then remove the gauge.
4. Close the lid and send your file from the laser computer, choosing the material from the list.
5. Run the frame check and watch the red pointer trace the outline of the job.
6. Press start and stay beside the machine for the whole job; never leave a running laser.
7. When the job ends, wait sixty seconds for the smoke to clear before you open the lid.

If a flame appears and does not go out within two seconds, press the red stop button, keep the lid
closed and tell a member of staff. The fire blanket hangs to the left of the laser room door.
""",
    """## 6. 3D printers

The space has four filament printers and one resin printer. Filament printers may be used after a
short induction; the resin printer is for Workshop members only, because resin must be handled with
nitrile gloves in a ventilated cabinet.

To change the filament on a filament printer:

1. Heat the nozzle to the temperature printed on the old filament's label.
2. Release the lever on the extruder and pull the old filament out gently.
3. Cut the end of the new filament at an angle with the flush cutters.
4. Push the new filament through the extruder until it comes out of the nozzle in a thin line.
5. Close the lever, wipe the nozzle with the brass brush and set the temperature for the new
   filament.

Prints longer than four hours must be booked, and a print may run overnight only if a Workshop
member stays in the building. Failed prints go in the grey bin for recycling, not in the general
waste.

## 7. The wood shop

The wood shop holds the table saw, the bandsaw, the planer-thicknesser, the lathe and the pillar
drill. The table saw and the planer carry a red dot. Every cut on the table saw must use the riving
knife and the blade guard, and offcuts shorter than 30 centimetres are pushed through with a push
stick, never by hand. Sweep the floor and empty the chip bins at the end of every session.
""",
    """## 8. Booking equipment

The laser cutter, the resin printer, the lathe and the embroidery machine must be booked through
the members' portal. A booking may last at most two hours, and each member may hold at most three
future bookings at a time. If you are more than fifteen minutes late for a booking, the slot is
released and another member may take it. Bookings are free for Standard and Workshop members; Casual
members pay 3 pounds an hour for the laser cutter.

Please cancel a booking you cannot use as early as you can, so that someone else can have it. A
member who misses three bookings in a month without cancelling loses the right to book for the
following month.

## 9. Storage lockers

Each Standard member may use one small locker and each Workshop member one large shelf. Lockers are
assigned by the front desk and must be locked with your own padlock. Nothing flammable, no food and
no liquids other than water-based glue may be kept in a locker. Lockers are emptied twice a year, on
the first Saturday of April and of October; anything left in an unlabelled locker on those days is
given to the shop shelf.

## 10. Guests

Members may bring up to two guests at a time. Guests must sign in at the front desk, wear a visitor
badge and stay with their host for the whole visit. Guests may watch any machine run and may use hand
tools, but they may not use any machine with a coloured tag, even under supervision. A guest who
comes more than three times in a year is asked to become a member.
""",
    """## 11. Incidents and first aid

First aid kits are kept in the kitchen, by the wood shop door and in the laser room. The eye wash
station is next to the sink in the metal shop. The trained first aiders are named on the board by the
front desk.

To report an incident:

1. Make the area safe: switch off the machine and keep other people away.
2. Give or get first aid, and call 999 if anyone is seriously hurt.
3. Tell the member of staff on duty, or call the duty phone on 07700 900 412.
4. Fill in the incident form on the members' portal within 24 hours, even if nobody was hurt.
5. Do not use the machine again until a trainer has checked it and removed the red tag.

Every incident and near miss is reviewed at the next safety meeting, which is held on the second
Tuesday of each month. Reports are never used to blame anyone; they are used to make the space safer.

## 12. Cancellations and refunds

You may cancel your membership at any time on the members' portal. The cancellation takes effect at
the end of the month in which you cancel, and no further fees are taken after that. Fees already paid
are not refunded, except when the space is closed for more than seven days in a row, in which case a
refund for the days of closure is paid within 30 days. Induction fees are refunded in full only if
the space cancels the session.
""",
    """## 13. Minutes of the board meeting of 12 February 2026

Present: Helen Okafor (chair), Tomasz Wiśniewski (treasurer), Priya Natarajan (membership), Daniel
Reyes (safety), Aisha Bello (trustee). Apologies: Mark Lindqvist.

The treasurer reported a surplus of 3,420 pounds for the last quarter, mainly from the rise in
Workshop memberships from 38 to 51. The board agreed to keep fees unchanged until at least
September 2026.

Dust extraction: Daniel Reyes presented three quotes for a new dust extraction system in the wood
shop. The board approved the quote from Northfield Air Systems for 7,850 pounds, to be installed
during the week of 20 April 2026. The wood shop will be closed that week, and members will be told by
email at least three weeks in advance.

Sunday opening: the board agreed to a trial of Sunday opening from 11:00 to 17:00 for twelve weeks,
starting on 1 March 2026, staffed by volunteers. The trial will be reviewed at the May meeting, using
visitor numbers and a members' survey.

Resin printer: after two spills in January, the resin printer is restricted to Workshop members who
have passed the new resin induction. Aisha Bello will write the induction by the end of March.

## 14. Contacts

- Membership coordinator: Priya Natarajan, membership@riverside-makerspace.org
- Safety officer: Daniel Reyes, safety@riverside-makerspace.org
- Treasurer: Tomasz Wiśniewski, accounts@riverside-makerspace.org
- Duty phone (opening hours only): 07700 900 412
- Front desk: 0161 496 0725
""",
)


@dataclass(frozen=True)
class Question:
    text: str
    #: the question asks for the document's own words
    quote: bool


QUESTIONS: tuple[Question, ...] = (
    Question("Quote the paragraph about guests exactly, word for word.", True),
    Question("List the steps for starting a laser cutter job exactly as written in the handbook.", True),
    Question("How much does the Standard membership cost per month, and what does it include?", False),
    Question("What does the handbook say about safety glasses? Quote it.", True),
    Question("Copy the section on cancellations and refunds verbatim.", True),
    Question("Who should a member tell after an incident, and by when must the form be filled in?", False),
    Question("List the steps for changing the filament on a 3D printer as written in the document.", True),
    Question("Quote the section on booking equipment exactly.", True),
    Question("Which materials must never be cut on the laser cutter, and why?", False),
    Question("What do the board minutes say about the new dust extraction system? Quote them.", True),
    Question("Quote the paragraph about opening hours exactly.", True),
    Question("Summarise the rules of the wood shop in three sentences.", False),
    Question("List the steps for reporting an incident, word for word.", True),
    Question("When was this revision of the handbook approved, and what does it replace?", False),
    Question("Quote what the handbook says about inductions.", True),
    Question("What does the document say about storage lockers? Quote it exactly.", True),
    Question("What did the board decide about opening on Sundays?", False),
    Question("Copy the list of contacts exactly as it appears in the handbook.", True),
)


def handbook_file(pdf: bool) -> tuple[str, str]:
    """(file name, ``data:`` URL) of the handbook: Markdown, or a PDF with a page per section."""
    if pdf:
        from app.devtools.pdf import pdf_bytes

        data, name, mime = pdf_bytes(HANDBOOK, title=HANDBOOK_TITLE), "handbook.pdf", "application/pdf"
    else:
        data, name, mime = "\n".join(HANDBOOK).encode(), "handbook.md", "text/markdown"
    return name, f"data:{mime};base64," + base64.b64encode(data).decode()


# --- quoting answers ------------------------------------------------------------------------------


@dataclass
class Answer:
    config: str
    question: int
    tps: float
    speedup: float | None
    from_drafts: float | None
    method: str
    text: str
    tokens: int
    prompt_s: float
    whole: bool
    kind: str = ""


@dataclass
class Launches:
    urls: dict[str, str] = field(default_factory=dict)
    servers: list[subprocess.Popen[str]] = field(default_factory=list)

    def stop(self) -> None:
        for server in self.servers:
            server.terminate()
        for server in self.servers:
            server.wait(30)


def ask(url: str, question: str, document: tuple[str, str], max_tokens: int) -> dict[str, Any]:
    """One chat completion with the document attached (the launch's own configuration: each
    launch runs one, Auto's routes per request)."""
    filename, data_url = document
    content = [
        {"type": "file", "file": {"file_data": data_url, "filename": filename}},
        {"type": "text", "text": question},
    ]
    body = {
        "messages": [{"role": "user", "content": content}],
        "max_tokens": max_tokens,
        "temperature": 0,
        "tandem": {"speculation": "auto"},
    }
    r = httpx.post(url, json=body, headers=HEADERS, timeout=1800)
    if r.status_code != 200:
        raise SystemExit(f"{url}: {r.status_code} {r.text[:500]}")
    return dict(r.json())


def answer_of(config: str, index: int, data: dict[str, Any]) -> Answer:
    figures = data["tandem"]
    spec = figures["speculative_decoding"]
    sources = figures.get("sources") or []
    return Answer(
        config,
        index,
        float(figures["timings"]["decode_tokens_per_second"] or 0.0),
        figures.get("speedup"),
        spec.get("from_drafts"),
        spec.get("method") or "off",
        data["choices"][0]["message"]["content"] or "",
        int(data["usage"]["completion_tokens"]),
        float(figures["timings"]["prompt_ms"]) / 1000,
        bool(sources) and all(s.get("whole") for s in sources),
    )


def auto_url(chat_url: str) -> str:
    return chat_url.replace("/chat/completions", "/tandem/auto")


def auto_state(chat_url: str) -> dict[str, Any]:
    r = httpx.get(auto_url(chat_url), headers=HEADERS, timeout=60)
    r.raise_for_status()
    return dict(r.json())


def quiet(chat_url: str, limit: float = 600.0) -> float:
    """Wait until Auto's pool has no background work left; seconds waited."""
    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        if not auto_state(chat_url).get("background", {}).get("busy"):
            break
        time.sleep(0.2)
    return time.perf_counter() - started


def learned(state: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    """Per kind, what Auto's learner says of its route (its configuration and the answers and
    estimates it rests on): an answer moves its own kind's figures."""
    return {
        row["kind"]: (row.get("configuration"), row.get("answers"), row.get("estimates"), row.get("speedup"))
        for row in state.get("routes", [])
    }


def moved_kind(before: dict[str, tuple[Any, ...]], after: dict[str, tuple[Any, ...]]) -> str:
    changed = [k for k in after if before.get(k) != after[k]]
    return "/".join(changed) if changed else "?"


def start_launches(target: str, drafter: str, threads: int, ctx: int, env: dict[str, str]) -> Launches:
    common = ["--threads", str(threads), "--ctx", str(ctx), "--parallel", "1"]
    plain = ["--model-path", target]
    pair = ["--model-path", target, "--draft-model-path", drafter]
    launches = {
        "off": ["--spec", "off", *plain],
        "ngram-mod": ["--spec", "on", "--spec-method", "ngram-mod", "--draft-tokens", str(MODEL_FREE_DEPTH),
                      *plain],
        "ngram-simple": ["--spec", "on", "--spec-method", "ngram-simple", "--draft-tokens",
                         str(MODEL_FREE_DEPTH), *plain],
        "draft": ["--spec", "on", "--draft-tokens", str(DRAFT_DEPTH), *pair],
        "auto": ["--spec", "auto", *pair],
    }  # fmt: skip
    out = Launches()
    try:
        for name in CONFIGS:

            def router_line(line: str) -> None:
                if line.startswith("… auto per request"):
                    print(f"Auto's routes at launch: {line.split(': ', 1)[1].strip()}", file=sys.stderr)

            server, url = start_serve([*launches[name], *common], env, router_line)
            out.servers.append(server)
            out.urls[name] = url
            httpx.post(
                url,
                json={"messages": [{"role": "user", "content": "Hello."}], "max_tokens": 4, "temperature": 0},
                headers=HEADERS,
                timeout=600,
            ).raise_for_status()
    except BaseException:
        out.stop()
        raise
    return out


def first_difference(a: str, b: str) -> int | None:
    """The first character where ``a`` and ``b`` differ (None when equal)."""
    if a == b:
        return None
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def calibrate(target: str, drafter: str, threads: int) -> dict[str, Any]:
    from app.cli import main as tandem

    out = StringIO()
    pair = ["--model-path", target, "--draft-model-path", drafter, "--threads", str(threads)]
    with redirect_stdout(out):
        if tandem(["calibrate", *pair, "--remeasure", "--json"]) != 0:
            raise SystemExit("tandem calibrate failed")
    found: dict[str, Any] = json.loads(out.getvalue().strip().splitlines()[-1])
    return found


#: the unmeasured question that puts the document into each launch's prompt cache
WARM_UP = "What is this document about? Answer in one word."


class CpuMeter:
    """The cores other programs kept busy: the machine's busy CPU time less this process's and
    its descendants' (the servers and their llama.cpp children)."""

    def __init__(self) -> None:
        self.busy = 0.0
        self.seconds = 0.0
        self._mark: tuple[float, float, float] | None = None

    @staticmethod
    def _now() -> tuple[float, float, float]:
        t = psutil.cpu_times()
        me = psutil.Process()
        ours = sum(me.cpu_times()[:4])  # user, system, and of waited-for children
        for child in me.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                ours += sum(child.cpu_times()[:4])
        return time.monotonic(), t.user + t.nice + t.system + t.irq + t.softirq + t.steal, ours

    def start(self) -> None:
        self._mark = self._now()

    def stop(self) -> None:
        if self._mark is None:
            return
        now, mark = self._now(), self._mark
        self.busy += max(0.0, (now[1] - mark[1]) - (now[2] - mark[2]))
        self.seconds += now[0] - mark[0]
        self._mark = None

    @property
    def cores(self) -> float:
        return self.busy / self.seconds if self.seconds else 0.0


def run_quotes(args: argparse.Namespace) -> list[Answer]:
    if args.rounds * args.per_round > len(QUESTIONS):
        raise SystemExit(f"--rounds x --per-round asks more than the {len(QUESTIONS)} questions there are")
    target, drafter = serving.pair("deep")
    document = handbook_file(args.pdf)
    answers: list[Answer] = []
    meter = CpuMeter()
    with tempfile.TemporaryDirectory(prefix="tandem-bench-documents-") as home:
        env = {**os.environ, "TANDEM_HOME": home, "TANDEM_API_KEY": KEY}
        os.environ["TANDEM_HOME"] = home
        if args.auto == "calibrated":
            t = time.perf_counter()
            calibration = calibrate(target, drafter, args.threads)
            routes = ", ".join(f"{k} -> {r['configuration']}" for k, r in calibration["routes"].items())
            print(
                f"Calibration: {time.perf_counter() - t:.0f} s; Auto launches "
                f"{calibration['chosen']['label']}; routes: {routes}\n"
            )
        else:
            print("Auto from its prior (no calibration stored).\n")
        launches = start_launches(target, drafter, args.threads, args.ctx, env)
        auto = launches.urls["auto"]
        waited = 0.0
        try:
            warm = time.perf_counter()
            for config in CONFIGS:
                waited += quiet(auto)
                ask(launches.urls[config], WARM_UP, document, 1)
            waited += quiet(auto)
            print(
                f"Warm-up (the document's first prompt pass on each launch): "
                f"{time.perf_counter() - warm:.0f} s\n"
            )
            print(
                "Auto's routes before the first question: "
                + ", ".join(f"{k} -> {v[0]}" for k, v in learned(auto_state(auto)).items())
                + "\n"
            )
            others = list(CONFIGS[1:])
            for r in range(args.rounds):
                for j in range(args.per_round):
                    index = r * args.per_round + j
                    question = QUESTIONS[index].text
                    turn = index % len(others)
                    for config in ["off", *others[turn:], *others[:turn]]:
                        waited += quiet(auto)
                        before = learned(auto_state(auto)) if config == "auto" else {}
                        meter.start()
                        data = ask(launches.urls[config], question, document, args.max_tokens)
                        meter.stop()
                        answer = answer_of(config, index, data)
                        if config == "auto":
                            waited += quiet(auto)
                            answer.kind = moved_kind(before, learned(auto_state(auto)))
                        answers.append(answer)
                        print(
                            f"q{index + 1} {config}: {answer.tps:.1f} tok/s, {answer.tokens} tokens, "
                            f"{answer.from_drafts or 0:.0%} drafted, {answer.method}"
                            f"{' ' + answer.kind if answer.kind else ''}",
                            file=sys.stderr,
                            flush=True,
                        )
            end_state = auto_state(auto)
        finally:
            launches.stop()
    print(
        f"Other programs kept {meter.cores:.2f} of the 2 cores busy on average while the answers ran. "
        f"Waited {waited:.0f} s in all for Auto's background work (no request was running).\n"
    )
    print(
        "Auto's routes after the run: "
        + ", ".join(f"{k} -> {v[0]} ({v[1]} answers)" for k, v in learned(end_state).items())
        + "\n"
    )
    if args.save:
        rows = [{**vars(a), "question_text": QUESTIONS[a.question].text} for a in answers]
        Path(args.save).write_text(json.dumps(rows, indent=1), "utf-8")
    return answers


def ratio_text(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values):.2f}x ({min(values):.2f}-{max(values):.2f})"


def report_quotes(answers: list[Answer]) -> None:
    by = {(a.config, a.question): a for a in answers}
    asked = sorted({a.question for a in answers})
    print(
        "| configuration | median decode tok/s | vs off per question: all | quote requests | other "
        "questions | answer from drafts (median) | tandem.speedup (median) | text equal to off |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for config in CONFIGS:
        mine = [by[(config, q)] for q in asked if (config, q) in by]
        ratios = {q: by[(config, q)].tps / by[("off", q)].tps for q in asked if by[("off", q)].tps}
        quote = [v for q, v in ratios.items() if QUESTIONS[q].quote]
        other = [v for q, v in ratios.items() if not QUESTIONS[q].quote]
        drafts = [a.from_drafts for a in mine if a.from_drafts is not None]
        speedups = [a.speedup for a in mine if a.speedup is not None]
        same = sum(1 for a in mine if a.text == by[("off", a.question)].text)
        cells = [
            f"{statistics.median(a.tps for a in mine):.1f}",
            "1.00x" if config == "off" else ratio_text(list(ratios.values())),
            "" if config == "off" else ratio_text(quote),
            "" if config == "off" else ratio_text(other),
            f"{statistics.median(drafts):.0%}" if drafts else "-",
            f"{statistics.median(speedups):.2f}x" if speedups else "-",
            f"{same} of {len(mine)}",
        ]
        print(f"| {config} | " + " | ".join(cells) + " |")
    print("\nPer question (decode tok/s of off; each configuration's ratio to it; Auto's configuration and "
          "the kind its router gave the request):\n")  # fmt: skip
    print("| # | question | kind | tokens (off) | off tok/s | " + " | ".join(CONFIGS[1:]) + " | Auto ran |")
    print("|---:|---|---|---:|---:|" + "---:|" * (len(CONFIGS) - 1) + "---|")
    for q in asked:
        off = by[("off", q)]
        cells = [f"{by[(c, q)].tps / off.tps:.2f}x" if off.tps else "-" for c in CONFIGS[1:]]
        auto = by[("auto", q)]
        print(
            f"| {q + 1} | {QUESTIONS[q].text} | {'quote' if QUESTIONS[q].quote else 'question'} | "
            f"{off.tokens} | {off.tps:.1f} | "
            + " | ".join(cells)
            + f" | {auto.method} ({auto.kind}; prompt {auto.prompt_s:.0f} s) |"
        )
    prompt = {c: statistics.median(by[(c, q)].prompt_s for q in asked) for c in CONFIGS}
    print("\nMedian prompt time per answer (s): " + ", ".join(f"{c} {s:.1f}" for c, s in prompt.items()))
    if not all(a.whole for a in answers):
        print("\nNot every answer had the document whole (tandem.sources): some were given passages.")
    differ = []
    for a in answers:
        where = first_difference(a.text, by[("off", a.question)].text)
        if where is not None:
            differ.append(f"q{a.question + 1} {a.config} at character {where} of {len(a.text)}")
    print("\nGreedy text different from off: " + ("none" if not differ else "; ".join(differ)))


# --- indexing a long PDF ----------------------------------------------------------------------------

_DEPARTMENTS = (
    "logistics",
    "customer service",
    "finance",
    "maintenance",
    "procurement",
    "quality",
    "information technology",
    "facilities",
    "training",
    "sales",
)
_SITES = (
    "Eastfield",
    "Marlow Road",
    "Kingsbridge",
    "the Harbour depot",
    "Westgate",
    "Northpoint",
    "Ashby Lane",
    "the Riverside office",
)
_PEOPLE = (
    "Helen Okafor",
    "Tomasz Nowak",
    "Priya Raman",
    "Daniel Reyes",
    "Aisha Bello",
    "Mark Lindqvist",
    "Sofia Marin",
    "James Whitfield",
    "Leila Haddad",
    "Owen Price",
)
_THINGS = (
    "delivery routes",
    "supplier contracts",
    "service requests",
    "invoices",
    "vehicle inspections",
    "training sessions",
    "safety audits",
    "stock counts",
    "customer complaints",
    "purchase orders",
)
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_TEMPLATES = (
    "In {month}, the {dept} team at {site} reviewed {n} {things} and found that {pct} percent of them "
    "needed no further action.",
    "{person} led the work on {things} at {site}, which cut the average handling time from {a} to {b} "
    "days over the year.",
    "The budget for {dept} was {money} pounds, of which {pct} percent was spent by the end of {month}.",
    "Staff at {site} completed {n} {things} this year, {a} more than the year before, with no serious "
    "incident reported.",
    "A review of {things} in {month} led the board to approve a new procedure for {dept}, written by "
    "{person} and tested at {site}.",
    "Customer satisfaction with {dept} at {site} rose to {pct} percent in the autumn survey, the highest "
    "figure since the survey began.",
    "The {dept} team expects to handle about {n} {things} next year and will hire {a} people to do so.",
    "Energy use at {site} fell by {pct} percent after the lighting was replaced in {month}, saving about "
    "{money} pounds.",
    "{person} reported that {n} {things} were delayed in {month}, mostly because of staff shortages at "
    "{site}.",
    "From {month}, every request to {dept} is logged in the shared register, so that {things} can be "
    "traced from start to finish.",
)
#: the sentence one query must find, put on page :data:`PLANTED_PAGE`
PLANTED = (
    "The backup generator at the Eastfield depot is tested on the first Monday of each quarter by the "
    "duty electrician, who records the fuel level in the red logbook."
)
PLANTED_PAGE = 217
QUERIES = (
    "When is the backup generator at the Eastfield depot tested?",
    "How did customer satisfaction with facilities change?",
    "What was the training budget?",
    "Who led the work on supplier contracts?",
    "Why were vehicle inspections delayed?",
)


def report_pages(pages: int, words_per_page: int, seed: int = 11) -> list[str]:
    """``pages`` pages of a made-up annual report, about ``words_per_page`` words each (the same
    for a seed), with :data:`PLANTED` on page :data:`PLANTED_PAGE`."""
    rng = random.Random(seed)
    out = []
    for number in range(1, pages + 1):
        paragraphs = [f"Annual report 2025, page {number}: {rng.choice(_DEPARTMENTS).capitalize()}"]
        sentences: list[str] = []
        words = 0
        while words < words_per_page:
            sentence = rng.choice(_TEMPLATES).format(
                month=rng.choice(_MONTHS),
                dept=rng.choice(_DEPARTMENTS),
                site=rng.choice(_SITES),
                person=rng.choice(_PEOPLE),
                things=rng.choice(_THINGS),
                n=rng.randint(12, 4800),
                pct=rng.randint(3, 97),
                a=rng.randint(2, 40),
                b=rng.randint(1, 12),
                money=f"{rng.randint(8, 950) * 1000:,}",
            )
            if number == PLANTED_PAGE and len(paragraphs) == 2 and len(sentences) == 1:
                sentence = PLANTED
            sentences.append(sentence[0].upper() + sentence[1:])
            words += len(sentence.split())
            if len(sentences) >= rng.randint(3, 6) or words >= words_per_page:
                paragraphs.append(" ".join(sentences))
                sentences = []
        out.append("\n\n".join(paragraphs))
    return out


def run_index(pages: int, words_per_page: int, repeats: int) -> None:
    from app.core.documents.extract import read_document
    from app.core.documents.index import PassageIndex
    from app.devtools.pdf import pdf_bytes

    t = time.perf_counter()
    texts = report_pages(pages, words_per_page)
    pdf = pdf_bytes(texts, title="Annual report 2025")
    made = time.perf_counter() - t
    times: dict[str, list[float]] = {"extract": [], "index": [], "query": []}
    found_page: int | None = None
    passages = chars = 0
    for _ in range(repeats):
        t = time.perf_counter()
        document = read_document("annual-report.pdf", pdf)
        times["extract"].append(time.perf_counter() - t)
        t = time.perf_counter()
        index = PassageIndex(document)
        times["index"].append(time.perf_counter() - t)
        for query in QUERIES:
            t = time.perf_counter()
            hits = index.search(query)
            times["query"].append(time.perf_counter() - t)
            if query == QUERIES[0]:
                found_page = hits[0].passage.page if hits else None
        passages, chars = len(index.passages), len(document.text)
        print(
            f"index repeat done: {times['extract'][-1]:.1f} s + {times['index'][-1]:.1f} s", file=sys.stderr
        )
    words = sum(len(p.split()) for p in texts)
    print(
        f"A {pages}-page PDF ({len(pdf) / 1e6:.1f} MB, {words:,} words, {chars:,} characters of text, "
        f"{passages:,} passages; written in {made:.1f} s). {repeats} repeats; {len(QUERIES)} queries each.\n"
    )
    print("| step | median | range |\n|---|---:|---|")
    labels = {
        "extract": "read_document (pypdf, every page's text)",
        "index": "PassageIndex (passages + BM25 index)",
        "query": "one BM25 query (PassageIndex.search)",
    }
    for step, values in times.items():
        scale, unit = (1000, "ms") if step == "query" else (1, "s")
        print(
            f"| {labels[step]} | {statistics.median(values) * scale:.2f} {unit} | "
            f"{min(values) * scale:.2f}-{max(values) * scale:.2f} {unit} |"
        )
    total = statistics.median(times["extract"]) + statistics.median(times["index"])
    print(f"\nExtraction and index together: {total:.2f} s (medians). The query about the generator "
          f"found page {found_page} first (planted on page {PLANTED_PAGE}).\n")  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=2, help="rounds of distinct questions")
    ap.add_argument("--per-round", type=int, default=3, help="questions per round")
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--ctx", type=int, default=8192, help="each launch's context (tokens)")
    ap.add_argument("--auto", choices=("calibrated", "prior"), default="calibrated")
    ap.add_argument("--pdf", action="store_true", help="attach the handbook as a PDF (a page per section)")
    ap.add_argument("--only", choices=("index", "quotes"))
    ap.add_argument("--pages", type=int, default=300)
    ap.add_argument("--words-per-page", type=int, default=400)
    ap.add_argument("--index-repeats", type=int, default=3)
    ap.add_argument("--save", help="write every answer (text and figures) to this JSON file")
    args = ap.parse_args()
    started = datetime.datetime.now(datetime.UTC)
    print(f"Started {started:%Y-%m-%d %H:%M} UTC; load average {os.getloadavg()[0]:.2f}.\n")
    if args.only != "quotes":
        print("## Indexing a long PDF\n")
        run_index(args.pages, args.words_per_page, args.index_repeats)
    if args.only != "index":
        print("## Quoting answers\n")
        answers = run_quotes(args)
        report_quotes(answers)
    ended = datetime.datetime.now(datetime.UTC)
    print(f"\nEnded {ended:%H:%M} UTC; load average {os.getloadavg()[0]:.2f}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
