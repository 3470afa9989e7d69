"""Replies already received, by request: a run killed mid-stage (Ctrl-C, SIGKILL, a crash)
resumes without asking the endpoint again what it already answered.

One JSON line per valid reply in the talk's outputs folder (llm_cache.jsonl), appended as
soon as it passed validation (an invalid reply is never replayed), under the call's first
request whichever attempt gave it; a line cut short by a kill is skipped on reading. Replies
arrive with secrets already redacted (client.py). The key covers everything the reply
depends on: model, messages, response format, token limit, temperature, seed.
"""

import hashlib
import json
import threading
from pathlib import Path


def request_key(request: dict) -> str:
    return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()


class CallCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.replies: dict[str, str] = {}
        self._lock = threading.Lock()  # the calls of one stage run in parallel
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
        line = json.dumps({"key": key, "content": content}, ensure_ascii=False) + "\n"
        with self._lock:
            self.replies[key] = content
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(line)
