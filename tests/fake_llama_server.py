"""A stand-in for llama.cpp's llama-server, started by the pipeline exactly as the real one
(same arguments, same /health and /v1/chat/completions), answering valid replies to any
schema — and dying the way the AMX build did, on request:

    FAKE_LLAMA_DIE_AT=N       kill itself with SIGILL at its N-th completion
    FAKE_LLAMA_DIE_ONCE=path  ... only if `path` does not exist yet (it is created)

`fake_server_binary(folder)` writes an executable that runs it with this Python.
"""

import argparse
import http.server
import os
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fake_server_binary(folder: Path) -> Path:
    binary = folder / "llama-server"
    binary.write_text(
        f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(ROOT)!r})\n"
        "from tests.fake_llama_server import main\nmain()\n"
    )
    binary.chmod(0o755)
    return binary


def should_die(count: int) -> bool:
    die_at = int(os.environ.get("FAKE_LLAMA_DIE_AT", "0"))
    if not die_at or count < die_at:
        return False
    once = os.environ.get("FAKE_LLAMA_DIE_ONCE")
    if once:
        if Path(once).exists():
            return False
        Path(once).touch()
    return True


def main() -> None:
    from tests.llm_double import SchemaReplies, completion, next_tokens_reply
    from tests.llm_server import JSONHandler

    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--alias", default="fake")
    args, _ = parser.parse_known_args()
    replies, count = SchemaReplies(keyed=True), [0]

    class Handler(JSONHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server API)
            self.send_json({"status": "ok"})

        def do_POST(self) -> None:  # noqa: N802
            body = self.body()
            if "prompt" in body:  # a plain completion: the next tokens
                self.send_json(next_tokens_reply())
                return
            count[0] += 1
            if should_die(count[0]):
                os.kill(os.getpid(), signal.SIGILL)
            content = replies(body) if "response_format" in body else "OK"
            self.send_json(completion(content))

    http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
