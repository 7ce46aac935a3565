"""Mabula, the game of marbles pushed in from the edge: rules, records, deals and the engine.

The work is done by the project's Rust crates (the rules library ``mabula`` and the engine
``mabula-engine``) through the native module ``mabula._mabula``; this package re-exports it.

>>> import mabula
>>> pos = mabula.Position("1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w")
>>> str(pos.play("b1-b4"))
'1wbwbww1/b6b/b6w/w6b/bw5w/w6b/b6w/2bwbwb1 b'
>>> pos.scores("largest")
(0, 0)

Moves are written in notation (``"b1-b4"``, ``"pass"``) or, for game frameworks, as action
numbers (``move_to_action``, 144 a pass). The engine calls (``choose_move``, ``analyze``,
``analyze_stream``, ``solve``) run without the GIL and stop on Ctrl-C. ``import mabula.openspiel`` registers the game with
OpenSpiel. ``AnalysisClient`` talks to ``mabula analysis-server`` (many positions, one process).
"""

from . import analysis_client
from .analysis_client import AnalysisClient, AnalysisError

from ._mabula import (
    DEAL_COUNT,
    __version__,
    MAX_LEVEL,
    NUM_ACTIONS,
    PASS_ACTION,
    AnalysisReport,
    AnalysisStream,
    Game,
    IllegalMoveError,
    MoveAnalysis,
    Position,
    Solution,
    action_to_move,
    all_deals,
    analyze,
    analyze_stream,
    check_deal,
    choose_move,
    deal,
    move_to_action,
    parse_records,
    solve,
)

__all__ = [
    "__version__",
    "AnalysisClient",
    "AnalysisError",
    "DEAL_COUNT",
    "MAX_LEVEL",
    "NUM_ACTIONS",
    "PASS_ACTION",
    "AnalysisReport",
    "AnalysisStream",
    "Game",
    "IllegalMoveError",
    "MoveAnalysis",
    "Position",
    "Solution",
    "action_to_move",
    "all_deals",
    "analyze",
    "analyze_stream",
    "check_deal",
    "choose_move",
    "deal",
    "move_to_action",
    "parse_records",
    "solve",
]
