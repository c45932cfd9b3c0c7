"""The report in a real browser: a split from the generator, the bundled replies scored with the
silhouette column, ``spatialbabel report``, then headless Chromium (through chromedriver and
Selenium) opens every page and checks that every image loads and nothing comes from the network.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("bpy")
pytest.importorskip("pyrender")
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

from tests.render.conftest import REPLIES, ROOT, read_scores, score  # noqa: E402

pytestmark = [pytest.mark.bpy, pytest.mark.render, pytest.mark.browser, pytest.mark.slow]

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def find(*names: str) -> str:
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    pytest.skip(
        f"none of {', '.join(names)} is installed (Debian: apt-get install chromium chromium-driver)"
    )


@pytest.fixture(scope="module")
def site(blender_split: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    scores = tmp_path_factory.mktemp("browser") / "scores"
    done = score(blender_split, REPLIES, scores, "--silhouette")
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert read_scores(scores / "scores.json")["replies"], (
        "the bundled replies no longer match the split"
    )
    out = scores.parent / "report"
    command = [
        sys.executable,
        "-m",
        "spatialbabel.cli",
        "report",
        str(scores / "scores.json"),
        "--out",
        str(out),
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, check=False, timeout=900
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = find("chromium", "chromium-browser")
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.add_argument("--window-size=1400,1000")
    driver = webdriver.Chrome(
        service=Service(executable_path=find("chromedriver")), options=options
    )
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


IMAGES = "return Array.from(document.images).map(i => [i.getAttribute('src'), i.complete, i.naturalWidth, i.naturalHeight]);"
LINKS = "return Array.from(document.links).map(a => a.href);"
RESOURCES = "return performance.getEntriesByType('resource').map(r => r.name);"


def test_every_page_loads_every_image_offline(site: Path, browser: Any) -> None:
    start = (site / "index.html").resolve().as_uri()
    todo, seen = [start], set()
    images_checked = 0
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        browser.get(url)
        # get() may return once the page is interactive, with images still decoding (a page
        # of 100 figures on a busy machine): wait for the load event, up to a minute.
        WebDriverWait(browser, 60).until(
            lambda b: b.execute_script("return document.readyState") == "complete"
        )
        images = browser.execute_script(IMAGES)
        source = Path(url.removeprefix("file://")).read_text(encoding="utf-8")
        assert len(images) == source.count("<img "), url
        for src, complete, width, height in images:
            assert complete and width > 0 and height > 0, f"{url}: image {src} did not load"
        images_checked += len(images)
        for resource in browser.execute_script(RESOURCES):
            assert resource.startswith("file://"), f"{url} fetched {resource}"
        for href in browser.execute_script(LINKS):
            assert href.startswith("file://"), f"{url} links to {href}"
            target = href.split("#")[0]
            assert Path(target.removeprefix("file://")).is_file(), f"{url}: broken link {href}"
            if target.endswith(".html"):
                todo.append(target)
    scores = read_scores(site / "tables" / "scores.json")
    # Three charts, and one figure per scored reply.
    assert images_checked == 3 + len(scores["replies"])
    assert len(seen) == 1 + len({r["model"] for r in scores["replies"]})
