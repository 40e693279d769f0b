"""A repository in the reader (issue 27): an archive of real files in several folders,
a build file and two byte-identical files at different paths, uploaded through the real
server, opens as a file tree (folders, then files; each path once, both identical files
there) whose finder filters the paths as one types, and a file opens in the code view."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.a11y import blocking
from e2e.conftest import entered_page
from e2e.live import LiveServer, live_server

STDLIB = Path(json.__file__).parent.parent
FILES = {
    "shop/pyproject.toml": b'[project]\nname = "shop"\nversion = "1.0"\n',
    "shop/src/json/decoder.py": (STDLIB / "json/decoder.py").read_bytes(),
    "shop/src/json/encoder.py": (STDLIB / "json/encoder.py").read_bytes(),
    "shop/src/asyncio/locks.py": (STDLIB / "asyncio/locks.py").read_bytes(),
    "shop/src/asyncio/mixins.py": (STDLIB / "asyncio/mixins.py").read_bytes(),
    "shop/tools/a/util.py": b"def clamp(x):\n    return max(0, x)\n",
    "shop/tools/b/util.py": b"def clamp(x):\n    return max(0, x)\n",
}


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, str]]:
    """The server, and the collection the archive's files joined."""
    with live_server(tmp_path_factory.mktemp("tree") / "home") as server:
        answer = server.upload_zip("shop.zip", FILES)
        assert len(answer["files"]) == len(FILES)
        yield server, answer["collection"]["id"]


@pytest.fixture
def tree_page(browser: Browser, repository: tuple[LiveServer, str]) -> Iterator[Page]:
    with entered_page(browser, repository[0], landing=None) as page:
        page.goto(f"{repository[0].url}/collection.html?c={repository[1]}")
        page.wait_for_selector("body.ready")
        yield page


def shown_paths(page: Page) -> list[str]:
    return page.locator(".tree-file:visible").evaluate_all("fs => fs.map(f => f.dataset.path)")


def test_the_repository_is_a_tree_of_its_paths(tree_page: Page, artifacts: Path) -> None:
    tree = tree_page.locator(".file-tree")
    expect(tree.locator(".tree-file")).to_have_count(len(FILES))
    top = tree.locator(":scope > .tree-folder > summary, :scope > .tree-file")
    expect(top).to_have_text(["src/", "tools/", "pyproject.toml"])
    every = tree.locator(".tree-file").evaluate_all("fs => fs.map(f => f.dataset.path)")
    assert sorted(every) == sorted(name.removeprefix("shop/") for name in FILES)
    tree_page.screenshot(path=str(artifacts / "repository-tree.png"))
    assert blocking(tree_page) == []


def test_the_finder_filters_paths_as_one_types_and_enter_opens_the_first(
    tree_page: Page, artifacts: Path
) -> None:
    finder = tree_page.locator(".file-finder")
    finder.fill("util")
    assert shown_paths(tree_page) == ["tools/a/util.py", "tools/b/util.py"]
    expect(tree_page.locator(".finder-count")).to_have_text("2 files")
    finder.fill("asyncio lck")  # two words, the second by its letters in order
    assert shown_paths(tree_page) == ["src/asyncio/locks.py"]
    expect(tree_page.locator(".tree-folder:visible > summary")).to_have_text(["src/", "asyncio/"])
    tree_page.screenshot(path=str(artifacts / "repository-finder.png"))
    finder.press("Enter")
    tree_page.wait_for_url("**/reader.html?doc=*")
    tree_page.wait_for_selector("body.ready")
    expect(tree_page.locator("#doc-title")).to_have_text("locks.py")
    expect(tree_page.locator(".code-line").first).to_be_visible()


def test_a_build_file_opens_as_numbered_lines(tree_page: Page) -> None:
    tree_page.locator(".tree-file a", has_text="pyproject.toml").click()
    tree_page.wait_for_selector("body.ready")
    expect(tree_page.locator(".code-line")).to_have_count(3)
    expect(tree_page.locator('.code-line[data-line="2"] .lc')).to_have_text('name = "shop"')


def test_a_file_links_back_to_its_repositorys_tree(tree_page: Page) -> None:
    tree_page.locator(".tree-file a", has_text="decoder.py").click()
    tree_page.wait_for_selector("body.ready")
    link = tree_page.locator("#doc-meta .repository-link")
    expect(link).to_have_text("Files of shop")
    link.click()
    tree_page.wait_for_selector("body.ready")
    expect(tree_page.locator(".file-tree .tree-file")).to_have_count(len(FILES))
