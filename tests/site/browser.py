"""Headless Chromium (Debian's chromium and chromedriver) driven by selenium, and a local
server for a built site and the talk's video."""

import functools
import http.server
import shutil
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from selenium import webdriver

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
# The flags this machine's closed network needs (see the env notes): no background calls.
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
    "--autoplay-policy=no-user-gesture-required",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(root: Path, port: int) -> Iterator[str]:
    """`root` on http://127.0.0.1:port/ in a thread, quietly."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def chromium(profile: Path):
    """A headless Chromium session; the suite fails, naming the packages, if the machine has
    no Chromium (.ci/run and `make test` install Debian's chromium and chromium-driver)."""
    binary = next((shutil.which(name) for name in CHROMIUM if shutil.which(name)), None)
    driver_path = shutil.which("chromedriver")
    if not binary or not driver_path:
        pytest.fail("no chromium/chromedriver: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=driver_path)
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
