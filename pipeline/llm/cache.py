"""Replies already received, by request: a run killed mid-stage (Ctrl-C, SIGKILL, a crash)
resumes without asking the endpoint again what it already answered.

One JSON line per reply in the talk's outputs folder (llm_cache.jsonl), appended as soon as
it arrives; a line cut short by a kill is skipped on reading. The key covers everything
the reply depends on: model, messages, response format, token limit, temperature, seed.
"""

import hashlib
import json
from pathlib import Path


def request_key(request: dict) -> str:
    return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()


class CallCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.replies: dict[str, str] = {}
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    entry = json.loads(line)
                    self.replies[entry["key"]] = entry["content"]
                except (json.JSONDecodeError, KeyError, TypeError):
                    continue  # the last line of a killed run

    def get(self, request: dict) -> str | None:
        return self.replies.get(request_key(request))

    def put(self, request: dict, content: str) -> None:
        key = request_key(request)
        self.replies[key] = content
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"key": key, "content": content}, ensure_ascii=False) + "\n")
