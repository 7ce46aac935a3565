"""Mabula as an OpenSpiel game: ``import mabula.openspiel`` registers the game ``mabula``.

>>> import pyspiel, mabula.openspiel
>>> game = pyspiel.load_game("mabula", {"seed": 7, "scoring": "product"})
>>> state = game.new_initial_state()
>>> str(state) == str(mabula.deal(7))
True

Parameters:

- ``scoring``: ``"largest"`` (the default) or ``"product"``.
- ``seed``: a deal number, or -1 (the default) to make the deal a chance node with the 40,158
  valid deals as equally likely outcomes. Deal seeds are 64-bit (0 to 2**64-1); OpenSpiel's
  integer parameters are 32-bit, so this module wraps ``pyspiel.load_game`` to carry a larger
  ``seed`` as the string parameter ``seed64`` (hexadecimal, so that the game's name reads back).
  ``seed64`` may also be given directly, in decimal or ``0x`` hexadecimal.
- ``first``: who moves first in a deal, ``"white"`` (the default) or ``"black"``.
- ``setup``: a position string (RULES.md section 6) to start from instead of a deal; its side to
  move moves first (``first`` is not used, and a ``seed`` is refused).

White is always player 0 and Black player 1, whoever moves first. An action is a move's number
(``mabula.move_to_action``: 0 to 143 for pushes, 144 for a pass); ``str(state)`` is the RULES.md
position string (before the deal of a chance game, ``"(deal)"``). The returns are 1 for the
winner, -1 for the loser, 0 each for a draw.

Observations (the same for both players: the game has perfect information):

- ``observation_string``: the position string (``"(deal)"`` before a chance deal).
- ``observation_tensor``: ``PLANES`` planes of 8 x 8 (512 numbers, float32), indexed
  ``[plane, rank - 1, file]`` (``b4`` is ``[p, 3, 1]``):

  0. White's marbles (1 where a white marble is);
  1. Black's marbles;
  2. all ones when White is to move;
  3. all ones when Black is to move (planes 2 and 3 are both zero before a chance deal);
  4. all ones when the scoring is ``product``, zeros for ``largest``;
  5. White's marbles still on the edge, as a fraction of 12, in every cell;
  6. Black's marbles still on the edge, as a fraction of 12, in every cell;
  7. the 24 edge spaces (a constant mask: 1 on the edge, 0 on the field and the corners).

- ``information_state_string``: the history, ``state.history_str()`` (the actions so far, as in
  OpenSpiel's perfect-information games); the deal is the first action of a chance game.
- ``information_state_tensor``: the observation tensor. The position and the scoring mode decide
  everything that can still happen (the legal moves, the end, the score), so a history and the
  position it reaches are worth the same.

``undo_action(player, action)`` takes back the last action. OpenSpiel's C++ core keeps a history
of its own that a Python game cannot shorten; this state answers ``history()``,
``history_str()``, ``full_history()`` and ``move_number()`` from its own record, which an undo
does shorten.
"""

import numpy as np
import pyspiel

import mabula

# The observation tensor's shape: planes, ranks, files.
PLANES = 8
SHAPE = (PLANES, 8, 8)

_DEALS = {}


def _deals(first):
    """All valid deals with `first` to move, computed once."""
    if first not in _DEALS:
        _DEALS[first] = mabula.all_deals(first)
    return _DEALS[first]


def _edge_mask():
    mask = np.zeros((8, 8), np.float32)
    for i in range(1, 7):
        mask[0, i] = mask[7, i] = mask[i, 0] = mask[i, 7] = 1.0
    return mask


_EDGE = _edge_mask()

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
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "scoring": "largest",
        "seed": -1,
        "seed64": "",
        "first": "white",
        "setup": "",
    },
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

_INT32_MAX = 2**31 - 1
_SEED_MAX = 2**64 - 1


