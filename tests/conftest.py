"""Shared fixtures: maps and rendered sheets, made once per test session."""
from __future__ import annotations

import pytest

from games.mapfile import load_map
from games.randommap import random_map


@pytest.fixture(scope="session")
def classic():
    return load_map("classic")


@pytest.fixture(scope="session")
def random_42():
    return random_map(42)


@pytest.fixture(scope="session")
def map6():
    return load_map("map6")
