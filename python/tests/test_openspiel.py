"""The OpenSpiel game `mabula`: a chance deal or a seeded one, and OpenSpiel's MCTS playing it."""

import os
import sys

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


# --- Observations, undo, parameters, learning (issue 41) ---

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import tabular_qlearner  # noqa: E402

from mabula.openspiel import SHAPE, observation_planes  # noqa: E402

START = "1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w"


def obs(state, player=0):
    return np.array(state.observation_tensor(player), dtype=np.float32).reshape(SHAPE)


def test_the_observation_planes_follow_the_documented_layout():
    game = pyspiel.load_game("mabula", {"setup": START, "scoring": "product"})
    state = game.new_initial_state()
    assert game.observation_tensor_shape() == [8, 8, 8]
    assert game.information_state_tensor_shape() == [8, 8, 8]
    planes = obs(state)
    # Rank 1 is "1wbwbwb1": b1 white, c1 black; rank 8 "1wbwbww1": g8 white.
    assert planes[0, 0, 1] == 1 and planes[1, 0, 1] == 0
    assert planes[1, 0, 2] == 1 and planes[0, 0, 2] == 0
    assert planes[0, 7, 6] == 1
    assert planes[0].sum() == 12 and planes[1].sum() == 12
    assert (planes[2] == 1).all() and (planes[3] == 0).all()
    assert (planes[4] == 1).all()
    assert (planes[5] == 1).all() and (planes[6] == 1).all()
    assert planes[7].sum() == 24 and planes[7, 0, 0] == 0 and planes[7, 0, 1] == 1
    state.apply_action(mabula.move_to_action("b1-b4"))
    planes = obs(state)
    assert planes[0, 3, 1] == 1 and planes[0, 0, 1] == 0
    assert (planes[3] == 1).all() and (planes[2] == 0).all()
    assert planes[5, 4, 4] == pytest.approx(11 / 12)
    assert obs(state, 1).tolist() == planes.tolist()
    assert state.observation_string(0) == str(state) == state.observation_string(1)
    assert state.information_state_tensor(1) == state.observation_tensor(1)
    largest = pyspiel.load_game("mabula", {"setup": START}).new_initial_state()
    assert (obs(largest)[4] == 0).all()


def test_a_chance_game_observes_the_deal_and_its_history():
    game = pyspiel.load_game("mabula")
    state = game.new_initial_state()
    assert state.observation_string(0) == "(deal)"
    planes = obs(state)
    assert planes[:4].sum() == 0
    assert state.information_state_string(0) == ""
    state.apply_action(1234)
    move = state.legal_actions()[0]
    state.apply_action(move)
    assert state.information_state_string(0) == f"1234, {move}"
    assert state.information_state_string(1) == state.history_str()


def transpositions(seed, wanted):
    """Pairs of four-move orders (w1 b1 w2 b2 and w2 b1 w1 b2) that reach the same position."""
    game = pyspiel.load_game("mabula", {"seed": seed})
    rng = np.random.RandomState(seed)
    found = []
    for _ in range(2000):
        if len(found) >= wanted:
            break
        start = game.new_initial_state()
        w1, w2 = rng.choice(start.legal_actions(), 2, replace=False)
        a = start.child(w1)
        b1 = rng.choice(a.legal_actions())
        a = a.child(b1)
        if w2 not in a.legal_actions():
            continue
        a = a.child(w2)
        b2 = rng.choice(a.legal_actions())
        a = a.child(b2)
        b = start.child(w2)
        if b1 not in b.legal_actions():
            continue
        b = b.child(b1)
        if w1 not in b.legal_actions():
            continue
        b = b.child(w1)
        if b2 not in b.legal_actions():
            continue
        b = b.child(b2)
        found.append((a, b))
    return found


def test_observations_are_equal_for_equal_positions_and_differ_for_different_ones():
    pairs = transpositions(21, 40)
    assert len(pairs) >= 40
    same = 0
    seen = {}
    for a, b in pairs:
        if str(a) == str(b):
            same += 1
            assert a.history() != b.history()
            assert a.observation_tensor(0) == b.observation_tensor(0)
            assert a.observation_string(1) == b.observation_string(1)
            assert a.information_state_tensor(0) == b.information_state_tensor(0)
            assert a.information_state_string(0) != b.information_state_string(0)
        else:
            assert a.observation_tensor(0) != b.observation_tensor(0)
        for s in (a, b):
            key = tuple(s.observation_tensor(0))
            assert seen.setdefault(key, str(s)) == str(s)
    assert same >= 5, same
    # The scoring mode and the side to move alone also change the observation.
    pos = mabula.Position(START)
    assert not np.array_equal(observation_planes(pos), observation_planes(pos, "product"))
    black = mabula.Position(START[:-1] + "b")
    assert not np.array_equal(observation_planes(pos), observation_planes(black))


