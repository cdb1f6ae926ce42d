"""No module of the project imports itself round a circle.

import-linter's contracts (`pyproject.toml`, run by `./test`) keep the arrows between the parts
one way and forbid circles between sibling modules; this also catches a circle through a
package's `__init__` (a blueprint importing the app package that imports the blueprint).
"""

from __future__ import annotations

import grimp

PACKAGES = ("companion", "vision", "firmware_bridge", "hw")


def import_circles() -> list[tuple[str, ...]]:
    """Each circle once, as the modules along it, starting and ending at the same one."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    circles: dict[frozenset[str], tuple[str, ...]] = {}
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back:
                circles.setdefault(frozenset(back), (module, *back))
    return list(circles.values())


def test_no_module_imports_itself_round_a_circle() -> None:
    circles = [" -> ".join(circle) for circle in import_circles()]
    assert circles == [], "import circles:\n" + "\n".join(circles)
