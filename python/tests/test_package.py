"""The package around the engine: interruptible calls, streamed analysis, records that read back
(tags and comments), pickling, __version__, and the board square by square and group by group."""

import copy
import os
import pickle
import signal
import subprocess
import sys
import threading
import time

import pytest

import mabula

START = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w"


def interrupted_after(delay, call):
    """Sends SIGINT to this process `delay` seconds from now, runs `call`, and answers how long
    after the signal the KeyboardInterrupt came. Ctrl-C raises KeyboardInterrupt meanwhile even
    where the tests were started with SIGINT ignored (a shell's background job)."""
    sent = []
    before = signal.signal(signal.SIGINT, signal.default_int_handler)

    def send():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(delay, send)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.monotonic() - sent[0]
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, before)


# The calls below would think for 30 s; Ctrl-C must end them well within 2 s (within 100 ms on an
# idle machine: the waiting thread looks for signals every 50 ms).


def test_ctrl_c_stops_a_long_solve():
    late = interrupted_after(0.3, lambda: mabula.solve(mabula.deal(3), time_ms=30_000))
    assert late < 2.0, late


def test_ctrl_c_stops_a_long_choose_move_and_analysis():
    late = interrupted_after(
        0.3, lambda: mabula.choose_move(mabula.deal(3), movetime_ms=30_000, seed=1)
    )
    assert late < 2.0, late
    late = interrupted_after(0.3, lambda: mabula.analyze(mabula.deal(3), time_ms=None))
    assert late < 2.0, late

    def stream():
        for _ in mabula.analyze_stream(mabula.deal(3), time_ms=30_000):
            pass

    late = interrupted_after(0.3, stream)
    assert late < 2.0, late


def test_ctrl_c_stops_a_solve_with_no_time_limit():
    # In a child process, so that a failure cannot hang the test run.
    script = (
        "import mabula, signal, time\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "started = time.monotonic()\n"
        "try:\n"
        "    mabula.solve(mabula.deal(3))\n"
        "    print('finished')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', time.monotonic() - started)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True
    )
    time.sleep(1.5)  # The import and the start of the search.
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=60)
    late = time.monotonic() - sent
    assert out.startswith("interrupted"), out
    assert late < 2.0, late


def test_analysis_streams_to_a_callback_and_to_an_iterator():
    pos = mabula.deal(2)
    seen = []
    final = mabula.analyze(pos, time_ms=300, lines=3, callback=seen.append)
    assert len(seen) >= 2
    assert [r.step for r in seen] == list(range(1, len(seen) + 1))
    assert seen[-1].done and not any(r.done for r in seen[:-1])
    assert [m.move for m in seen[-1].moves] == [m.move for m in final]
    assert all(len(r.moves) <= 3 for r in seen)
    assert seen[-1].playouts >= seen[0].playouts > 0

    reports = list(mabula.analyze_stream(pos, time_ms=300))
    assert reports[-1].done and len(reports) >= 2
    assert sorted(m.move for m in reports[-1].moves) == sorted(pos.legal_moves())
    assert 0 <= reports[-1].white <= 1

    # With no time limit, the caller stops it.
    with mabula.analyze_stream(pos) as stream:
        first = next(stream)
        second = next(stream)
    assert second.step == first.step + 1
    assert list(stream) == []  # closed: the iteration has ended
    started = time.monotonic()
    stream = mabula.analyze_stream(pos)
    for report in stream:
        if report.step >= 3:
            break
    stream.close()
    assert time.monotonic() - started < 10

    def stop(report):
        if report.step == 2:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        mabula.analyze(pos, time_ms=None, callback=stop)


def sample_game():
    game = mabula.Game(mabula.deal(11, "black"), "product")
    for i in range(9):
        moves = game.position.legal_moves()
        game.play(moves[i % len(moves)])
    return game


def test_tags_are_validated_listed_and_read_back():
    game = sample_game()
    game.set_tag("Event", 'A "quoted" event \\ with a backslash ] and [brackets]')
    game.set_tag("White", "Ada")
    assert list(game.tags()) == ["Event", "White", "Setup", "Scoring", "Result"]
    assert game.tags()["Setup"] == str(game.start)
    assert game.tag("Scoring") == "product" and game.tag("Result") == "*"
    back = mabula.Game.parse(str(game))
    assert back.tags() == game.tags()
    for name in ("Setup", "Scoring", "Result"):
        with pytest.raises(ValueError, match=name):
            game.set_tag(name, "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w")
    for name in ("", "Two words", "Tag]", 'a"b'):
        with pytest.raises(ValueError, match="tag name"):
            game.set_tag(name, "x")
    with pytest.raises(ValueError, match="line break"):
        game.set_tag("Annotator", "two\nlines")
    # Nothing refused was written: the record still reads back.
    assert mabula.Game.parse(str(game)) == game


