"""Fixtures of the web tests: a real table in a temporary state folder and its app."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from companion.table import Table
from tests.web.apiclient import Client, make_app, make_table, referee


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


@pytest.fixture
def app(table: Table) -> Flask:
    return make_app(table)


@pytest.fixture
def ref(app: Flask) -> Client:
    """A client logged in as the referee."""
    return referee(app)
