"""REINFORCE on Mabula with numpy only: a linear softmax policy learns against random moves.

    python python/examples/reinforce.py [SECONDS] [SCORING]

It plays OpenSpiel's `rl_environment` on the game `mabula` (a fresh random deal each episode),
the learner taking White in even episodes and Black in odd ones against a uniformly random
opponent, and follows the policy gradient of the final result (+1, 0, -1) with a running-mean
baseline. The features are the observation planes seen from the side to move (the mover's
marbles first), so one linear policy serves both colours. It prints the score against random
moves (win 1, draw 1/2) before and after training. `python/tests/test_openspiel.py` runs a few
steps of it.
"""

import sys
import time

import numpy as np
import pyspiel

import mabula.openspiel  # noqa: F401  (registers the game)
from mabula.openspiel import SHAPE
from open_spiel.python import rl_environment

NUM_ACTIONS = 145


def features(info_state):
    """The observation planes turned to the side to move, flattened, with a constant 1."""
    planes = np.asarray(info_state, dtype=np.float32).reshape(SHAPE)
    if planes[3, 0, 0] == 1:  # Black to move: Black's planes first.
        planes = planes[[1, 0, 3, 2, 4, 6, 5, 7]]
    return np.append(planes[[0, 1, 4, 5, 6]].ravel(), 1.0)


class Reinforce:
    """A linear softmax policy over the legal actions, trained by REINFORCE."""

    def __init__(self, num_features, num_actions=NUM_ACTIONS, learning_rate=0.01, seed=0):
        del num_features  # The features are those of `features`.
        rng = np.random.RandomState(seed)
        self.weights = rng.normal(0, 0.01, (5 * 64 + 1, num_actions)).astype(np.float64)
        self.learning_rate = learning_rate
        self.baseline = 0.0

    def probabilities(self, x, legal):
        logits = x @ self.weights[:, legal]
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, info_state, legal, rng, greedy=False):
        x = features(info_state)
        p = self.probabilities(x, legal)
        i = int(np.argmax(p)) if greedy else int(rng.choice(len(legal), p=p))
        return legal[i], (x, list(legal), i)

    def update(self, trajectory, returns):
        """One gradient step for every move of the learner's in one episode."""
        for player, (x, legal, i) in trajectory:
            g = returns[player] - self.baseline
            grad = -self.probabilities(x, legal)
            grad[i] += 1.0
            self.weights[:, legal] += self.learning_rate * g * np.outer(x, grad)
        learner_returns = [returns[p] for p, _ in trajectory[:1]]
        if learner_returns:
            self.baseline += 0.05 * (learner_returns[0] - self.baseline)


def play_episode(env, learner, rng, learner_player=0, greedy=False):
    """One game, the learner as `learner_player` against random moves: (trajectory, returns)."""
    time_step = env.reset()
    trajectory = []
    while not time_step.last():
        player = time_step.observations["current_player"]
        legal = time_step.observations["legal_actions"][player]
        if player == learner_player:
            info = time_step.observations["info_state"][player]
            action, step = learner.act(info, legal, rng, greedy)
            trajectory.append((player, step))
        else:
            action = int(rng.choice(legal))
        time_step = env.step([action])
    return trajectory, time_step.rewards


def score_against_random(env, learner, games, rng):
    """The learner's score (win 1, draw 1/2) per game against random moves, half as each colour."""
    total = 0.0
    for n in range(games):
        _, returns = play_episode(env, learner, rng, learner_player=n % 2, greedy=True)
        total += (returns[n % 2] + 1) / 2
    return total / games


def main(seconds=60.0, scoring="largest"):
    env = rl_environment.Environment(pyspiel.load_game("mabula", {"scoring": scoring}))
    rng = np.random.RandomState(0)
    learner = Reinforce(env.observation_spec()["info_state"][0], seed=1)
    print(f"before: {score_against_random(env, learner, 200, rng):.3f} against random moves")
    started = time.monotonic()
    episodes = 0
    while time.monotonic() - started < seconds:
        trajectory, returns = play_episode(env, learner, rng, learner_player=episodes % 2)
        learner.update(trajectory, returns)
        episodes += 1
    print(f"trained on {episodes} games in {time.monotonic() - started:.0f} s")
    print(f"after: {score_against_random(env, learner, 200, rng):.3f} against random moves")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 60.0, *sys.argv[2:3])