class MabulaGame(pyspiel.Game):
    """The game: its scoring mode and where it starts (a deal, a chance deal or a setup)."""

    def __init__(self, params=None):
        params = dict(params or {})
        super().__init__(_GAME_TYPE, _GAME_INFO, params)
        self.scoring = str(params.get("scoring", "largest"))
        if self.scoring not in ("largest", "product"):
            raise ValueError(f"scoring '{self.scoring}': use largest or product")
        self.first = str(params.get("first", "white"))
        if self.first not in ("white", "black"):
            raise ValueError(f"first '{self.first}': use white or black")
        seed = int(params.get("seed", -1))
        seed64 = str(params.get("seed64", ""))
        if seed64:
            if seed != -1:
                raise ValueError("give seed or seed64, not both")
            try:
                seed = int(seed64, 0)
            except ValueError:
                raise ValueError(f"seed64 '{seed64}' is not a number") from None
        if not -1 <= seed <= _SEED_MAX:
            raise ValueError(f"seed {seed}: use 0 to 2**64-1, or -1 for a chance deal")
        self.seed = seed
        setup = str(params.get("setup", ""))
        self.setup = mabula.Position(setup) if setup else None
        if self.setup is not None and self.seed != -1:
            raise ValueError("give a setup or a seed, not both")

    def new_initial_state(self):
        """The setup, the deal of the seed, or a chance node that deals."""
        if self.setup is not None:
            start = self.setup
        elif self.seed >= 0:
            start = mabula.deal(self.seed, self.first)
        else:
            start = None
        return MabulaState(self, start)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The board observer; with perfect recall, the history as the string."""
        if params:
            raise ValueError(f"the mabula observer takes no parameters: {params}")
        history = iig_obs_type is not None and iig_obs_type.perfect_recall
        return MabulaObserver(history)


class MabulaObserver:
    """Fills the planes described in the module's docstring (OpenSpiel's PyObserver shape)."""

    def __init__(self, history=False):
        self._history = history
        self.tensor = np.zeros(PLANES * 64, np.float32)
        self.dict = {"observation": self.tensor.reshape(SHAPE)}

    def set_from(self, state, player):
        del player  # Perfect information: every player sees the same.
        fill_planes(self.dict["observation"], state.position(), state.get_game().scoring)

    def string_from(self, state, player):
        del player
        if self._history:
            return state.history_str()
        return str(state)


def fill_planes(planes, position, scoring):
    """Writes the observation planes of `position` (None: before the deal) into `planes`."""
    planes.fill(0.0)
    planes[7] = _EDGE
    planes[4] = 1.0 if scoring == "product" else 0.0
    if position is None:
        return planes
    board, side = str(position).split(" ")
    for row, rank_text in enumerate(board.split("/")):
        rank = 7 - row
        file = 0
        for c in rank_text:
            if c.isdigit():
                file += int(c)
                continue
            planes[0 if c == "w" else 1, rank, file] = 1.0
            file += 1
    planes[2 if side == "w" else 3] = 1.0
    planes[5] = position.on_edge("white") / 12.0
    planes[6] = position.on_edge("black") / 12.0
    return planes


def observation_planes(position, scoring="largest"):
    """The observation tensor of a mabula.Position, shaped ``SHAPE`` (see the docstring)."""
    return fill_planes(np.zeros(SHAPE, np.float32), position, scoring)


class MabulaState(pyspiel.State):
    """A state: the position (None before a chance deal) and the actions that led to it."""

    def __init__(self, game, position):
        super().__init__(game)
        self._scoring = game.scoring
        self._first = game.first
        self._position = position
        # (action, position before it) for every action, so that an undo restores exactly.
        self._done = []

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
        before = self._position
        if before is None:
            self._position = _deals(self._first)[action]
        else:
            self._position = before.play_action(action)
        self._done.append((int(action), before))

    def undo_action(self, player, action):
        """Takes back the last action (which must be `action`, played by `player`)."""
        if not self._done:
            raise ValueError("there is no action to undo")
        last, before = self._done[-1]
        if last != action:
            raise ValueError(f"the last action is {last}, not {action}")
        expected = pyspiel.PlayerId.CHANCE if before is None else (
            0 if before.side_to_move == "white" else 1
        )
        if player != expected:
            raise ValueError(f"action {action} was played by player {expected}, not {player}")
        self._done.pop()
        self._position = before

    def history(self):
        return [a for a, _ in self._done]

    def full_history(self):
        out = []
        for action, before in self._done:
            player = pyspiel.PlayerId.CHANCE if before is None else (
                0 if before.side_to_move == "white" else 1
            )
            out.append(pyspiel.PlayerAction(player, action))
        return out

    def history_str(self):
        return ", ".join(str(a) for a in self.history())

    def move_number(self):
        return len(self._done)

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


def _mabula_params(name, params):
    """Moves a seed beyond OpenSpiel's 32-bit integers into the string parameter seed64."""
    if not isinstance(name, str) or params is None:
        return params
    if name != "mabula":
        return params
    seed = params.get("seed")
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        seed = int(seed)
        if seed > _INT32_MAX:
            if seed > _SEED_MAX:
                raise ValueError(f"seed {seed}: use 0 to 2**64-1, or -1 for a chance deal")
            params = dict(params)
            del params["seed"]
            params["seed64"] = hex(seed)
    return params


_LOAD_GAME = pyspiel.load_game


def load_game(name, params=None):
    """``pyspiel.load_game``, carrying a 64-bit ``seed`` of the ``mabula`` game (see above)."""
    if params is None:
        return _LOAD_GAME(name)
    return _LOAD_GAME(name, _mabula_params(name, params))


if getattr(pyspiel.load_game, "__module__", None) != __name__:
    load_game.__doc__ = (load_game.__doc__ or "") + "\n\n" + (_LOAD_GAME.__doc__ or "")
    pyspiel.load_game = load_game
