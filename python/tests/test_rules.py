"""The package against a plain Python reading of the rules (reference.py), over many random
games, and its records and deals."""

import os
import random

import pytest

import mabula
import reference

RECORDS = os.path.join(os.path.dirname(__file__), "..", "..", "crates", "mabula", "tests", "data", "records")
OPENING = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w"


def test_the_reference_reads_the_rule_books_worked_line():
    # . b . w . . on the b-file, White pushing from b1.
    board, side = {(1, 0): "w", (1, 2): "b", (1, 4): "w"}, "w"
    for d, expected in [(1, [1, 2, 4]), (2, [2, 3, 4]), (3, [3, 4, 5]), (4, [4, 5, 6])]:
        after, _ = reference.play(board, side, f"b1-b{d + 1}")
        assert sorted(r for (f, r) in after) == expected


@pytest.mark.parametrize("seed", range(300))
def test_random_games_agree_with_the_reference_move_by_move(seed):
    rng = random.Random(seed)
    first = "white" if seed % 2 == 0 else "black"
    pos = mabula.deal(seed, first)
    board, side = reference.parse(str(pos))
    assert reference.is_valid_deal(board)
    assert mabula.check_deal(pos) is None
    while True:
        assert str(pos) == reference.write(board, side)
        legal = reference.legal_moves(board, side)
        assert sorted(pos.legal_moves()) == sorted(legal)
        assert pos.legal_moves() == sorted(pos.legal_moves(), key=mabula.move_to_action)
        for scoring in ("largest", "product"):
            expected = (reference.score(board, "w", scoring), reference.score(board, "b", scoring))
            assert pos.scores(scoring) == expected
        assert pos.is_game_over() == (legal == [])
        assert pos.must_pass() == (legal == ["pass"])
        if not legal:
            break
        move = rng.choice(legal)
        assert pos.is_legal(move)
        pos = pos.play(move)
        board, side = reference.play(board, side, move)
    white, black = pos.scores("largest")
    assert pos.result("largest") == ("1-0" if white > black else "0-1" if black > white else "1/2-1/2")


def test_an_illegal_move_raises_with_the_reason():
    pos = mabula.Position(OPENING)
    with pytest.raises(mabula.IllegalMoveError, match="at most 5 squares"):
        pos.play("b1-b4").play("a4-g4")
    with pytest.raises(ValueError, match="is not a move"):
        pos.play("x9")
    with pytest.raises(ValueError, match="8 ranks"):
        mabula.Position("8/8 w")


def test_an_illegal_move_error_pickles_to_another_process():
    # Issue 56: its module was `_mabula`, so pickle (and ProcessPoolExecutor) could not find it.
    import pickle

    try:
        mabula.Position(OPENING).play("b1-b4").play("a4-g4")
    except mabula.IllegalMoveError as e:
        again = pickle.loads(pickle.dumps(e))
    assert type(again) is mabula.IllegalMoveError
    assert "at most 5 squares" in str(again)
    assert mabula.IllegalMoveError.__module__ == "mabula"


def test_actions_and_moves_map_both_ways():
    pos = mabula.deal(5)
    for action in pos.legal_actions():
        assert mabula.move_to_action(mabula.action_to_move(action)) == action
    assert mabula.action_to_move(mabula.PASS_ACTION) == "pass"
    assert pos.play_action(pos.legal_actions()[0]) == pos.play(mabula.action_to_move(pos.legal_actions()[0]))


def test_there_are_40158_deals_all_valid_and_distinct():
    deals = mabula.all_deals()
    assert len(deals) == mabula.DEAL_COUNT == 40158
    assert len(set(deals)) == 40158
    for pos in deals[::997]:
        assert reference.is_valid_deal(reference.parse(str(pos))[0])


def test_a_game_writes_a_record_that_reads_back():
    game = mabula.Game(mabula.deal(3, "black"), "product")
    game.set_tag("Event", "pytest")
    while game.position.legal_moves():
        game.play(game.position.legal_moves()[-1])
    game.set_comment(2, "a comment")
    again = mabula.Game.parse(str(game))
    assert again.moves == game.moves
    assert again.result == game.result != "*"
    assert again.tag("Event") == "pytest"
    assert again.comment(2) == "a comment"
    assert len(game.positions()) == len(game.moves) + 1


def test_records_of_several_games_are_read_one_by_one():
    with open(os.path.join(RECORDS, "three_games.pgn"), encoding="utf-8") as f:
        text = f.read()
    with pytest.raises(ValueError, match="game 3: line 22"):
        mabula.parse_records(text)
    two = text[: text.index('[Event "mabula match: level=1 vs random"]\n[Round "3"]')]
    games = mabula.parse_records(two)
    assert [g.tag("Round") for g in games] == [None, "2"]
    with open(os.path.join(RECORDS, "bom.pgn"), encoding="utf-8") as f:
        assert len(mabula.Game.parse(f.read()).moves) == 3


def test_positions_pickle_and_copy():
    import copy
    import pickle

    pos = mabula.deal(9)
    assert pickle.loads(pickle.dumps(pos)) == pos
    assert copy.deepcopy(pos) == pos
    assert hash(pos) == hash(mabula.Position(str(pos)))