def test_undo_restores_the_state_exactly():
    game = pyspiel.load_game("mabula")
    state = game.new_initial_state()
    rng = np.random.RandomState(8)
    snapshots = []
    while not state.is_terminal():
        snapshots.append(
            (str(state), state.history(), state.observation_tensor(0), state.move_number(),
             state.current_player(), state.legal_actions() if not state.is_chance_node() else None)
        )
        if state.is_chance_node():
            action = 777
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
    returns = state.returns()
    for snapshot in reversed(snapshots):
        player = snapshot[4]
        action = state.history()[-1]
        state.undo_action(player, action)
        legal = None if state.is_chance_node() else state.legal_actions()
        assert (str(state), state.history(), state.observation_tensor(0), state.move_number(),
                state.current_player(), legal) == snapshot
    assert state.is_chance_node() and state.history() == []
    with pytest.raises(ValueError):
        state.undo_action(pyspiel.PlayerId.CHANCE, 777)
    # Replaying the same actions reaches the same end.
    for action in [777]:
        state.apply_action(action)
    assert not state.is_terminal() and returns is not None


def test_undo_refuses_an_action_that_was_not_the_last():
    state = pyspiel.load_game("mabula", {"seed": 5}).new_initial_state()
    first = state.legal_actions()[0]
    state.apply_action(first)
    with pytest.raises(ValueError):
        state.undo_action(1, first)
    with pytest.raises(ValueError):
        state.undo_action(0, first + 1)
    state.undo_action(0, first)
    assert str(state) == str(mabula.deal(5))


@pytest.mark.parametrize("seed", [10**12, 2**32, 2**64 - 1])
def test_deal_seeds_are_64_bit(seed):
    game = pyspiel.load_game("mabula", {"seed": seed})
    assert str(game.new_initial_state()) == str(mabula.deal(seed))
    again = pyspiel.load_game(str(game))
    assert str(again.new_initial_state()) == str(mabula.deal(seed))
    as_text = pyspiel.load_game("mabula", {"seed64": str(seed)})
    assert str(as_text.new_initial_state()) == str(mabula.deal(seed))
    with pytest.raises(ValueError):
        pyspiel.load_game("mabula", {"seed": 2**64})


def test_a_setup_and_who_moves_first_are_parameters():
    setup = START[:-1] + "b"
    game = pyspiel.load_game("mabula", {"setup": setup})
    state = game.new_initial_state()
    assert str(state) == setup and state.current_player() == 1
    assert str(pyspiel.load_game(str(game)).new_initial_state()) == setup
    dealt = pyspiel.load_game("mabula", {"seed": 9, "first": "black"}).new_initial_state()
    assert str(dealt) == str(mabula.deal(9, "black")) and dealt.current_player() == 1
    chance = pyspiel.load_game("mabula", {"first": "black"}).new_initial_state()
    chance.apply_action(5)
    assert str(chance) == str(mabula.all_deals("black")[5]) and chance.current_player() == 1
    with pytest.raises(Exception):
        pyspiel.load_game("mabula", {"setup": "not a position"})
    with pytest.raises(Exception):
        pyspiel.load_game("mabula", {"setup": setup, "seed": 3})
    with pytest.raises(Exception):
        pyspiel.load_game("mabula", {"first": "red"})


def test_an_rl_environment_episode_loop_runs_on_mabula():
    env = rl_environment.Environment("mabula", seed=4)
    assert env.observation_spec()["info_state"] == (512,)
    assert env.action_spec()["num_actions"] == 145
    rng = np.random.RandomState(4)
    for _ in range(3):
        time_step = env.reset()
        steps = 0
        while not time_step.last():
            player = time_step.observations["current_player"]
            legal = time_step.observations["legal_actions"][player]
            assert len(time_step.observations["info_state"][player]) == 512
            time_step = env.step([int(rng.choice(legal))])
            steps += 1
        assert 0 < steps <= 48
        assert sum(time_step.rewards) == 0
    env = rl_environment.Environment(
        "mabula", observation_type=rl_environment.ObservationType.INFORMATION_STATE
    )
    assert len(env.reset().observations["info_state"][0]) == 512


def test_openspiel_tabular_q_learners_train_on_a_fixed_deal():
    env = rl_environment.Environment(pyspiel.load_game("mabula", {"seed": 3}))
    agents = [
        tabular_qlearner.QLearner(player_id=p, num_actions=env.action_spec()["num_actions"])
        for p in range(2)
    ]
    for _ in range(20):
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            time_step = env.step([agents[player].step(time_step).action])
        for agent in agents:
            agent.step(time_step)
    assert sum(len(a._q_values) for a in agents) > 20


def test_a_few_reinforce_steps_with_numpy_change_the_policy():
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
    from reinforce import Reinforce, play_episode, score_against_random

    env = rl_environment.Environment("mabula")
    learner = Reinforce(env.observation_spec()["info_state"][0], 145, seed=2)
    before = learner.weights.copy()
    rng = np.random.RandomState(0)
    for n in range(6):
        trajectory, returns = play_episode(env, learner, rng, learner_player=n % 2)
        assert trajectory and sum(returns) == 0
        learner.update(trajectory, returns)
    assert not np.array_equal(before, learner.weights)
    assert np.isfinite(learner.weights).all()
    assert 0 <= score_against_random(env, learner, 4, rng) <= 1
