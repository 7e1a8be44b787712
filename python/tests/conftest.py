"""Shared set-up of the Python tests: where the sources and the fleetsim command are (CTest sets
FLEETSIM_SOURCE_DIR and FLEETSIM_CLI; PYTHONPATH holds the built module), and the example policies,
imported once per test process (registering a name twice is an error)."""
import os
import pathlib
import sys

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("FLEETSIM_SOURCE_DIR",
                                         pathlib.Path(__file__).resolve().parents[2]))
CLI = os.environ.get("FLEETSIM_CLI", str(SOURCE_DIR / "build" / "ci" / "fleetsim"))
SCENARIOS = SOURCE_DIR / "scenarios"
BENCHMARK = sorted((SCENARIOS / "benchmark").glob("0*.json"))
EXAMPLES = SOURCE_DIR / "python" / "examples"
TINY = SCENARIOS / "examples" / "tiny-contended.json"

sys.path.insert(0, str(EXAMPLES))


@pytest.fixture(scope="session")
def example_policies():
    import policies  # noqa: F401  (registers python-fifo and sjf)
    return policies


def tiny_dict(**changes):
    """The tiny-contended scenario as a dict, with top-level keys changed."""
    import json
    document = json.loads(TINY.read_text())
    document.update(changes)
    return document
