"""The client of ``mabula analysis-server`` (mabula.analysis_client) against the real service.

The binary is found as the client finds it (``MABULA_BIN``, then ``mabula`` on the PATH), else
in the workspace's ``target/release`` or ``target/debug``; without one the tests are skipped.
"""

import importlib.util
import os
import pathlib

import pytest

try:
    from mabula import analysis_client
except ImportError:  # the package is not installed: the module alone needs no extension
    _path = pathlib.Path(__file__).resolve().parents[1] / "python" / "mabula" / "analysis_client.py"
    _spec = importlib.util.spec_from_file_location("analysis_client", _path)
    assert _spec is not None and _spec.loader is not None
    analysis_client = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(analysis_client)

AnalysisClient = analysis_client.AnalysisClient
AnalysisError = analysis_client.AnalysisError

OPENING = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w"
LATE = "1w2w1b1/b1w1w3/b2b4/w2b3w/3b1w1b/b1wb1w2/1bw3bb/4ww2 w"


def _binary():
    found = analysis_client.find_binary()
    if found:
        return found
    root = pathlib.Path(__file__).resolve().parents[2]
    for build in ("release", "debug"):
        candidate = root / "target" / build / "mabula"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


BINARY = _binary()
pytestmark = pytest.mark.skipif(BINARY is None, reason="no mabula binary (set MABULA_BIN)")


@pytest.fixture
def client():
    c = AnalysisClient(binary=BINARY, threads=2)
    yield c
    c.kill()


def test_a_query_gets_a_value_for_every_legal_move(client):
    answer = client.query(position=LATE, time_ms=100).result(timeout=60)
    assert answer["final"] is True
    assert answer["id"].startswith("q")
    assert answer["moves"]
    assert all("value" in m for m in answer["moves"])


def test_many_queries_in_flight_come_back_by_id(client):
    queries = [client.query(position=OPENING if i % 2 else LATE, time_ms=20) for i in range(10)]
    finals = [q.result(timeout=120) for q in queries]
    assert [f["id"] for f in finals] == [q.id for q in queries]


def test_a_game_is_analysed_turn_by_turn_with_interim_lines(client):
    q = client.query(start=OPENING, moves=["b1-b4", "c8-c6"], turns="all", time_ms=30, lines=2)
    turns = [line["turn"] for line in q if line["done"]]
    assert turns == [0, 1, 2]


def test_a_query_can_be_cancelled(client):
    q = client.query(position=OPENING, time_ms=600_000, interval_ms=50)
    first = next(iter(q.lines(timeout=60)))
    assert first["final"] is False
    assert q.cancel() == [q.id]
    last = q.result(timeout=60)
    assert last["terminated"] is True
    assert client.terminate("nothing-such") == []


def test_errors_are_raised_for_their_query_and_the_service_goes_on(client):
    with pytest.raises(AnalysisError, match="bad position"):
        client.query(position="not a position").result(timeout=60)
    assert client.version()
    assert client.query(position=LATE, time_ms=20).result(timeout=60)["final"] is True


def test_closing_finishes_the_queries_in_flight():
    c = AnalysisClient(binary=BINARY, threads=1)
    q = c.query(position=LATE, time_ms=50)
    assert c.close(timeout=60) == 0
    assert q.result(timeout=1)["final"] is True
