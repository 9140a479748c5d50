"""The prompts of the benchmarks, each written once.

Each benchmark keeps its own set (so its figures stay comparable from run to run), made of these
prompts. ``benchmarks/prompts.txt`` is :data:`PARITY` as the CLI's ``--prompts`` file reads it
(``tests/unit/test_prompts.py`` keeps the two equal).
"""

from __future__ import annotations

# --- the prompts -------------------------------------------------------------------------------------
COUNT = "Count from 1 to 60, separated by commas."
COUNT_LINES = "Count from 1 to 40, one number per line."
PRINTING_PRESS = "Write a short paragraph about the history of the printing press."
AUTUMN = "Write a short paragraph about autumn in the mountains."
FIBONACCI = "Write a Python function that returns the n-th Fibonacci number, with a docstring."
RENAME = (
    "Here is a Python function:\n\ndef total(xs):\n    t = 0\n    for x in xs:\n        t = t + x\n"
    "    return t\n\nRename the variable t to running_sum and return the whole function."
)
PLANETS = "List the planets of the solar system in order from the Sun, one per line."
PLANET_FACTS = "List the planets of the solar system in order from the Sun, one per line, with one fact each."
CONTINENTS = "List the seven continents, one per line, with their largest country."
ELEMENTS = "List the first ten chemical elements, one per line, with their symbols."
EMAIL_TIPS = "List five tips for writing clear emails."

# --- the sets ----------------------------------------------------------------------------------------
#: a repetitive count, prose and code: how much each speculation method gains on each kind of text
WORKLOADS = {"count": COUNT, "prose": PRINTING_PRESS, "code": FIBONACCI}
#: tokens per round against the text: prose, code and a list
DEPTH = {"prose": PRINTING_PRESS, "code": FIBONACCI, "list": PLANETS}
#: suffix decoding: asked twice, the second time from the persisted tree
SUFFIX = {"code": FIBONACCI, "prose": PRINTING_PRESS, "list": EMAIL_TIPS}
#: parity and speed of ``tandem parity`` / ``tandem bench`` (``benchmarks/prompts.txt``)
PARITY = {"repetitive": COUNT_LINES, "code edit": RENAME, "prose": AUTUMN}
#: answers a model knows by heart: the same text every time it is asked
LISTS = [PLANET_FACTS, CONTINENTS, ELEMENTS]
#: prose requests that differ in topic only: how much one answer's speed varies from request to
#: request of one kind (Auto's noise), and Auto's convergence on prose
PROSE_TOPICS = [
    f"Write a short paragraph about {topic}."
    for topic in (
        "the history of the printing press",
        "autumn in the mountains",
        "how rivers shape valleys",
        "the invention of the bicycle",
        "life in a medieval village",
        "why cats purr",
        "the first ascent of Everest",
        "how glass is made",
        "the migration of monarch butterflies",
        "the history of tea",
        "how volcanoes form islands",
        "the life of a lighthouse keeper",
        "the building of the pyramids",
        "how owls hunt at night",
        "the first steam locomotive",
        "winter on a northern farm",
        "how coral reefs grow",
        "the craft of violin making",
        "the history of the postal service",
        "how bread rises",
        "a market day in an old town",
        "the voyage of a cargo ship",
        "how maps were drawn before satellites",
        "the sound of a summer storm",
    )
]
#: held-out prompts per workload, one per round: prose and code are always first requests (a
#: model-free method remembers a prompt it has seen), repeat is each prompt's second request
HELD_OUT: dict[str, list[str]] = {
    "prose": [
        "Write a short paragraph about the lighthouse keepers of the nineteenth century.",
        "Write a short paragraph about how bees find their way back to the hive.",
        "Write a short paragraph about the first transatlantic telegraph cable.",
    ],
    "code": [
        "Here is a Python class:\n\nclass Stack:\n    def __init__(self):\n        self.items = []\n\n"
        "    def push(self, x):\n        self.items.append(x)\n\n    def pop(self):\n"
        "        return self.items.pop()\n\nAdd a method peek that returns the last item without "
        "removing it, and return the whole class.",
        "Here is a Python function:\n\ndef total(prices):\n    s = 0\n    for p in prices:\n"
        "        s = s + p\n    return s\n\nRename s to subtotal, add type hints and a docstring, "
        "and return the whole function.",
        "Here is a Python function:\n\ndef greet(name):\n    print('Hello ' + name)\n\n"
        "Make it return the greeting instead of printing it, use an f-string, and return the whole "
        "function.",
    ],
    "repeat": LISTS,
}
