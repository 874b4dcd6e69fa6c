"""Shared fixtures: maps and rendered sheets, made once per test session."""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from games.mapfile import load_map
from games.randommap import random_map


def pytest_configure(config):
    """The scanner's blank pages and the game book are kept in folders of this test run, not in the user's."""
    os.environ["SCRAWL_CACHE"] = tempfile.mkdtemp(prefix="scrawl-cache-")
    os.environ["SCRAWL_DATA"] = tempfile.mkdtemp(prefix="scrawl-data-")


def pytest_unconfigure(config):
    shutil.rmtree(os.environ.pop("SCRAWL_CACHE", ""), ignore_errors=True)
    shutil.rmtree(os.environ.pop("SCRAWL_DATA", ""), ignore_errors=True)


@pytest.fixture(scope="session")
def classic():
    return load_map("classic")


@pytest.fixture(scope="session")
def random_42():
    return random_map(42)


@pytest.fixture(scope="session")
def map6():
    return load_map("map6")
