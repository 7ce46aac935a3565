"""Mabula as an OpenSpiel game: ``import mabula.openspiel`` registers the game ``mabula``.

>>> import pyspiel, mabula.openspiel
>>> game = pyspiel.load_game("mabula", {"seed": 7, "scoring": "product"})
>>> state = game.new_initial_state()
>>> str(state) == str(mabula.deal(7))
True

Parameters: ``scoring`` (``"largest"``, the default, or ``"product"``) and ``seed``: a deal
number, or -1 (the default) to make the deal a chance node with the 40,158 valid deals as equally
likely outcomes. White is player 0 and moves first. An action is a move's number
(``mabula.move_to_action``: 0 to 143 for pushes, 144 for a pass); ``str(state)`` is the RULES.md
position string (before the deal of a chance game, ``"(deal)"``). The returns are 1 for the
winner, -1 for the loser, 0 each for a draw.
"""

import pyspiel

import mabula

_DEALS = None


def _deals():
    """All valid deals with White to move, computed once."""
    global _DEALS
    if _DEALS is None:
        _DEALS = mabula.all_deals("white")
    return _DEALS


_GAME_TYPE = pyspiel.GameType(
    short_name="mabula",
    long_name="Mabula",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={"scoring": "largest", "seed": -1},
)

# 24 pushes at most, and a pass never follows a pass: 48 moves.
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=mabula.NUM_ACTIONS,
    max_chance_outcomes=mabula.DEAL_COUNT,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=48,
)


class MabulaGame(pyspiel.Game):
    """The game: its scoring mode and how the deal is made."""

    def __init__(self, params=None):
        params = params or {}
        super().__init__(_GAME_TYPE, _GAME_INFO, params)
        self.scoring = str(params.get("scoring", "largest"))
        if self.scoring not in ("largest", "product"):
            raise ValueError(f"scoring '{self.scoring}': use largest or product")
        self.seed = int(params.get("seed", -1))

    def new_initial_state(self):
        """The deal of the seed, or a chance node that deals."""
        start = mabula.deal(self.seed) if self.seed >= 0 else None
        return MabulaState(self, start)

    def make_py_observer(self, iig_obs_type=None, params=None):
        raise NotImplementedError("the mabula game has no observations yet")


class MabulaState(pyspiel.State):
    """A state: the position, or nothing yet before a chance deal."""

    def __init__(self, game, position):
        super().__init__(game)
        self._scoring = game.scoring
        self._position = position

    def current_player(self):
        if self._position is None:
            return pyspiel.PlayerId.CHANCE
        if self._position.is_game_over():
            return pyspiel.PlayerId.TERMINAL
        return 0 if self._position.side_to_move == "white" else 1

    def _legal_actions(self, player):
        return self._position.legal_actions()

    def chance_outcomes(self):
        p = 1.0 / mabula.DEAL_COUNT
        return [(i, p) for i in range(mabula.DEAL_COUNT)]

    def _apply_action(self, action):
        if self._position is None:
            self._position = _deals()[action]
        else:
            self._position = self._position.play_action(action)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return mabula.action_to_move(action)

    def is_terminal(self):
        return self._position is not None and self._position.is_game_over()

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        white, black = self._position.scores(self._scoring)
        if white == black:
            return [0.0, 0.0]
        return [1.0, -1.0] if white > black else [-1.0, 1.0]

    def position(self):
        """The mabula.Position (None before a chance deal)."""
        return self._position

    def __str__(self):
        return "(deal)" if self._position is None else str(self._position)


pyspiel.register_game(_GAME_TYPE, MabulaGame)
