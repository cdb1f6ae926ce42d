"""The built wheel carries its data and works outside the checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow

DATA = ["hw/boards/brandi-4.json", "hw/boards/brandi-6.json",
        "vision/reader/models/hole_match.npz", "vision/reader/models/hole_trust.npz"]
PAGE_FILES = ["companion/web/templates/*.html", "companion/web/static/*",
              "companion/web/translations/*/LC_MESSAGES/*.mo"]
"""The page's templates, static files and compiled catalogues, whatever they are called: all of
them ship."""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--wheel-dir", str(out), str(REPO)],
                   check=True, capture_output=True, timeout=300)
    return next(out.glob("dog_companion-*.whl"))


def test_wheel_contains_profiles_templates_static_files_and_networks(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    page = [path.relative_to(REPO).as_posix() for pattern in PAGE_FILES
            for path in sorted(REPO.glob(pattern))]
    assert any(path.endswith(".html") for path in page), "the page has no template"
    assert any(path.endswith(".mo") for path in page), "the page has no compiled catalogue"
    for path in DATA + page:
        assert path in names, path
    assert any(name.endswith("entry_points.txt") for name in names)


def test_unpacked_wheel_works_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    # -S: no .pth files, so the checkout's editable install cannot answer the imports.
    paths = [str(site), *(p for p in sys.path if p.endswith("site-packages"))]
    probe = (f"import sys; sys.path[:0] = {paths!r}\n"
             "import hw; from hw import load_profile; from companion.cli import main\n"
             "print(hw.__file__.startswith(sys.path[0]), load_profile('brandi-6').led_count)\n"
             "main(['version'])")
    result = subprocess.run([sys.executable, "-I", "-S", "-c", probe],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "120", "dog-companion", "0.1.0"]
