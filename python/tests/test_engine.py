"""The engine from Python: moves, analysis that agrees with the solver, and the GIL released."""

import threading
import time

import mabula


def late_position(seed, edges):
    pos = mabula.deal(seed)
    i = 0
    while pos.on_edge("white") + pos.on_edge("black") > edges and not pos.is_game_over():
        moves = pos.legal_moves()
        pos = pos.play(moves[(i * 5 + 2) % len(moves)])
        i += 1
    return pos


def test_choose_move_plays_a_legal_move():
    pos = mabula.deal(1)
    move = mabula.choose_move(pos, level=1, seed=3)
    assert pos.is_legal(move)


def test_analysis_late_in_the_game_gives_the_solvers_margins_best_first():
    pos = late_position(4, 8)
    lines = mabula.analyze(pos, "product", time_ms=300)
    assert sorted(m.move for m in lines) == sorted(pos.legal_moves())
    assert all(m.exact and m.margin is not None for m in lines)
    margins = [m.margin for m in lines]
    assert margins == sorted(margins, reverse=True)
    solution = mabula.solve(pos, "product", margin=True)
    assert solution is not None
    assert solution.margin == margins[0]
    assert solution.pv[0] == solution.best
    for m in lines:
        after = mabula.solve(pos.play(m.move), "product", margin=True)
        assert -after.margin == m.margin


def test_the_engine_lets_other_python_threads_run_while_it_thinks():
    pos = mabula.deal(2)
    counted = 0
    done = threading.Event()

    def think():
        mabula.analyze(pos, time_ms=600, threads=1)
        done.set()

    worker = threading.Thread(target=think)
    started = time.monotonic()
    worker.start()
    while not done.is_set():
        counted += 1
        time.sleep(0.001)
    worker.join()
    assert time.monotonic() - started >= 0.5
    assert counted > 100, counted


def test_an_unsolved_position_within_its_time_gives_none():
    assert mabula.solve(mabula.deal(3), time_ms=1) is None


def test_a_negative_or_endless_time_is_a_value_error():
    # Issue 56: time_ms=-1 raised OverflowError.
    import pytest

    pos = mabula.deal(1)
    with pytest.raises(ValueError, match="time_ms=-1: give 0 to 86400000 milliseconds"):
        mabula.analyze(pos, time_ms=-1)
    with pytest.raises(ValueError, match="movetime_ms=-5"):
        mabula.choose_move(pos, movetime_ms=-5)
    with pytest.raises(ValueError, match="time_ms=18446744073709"):
        mabula.solve(pos, time_ms=18446744073709551615)
    with pytest.raises(ValueError, match="table_mb=4000000"):
        mabula.solve(pos, table_mb=4000000)