def test_every_comment_round_trips():
    game = sample_game()
    texts = [
        "a } in the middle",
        "{nested} and }}{{ braces",
        "back\\slash and \\} and \\n written out",
        "two\nlines",
        "[Setup \"x\"] 1. a2-b2 1-0",
        "ends with a backslash \\",
        "é ✓\ttab",
    ]
    for i, text in enumerate(texts):
        game.set_comment(i, text)
    record = str(game)
    back = mabula.Game.parse(record)
    assert [back.comment(i) for i in range(len(texts))] == texts, record
    assert back == game
    both = mabula.parse_records(record + "\n" + record)
    assert both == [game, game]
    with pytest.raises(IndexError):
        game.set_comment(len(game.moves), "past the end")


def test_games_and_positions_pickle_and_copy():
    game = sample_game()
    game.set_tag("Event", "Pickled")
    game.set_comment(2, "a } comment")
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(game, proto))
        assert back == game and str(back) == str(game)
        assert back.moves == game.moves and back.comment(2) == "a } comment"
    finished = mabula.Game(mabula.Position(START))
    finished.play("b1-b4")
    finished.declare("0-1")
    assert pickle.loads(pickle.dumps(finished)).result == "0-1"
    assert copy.deepcopy(game) == game and copy.copy(game) == game
    other = copy.copy(game)
    other.undo()
    assert other != game
    pos = game.position
    assert pickle.loads(pickle.dumps(pos)) == pos
    assert pickle.loads(pickle.dumps([pos, game]))[1] == game


def test_version():
    assert isinstance(mabula.__version__, str)
    assert mabula.__version__.count(".") == 2
    assert mabula.__version__ == mabula._mabula.__version__


def board_from_text(pos):
    """{square: colour} read from the position string, independently of the native code."""
    board = {}
    ranks = str(pos).split(" ")[0].split("/")
    for row, text in enumerate(ranks):
        rank = 8 - row
        file = 0
        for c in text:
            if c.isdigit():
                file += int(c)
            else:
                board["abcdefgh"[file] + str(rank)] = "white" if c == "w" else "black"
                file += 1
    return board


def groups_from_text(board, color):
    field = {sq for sq, c in board.items() if c == color and sq[0] in "bcdefg" and sq[1] in "234567"}
    groups = []
    while field:
        todo = [field.pop()]
        group = set(todo)
        while todo:
            sq = todo.pop()
            f, r = "abcdefgh".index(sq[0]), int(sq[1])
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= f + df < 8 and 1 <= r + dr <= 8:
                    n = "abcdefgh"[f + df] + str(r + dr)
                    if n in field:
                        field.remove(n)
                        group.add(n)
                        todo.append(n)
        groups.append(group)
    return groups


def test_squares_and_groups_agree_with_the_board_text():
    pos = mabula.Position(START)
    assert pos.piece_at("b1") == "white" and pos.piece_at("c1") == "black"
    assert pos.piece_at("a1") is None and pos.piece_at("d4") is None
    assert pos.piece_at("B1") == "white"
    for bad in ("i1", "a9", "", "b1-b4"):
        with pytest.raises(ValueError):
            pos.piece_at(bad)
    with pytest.raises(ValueError):
        pos.groups("red")
    assert pos.groups("white") == [] and pos.group_sizes("black") == []
    checked = 0
    for seed in range(30):
        pos = mabula.deal(seed)
        i = 0
        while not pos.is_game_over():
            moves = pos.legal_moves()
            pos = pos.play(moves[(i * 7 + seed) % len(moves)])
            i += 1
            if i % 4:
                continue
            board = board_from_text(pos)
            for f in "abcdefgh":
                for r in "12345678":
                    assert pos.piece_at(f + r) == board.get(f + r)
            for color in ("white", "black"):
                assert pos.pieces(color) == sorted(
                    (sq for sq, c in board.items() if c == color), key=lambda s: (s[1], s[0])
                )
                expected = groups_from_text(board, color)
                groups = pos.groups(color)
                assert sorted(map(sorted, groups)) == sorted(map(sorted, expected))
                assert [len(g) for g in groups] == pos.group_sizes(color)
                assert pos.group_sizes(color) == sorted(pos.group_sizes(color), reverse=True)
                sizes = pos.group_sizes(color)
                largest = sizes[0] if sizes else 0
                product = 1 if sizes else 0
                for s in sizes:
                    product *= s
                w_or_b = 0 if color == "white" else 1
                assert pos.scores("largest")[w_or_b] == largest
                assert pos.scores("product")[w_or_b] == product
            checked += 1
    assert checked > 100
