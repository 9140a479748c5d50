"""Turn a request recorded by a logging proxy into a test fixture (tests/integration/data/clients).

The shape is kept exactly (fields, roles, blocks, tools and their schemas, headers that change what
a server must do); the client's own prose (system prompts, tool descriptions, environment notes)
and anything identifying (ids, metadata, keys) is replaced: a long text by neutral filler of the
same length, so the request keeps about its size in tokens without carrying the client's text.

    python scripts/redact_recording.py RECORDED.json OUT.json
"""

from __future__ import annotations

import itertools
import json
import sys
from typing import Any

#: texts up to this long stay (short prompts such as "say hi", field values, enum names)
KEEP = 40
_FILLER = (
    "the tool reads a file and writes the result so the agent can check its work before it "
    "answers the user with a short plain summary of what changed and why"
)
#: headers kept: the ones that tell a server which API features the request uses
HEADERS = ("anthropic-beta", "anthropic-version", "content-type", "accept", "x-app", "originator")
#: fields whose values identify the user or the session
DROP = ("metadata", "client_metadata", "prompt_cache_key", "user")


def filler(n: int) -> str:
    words = itertools.cycle(_FILLER.split())
    out = ""
    while len(out) < n:
        out += next(words) + " "
    return out[:n]


def redact(value: Any, key: str = "") -> Any:
    if isinstance(value, dict):
        return {k: redact(v, k) for k, v in value.items() if k not in DROP}
    if isinstance(value, list):
        return [redact(v, key) for v in value]
    if (
        isinstance(value, str)
        and key in ("text", "description", "content", "instructions")
        and len(value) > KEEP
    ):
        return filler(len(value))
    if isinstance(value, str) and key == "id":
        return "id_redacted"
    return value


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as f:
        recorded = json.loads(f.read())
    headers = {k.lower(): v for k, v in recorded["headers"].items() if k.lower() in HEADERS}
    out = {"method": recorded["method"], "path": recorded["path"], "headers": headers,
           "body": redact(recorded["body"])}  # fmt: skip
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
