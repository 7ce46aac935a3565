"""Type stubs of the native module ``mabula._mabula``."""

from types import TracebackType
from typing import Callable, Dict, Iterator, List, Optional, Tuple, Type

__version__: str
PASS_ACTION: int
NUM_ACTIONS: int
DEAL_COUNT: int
MAX_LEVEL: int

class IllegalMoveError(ValueError):
    """A move that is not legal in the position (its message says why)."""

class Position:
    """A position: the board and the side to move. Immutable."""

    def __init__(self, text: str) -> None:
        """Reads a position string; raises ValueError saying what is wrong."""
    @staticmethod
    def deal(seed: int, first: str = "white") -> "Position":
        """The deal of ``seed``, with ``first`` to move."""
    @property
    def side_to_move(self) -> str:
        """``"white"`` or ``"black"``."""
    def legal_moves(self) -> List[str]:
        """The legal moves in notation, sorted (``["pass"]`` when passing is forced)."""
    def legal_actions(self) -> List[int]:
        """The legal moves as action numbers, ascending (144 is a pass)."""
    def is_legal(self, move: str) -> bool:
        """Whether ``move`` is legal here."""
    def play(self, move: str) -> "Position":
        """The position after ``move``; raises IllegalMoveError with the reason."""
    def play_action(self, action: int) -> "Position":
        """The position after an action number."""
    def is_game_over(self) -> bool:
        """Whether neither side can move."""
    def must_pass(self) -> bool:
        """Whether the side to move can only pass."""
    def scores(self, scoring: str = "largest") -> Tuple[int, int]:
        """``(white, black)`` scores of the field now."""
    def result(self, scoring: str = "largest") -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` once the game is over, else ``"*"``."""
    def on_edge(self, color: str) -> int:
        """Marbles of ``color`` still on edge spaces."""
    def piece_at(self, square: str) -> Optional[str]:
        """``"white"``, ``"black"`` or None (empty) on ``square``; ValueError for a bad name."""
    def pieces(self, color: str) -> List[str]:
        """The squares of ``color``'s marbles, in square order (a1, b1, ..., h8)."""
    def groups(self, color: str) -> List[List[str]]:
        """``color``'s groups in the field, largest first, each as its squares."""
    def group_sizes(self, color: str) -> List[int]:
        """The sizes of ``color``'s groups, largest first."""
    def diagram(self) -> str:
        """The board drawn as text."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __reduce__(self) -> Tuple[type, Tuple[str]]: ...

class Game:
    """A game with its record (tags, moves, comments, result)."""

    def __init__(self, start: Position, scoring: str = "largest") -> None: ...
    @staticmethod
    def parse(text: str) -> "Game":
        """Reads one record; raises ValueError with the line and the reason."""
    @property
    def start(self) -> Position: ...
    @property
    def position(self) -> Position: ...
    @property
    def scoring(self) -> str: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def result(self) -> str: ...
    def positions(self) -> List[Position]:
        """Every position of the game, the start first."""
    def play(self, move: str) -> None:
        """Plays a move; raises IllegalMoveError and changes nothing if it is illegal."""
    def undo(self) -> Optional[str]:
        """Takes back the last move and answers it."""
    def declare(self, result: str) -> None:
        """Ends an unfinished game with a result."""
    def tag(self, name: str) -> Optional[str]:
        """A tag's value (Setup, Scoring and Result too); None when there is none."""
    def tags(self) -> Dict[str, str]:
        """Every tag as the record writes them, in order (Setup, Scoring, Result last)."""
    def set_tag(self, name: str, value: str) -> None:
        """Sets a tag; ValueError for a bad name, a line break, or Setup, Scoring, Result."""
    def comment(self, index: int) -> Optional[str]: ...
    def set_comment(self, index: int, text: str) -> None:
        """Sets the comment after move ``index``; IndexError past the last move."""
    def __eq__(self, other: object) -> bool: ...
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: object) -> "Game": ...
    def __reduce__(self) -> Tuple[Callable[[str], "Game"], Tuple[str]]: ...

class MoveAnalysis:
    """What the engine thinks of one move."""

    move: str
    value: str
    exact: bool
    result: Optional[int]
    margin: Optional[int]
    expected: float
    visits: int
    pv: List[str]

class AnalysisReport:
    """One step of an analysis."""

    moves: List[MoveAnalysis]
    white: float
    playouts: int
    elapsed_ms: int
    step: int
    done: bool

class AnalysisStream:
    """An analysis running on its own thread: an iterator of its reports, the last ``done``."""

    def __iter__(self) -> Iterator[AnalysisReport]: ...
    def __next__(self) -> AnalysisReport: ...
    def close(self) -> None:
        """Stops the search; the iteration then ends."""
    def __enter__(self) -> "AnalysisStream": ...
    def __exit__(
        self,
        kind: Optional[Type[BaseException]],
        value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> bool: ...

class Solution:
    """The exact solution of a position."""

    result: int
    margin: Optional[int]
    best: Optional[str]
    pv: List[str]
    nodes: int

def parse_records(text: str) -> List[Game]:
    """Every record of a text holding one or more."""

def deal(seed: int, first: str = "white") -> Position:
    """The deal of ``seed``, with ``first`` to move."""

def all_deals(first: str = "white") -> List[Position]:
    """All 40,158 valid deals, in a fixed order."""

def check_deal(position: Position) -> Optional[str]:
    """None for a valid opening deal, else what is wrong."""

def move_to_action(move: str) -> int: ...
def action_to_move(action: int) -> str: ...
def choose_move(
    position: Position,
    scoring: str = "largest",
    level: int = 10,
    movetime_ms: Optional[int] = None,
    seed: int = 0,
) -> str:
    """The engine's move for the side to move (without the GIL; Ctrl-C stops it)."""

def analyze(
    position: Position,
    scoring: str = "largest",
    time_ms: Optional[int] = 1000,
    threads: int = 1,
    lines: Optional[int] = None,
    seed: int = 0,
    callback: Optional[Callable[[AnalysisReport], object]] = None,
) -> List[MoveAnalysis]:
    """The best moves, best first, with values, visits and lines; ``callback`` sees each step."""

def analyze_stream(
    position: Position,
    scoring: str = "largest",
    time_ms: Optional[int] = None,
    threads: int = 1,
    lines: Optional[int] = None,
    seed: int = 0,
) -> AnalysisStream:
    """The analysis as an iterator of reports (None: until every value is exact, or stopped)."""

def solve(
    position: Position,
    scoring: str = "largest",
    margin: bool = False,
    time_ms: Optional[int] = None,
    threads: int = 1,
    table_mb: int = 64,
) -> Optional[Solution]:
    """The exact result (and margin), a best move and the line; None when time ran out.
    Ctrl-C stops it (KeyboardInterrupt)."""
