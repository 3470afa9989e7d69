"""An OpenAI-compatible endpoint on loopback for tests that run the CLI in a subprocess:
valid replies to any request (SchemaReplies), optionally slow for chosen prompts, every
request body recorded."""

import http.server
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from pipeline.core.prompts import load_prompt
from tests.llm_double import SchemaReplies, completion, next_tokens_reply


class JSONHandler(http.server.BaseHTTPRequestHandler):
    """JSON in, JSON out, nothing logged: the base of the fake endpoints' handlers."""

    def body(self) -> dict:
        return json.loads(self.rfile.read(int(self.headers["Content-Length"])))

    def send_json(self, data: dict) -> None:
        payload = json.dumps(data).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args) -> None:
        pass


@dataclass
class FakeEndpoint:
    delays: dict[str, float] = field(default_factory=dict)  # prompt id -> seconds
    requests: list[dict] = field(default_factory=list)
    replies: SchemaReplies = field(default_factory=SchemaReplies)

    def prompt_of(self, body: dict) -> str | None:
        system = body["messages"][0]["content"]
        for name in self.delays:
            if system.startswith(load_prompt(name).system.splitlines()[0]):
                return name
        return None

    def answer(self, body: dict) -> dict:
        self.requests.append(body)
        if "prompt" in body:  # a plain completion: the next tokens
            return next_tokens_reply()
        if (name := self.prompt_of(body)) is not None:
            time.sleep(self.delays[name])
        return completion(self.replies(body))


@contextmanager
def fake_endpoint(endpoint: FakeEndpoint) -> Iterator[str]:
    """Serve `endpoint` in a thread; yields its base URL (…/v1)."""

    class Handler(JSONHandler):
        def do_POST(self) -> None:  # noqa: N802 (the http.server API)
            try:
                data = endpoint.answer(self.body())
            except OSError:
                return
            self.send_json(data)

    with in_thread(Handler) as port:
        yield f"http://127.0.0.1:{port}/v1"


@contextmanager
def in_thread(handler, port: int = 0) -> Iterator[int]:
    """An HTTP server on 127.0.0.1 (a free port by default) in a thread; yields its port."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
