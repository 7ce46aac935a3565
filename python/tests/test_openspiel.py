"""The OpenSpiel game `mabula`: a chance deal or a seeded one, and OpenSpiel's MCTS playing it."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import mabula  # noqa: E402
import mabula.openspiel  # noqa: E402,F401
from open_spiel.python.algorithms import mcts  # noqa: E402


def test_a_seeded_game_starts_from_the_deal_of_its_seed_with_white_as_player_0():
    game = pyspiel.load_game("mabula", {"seed": 7, "scoring": "product"})
    state = game.new_initial_state()
    assert str(state) == str(mabula.deal(7))
    assert state.current_player() == 0
    assert game.num_distinct_actions() == 145
    assert state.legal_actions() == mabula.deal(7).legal_actions()


def test_a_random_game_with_a_chance_deal_ends_with_zero_sum_returns():
    game = pyspiel.load_game("mabula")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 40158
    state.apply_action(1234)
    assert str(state) == str(mabula.all_deals()[1234])
    rng = np.random.RandomState(5)
    while not state.is_terminal():
        player = state.current_player()
        assert player == (0 if mabula.Position(str(state)).side_to_move == "white" else 1)
        state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    assert sum(returns) == 0
    white, black = mabula.Position(str(state)).scores("largest")
    assert returns[0] == (1 if white > black else -1 if black > white else 0)


def test_openspiel_mcts_plays_a_whole_game_against_random_moves():
    game = pyspiel.load_game("mabula", {"seed": 11})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=1.4, max_simulations=40, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    assert sum(state.returns()) == 0
    assert mabula.Position(str(state)).is_game_over()
