"""A real headless browser for the viewer tests: Debian's Chromium, driven by Playwright's
client (`playwright` from PyPI, pointed at /usr/bin/chromium — it never downloads a browser).

`make browser` installs Chromium through apt when it is missing (CI machines start without it);
the tests call it once, and skip only where it cannot be installed (not root, no apt)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

CHROMIUM = "/usr/bin/chromium"
# The flags a sandboxed, offline machine needs: no sandbox as root, no GPU, and none of the
# background connections (updates, sync, QUIC) whose refusal would only add noise.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def chromium() -> str:
    if not os.path.exists(CHROMIUM):
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        if shutil.which("make"):
            subprocess.run(["make", "-s", "browser"], cwd=root, capture_output=True, timeout=900)
    if not os.path.exists(CHROMIUM):
        pytest.skip("no Chromium, and `make browser` could not install it (it needs root and apt)")
    return CHROMIUM


def open_page(url: str):
    """(playwright, browser, page, console messages, page errors) for `url`; close with close()."""
    from playwright.sync_api import sync_playwright
    manager = sync_playwright().start()
    browser = manager.chromium.launch(executable_path=chromium(), args=FLAGS, headless=True)
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    console, errors, requests = [], [], []
    page.on("console", lambda message: console.append((message.type, message.text)))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: requests.append(request.url))
    page.goto(url)
    page.wait_for_load_state("load")
    return manager, browser, page, console, errors, requests


def close(manager, browser) -> None:
    browser.close()
    manager.stop()
