"""Headless Chromium for page tests: Debian's ``chromium`` and ``chromium-driver`` through Selenium.

Shared by the report's and the leaderboard's browser tests. Selenium is imported
when a driver is opened (it is in the ``[test]`` extra, not a dependency).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM, DRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
MISSING = (
    "Debian chromium and chromium-driver are not installed (apt-get install chromium chromium-driver; "
    ".ci/run installs them)"
)


def chromium_installed() -> bool:
    """Whether both the browser and its driver are where Debian puts them."""
    return CHROMIUM.exists() and DRIVER.exists()


def open_chromium(profile_dir: Path) -> Any:
    """A headless Chromium WebDriver with a fresh profile in ``profile_dir`` that keeps the console log
    (``driver.get_log("browser")``); the caller quits it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile_dir}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(str(DRIVER)), options=options)
