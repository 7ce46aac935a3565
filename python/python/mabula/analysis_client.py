"""A client of ``mabula analysis-server`` (docs/analysis-server.md).

The service runs in a subprocess; queries are sent as JSON lines and their answers come back
by id, so several queries can be in flight at once::

    from mabula.analysis_client import AnalysisClient

    with AnalysisClient(threads=2) as client:
        q = client.query(position="1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w", time_ms=200)
        for line in q:              # interim lines (with interval_ms), then the final one
            print(line["moves"][0]["move"], line["final"])
        best = q.result()["moves"][0]

The module needs nothing but the standard library and a ``mabula`` binary: given as
``binary=``, else the ``MABULA_BIN`` environment variable, else ``mabula`` on the ``PATH``.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import shutil
import subprocess
import threading
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

__all__ = ["AnalysisClient", "AnalysisError", "Query", "find_binary"]

Id = Union[str, int]
_END = object()


class AnalysisError(Exception):
    """An error line of the service (``{"type": "error", ...}``), or the service's end."""

    def __init__(self, message: str, id: Optional[Id] = None) -> None:
        super().__init__(message)
        self.id = id


def find_binary(binary: Optional[str] = None) -> Optional[str]:
    """The ``mabula`` binary to run: ``binary``, ``$MABULA_BIN`` or ``mabula`` on the PATH."""
    for candidate in (binary, os.environ.get("MABULA_BIN")):
        if candidate:
            return candidate
    return shutil.which("mabula")


class Query:
    """A query in flight: iterate over its answer lines (dicts) until the final one."""

    def __init__(self, client: "AnalysisClient", id: Id) -> None:
        self.client = client
        self.id = id
        self._lines: "queue.Queue[Any]" = queue.Queue()
        self._last: Optional[Dict[str, Any]] = None
        self._done = False

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return self.lines()

    def lines(self, timeout: Optional[float] = None) -> Iterator[Dict[str, Any]]:
        """The answer lines as they come; ends after the final one. An error line raises
        :class:`AnalysisError`. ``timeout`` bounds the wait for each line (``queue.Empty``)."""
        while not self._done:
            item = self._lines.get(timeout=timeout)
            if item is _END:
                self._done = True
                raise AnalysisError("the service ended before the query's final line", self.id)
            if item.get("type") == "error":
                self._done = True
                raise AnalysisError(item.get("error", "error"), self.id)
            self._last = item
            if item.get("final"):
                self._done = True
            yield item

    def result(self, timeout: Optional[float] = None) -> Dict[str, Any]:
        """Waits for the final line and returns it."""
        for _ in self.lines(timeout):
            pass
        if self._last is None:
            raise AnalysisError("no answer", self.id)
        return self._last

    def cancel(self) -> List[Id]:
        """Ends the query (its final line then says ``"terminated": true``)."""
        return self.client.terminate(self.id)


class AnalysisClient:
    """``mabula analysis-server`` in a subprocess.

    ``threads``: queries analysed at once; ``search_threads``: threads of each analysis.
    """

    def __init__(
        self,
        binary: Optional[str] = None,
        threads: Optional[int] = None,
        search_threads: Optional[int] = None,
        args: Sequence[str] = (),
    ) -> None:
        path = find_binary(binary)
        if path is None:
            raise FileNotFoundError(
                "no mabula binary: pass binary=, set MABULA_BIN, or put mabula on the PATH"
            )
        command = [path, "analysis-server"]
        if threads is not None:
            command += ["--threads", str(threads)]
        if search_threads is not None:
            command += ["--search-threads", str(search_threads)]
        command += list(args)
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self._lock = threading.Lock()
        self._waiting: Dict[str, "queue.Queue[Any]"] = {}
        self._numbers = itertools.count(1)
        #: Error lines that carried no id (the line could not be read as a message).
        self.errors: List[Dict[str, Any]] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # ---- sending ----

    def _next_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._numbers)}"

    def _send(self, message: Dict[str, Any], answers: "queue.Queue[Any]") -> None:
        key = json.dumps(message["id"])
        with self._lock:
            if self._process.stdin is None or self._process.stdin.closed:
                raise AnalysisError("the client is closed", message["id"])
            self._waiting[key] = answers
            self._process.stdin.write(json.dumps(message) + "\n")
            self._process.stdin.flush()

    def query(
        self,
        position: Optional[str] = None,
        *,
        id: Optional[Id] = None,
        record: Optional[str] = None,
        game: Optional[int] = None,
        start: Optional[str] = None,
        moves: Optional[Union[Sequence[str], str]] = None,
        turns: Optional[Union[Sequence[int], str]] = None,
        scoring: Optional[str] = None,
        time_ms: Optional[int] = None,
        playouts: Optional[int] = None,
        lines: Optional[int] = None,
        interval_ms: Optional[int] = None,
    ) -> Query:
        """Sends a query (docs/analysis-server.md names the fields) and returns it at once."""
        message: Dict[str, Any] = {"id": id if id is not None else self._next_id("q")}
        fields = {
            "position": position,
            "record": record,
            "game": game,
            "start": start,
            "moves": list(moves) if isinstance(moves, (list, tuple)) else moves,
            "turns": list(turns) if isinstance(turns, (list, tuple)) else turns,
            "scoring": scoring,
            "time_ms": time_ms,
            "playouts": playouts,
            "lines": lines,
            "interval_ms": interval_ms,
        }
        message.update({k: v for k, v in fields.items() if v is not None})
        q = Query(self, message["id"])
        self._send(message, q._lines)
        return q

    def _action(self, message: Dict[str, Any], timeout: Optional[float]) -> Dict[str, Any]:
        answers: "queue.Queue[Any]" = queue.Queue()
        self._send(message, answers)
        item = answers.get(timeout=timeout)
        if item is _END:
            raise AnalysisError("the service ended", message["id"])
        if item.get("type") == "error":
            raise AnalysisError(item.get("error", "error"), message["id"])
        return item

    def terminate(self, query_id: Id, timeout: Optional[float] = 30.0) -> List[Id]:
        """Ends the query ``query_id``; returns the ids told to stop (empty: not in flight)."""
        answer = self._action(
            {"id": self._next_id("t"), "action": "terminate", "terminate_id": query_id}, timeout
        )
        return list(answer.get("terminated", []))

    def terminate_all(self, timeout: Optional[float] = 30.0) -> List[Id]:
        """Ends every query in flight; returns their ids."""
        answer = self._action({"id": self._next_id("t"), "action": "terminate_all"}, timeout)
        return list(answer.get("terminated", []))

    def version(self, timeout: Optional[float] = 30.0) -> str:
        """The service's version."""
        answer = self._action({"id": self._next_id("v"), "action": "query_version"}, timeout)
        return str(answer["version"])

    # ---- receiving ----

    def _read(self) -> None:
        assert self._process.stdout is not None
        for text in self._process.stdout:
            try:
                line = json.loads(text)
            except ValueError:
                continue
            key = json.dumps(line.get("id"))
            with self._lock:
                target = self._waiting.get(key)
                last = (
                    line.get("type") in ("error", "terminated", "version")
                    or line.get("final") is True
                )
                if target is not None and last:
                    del self._waiting[key]
            if target is None:
                if line.get("type") == "error":
                    self.errors.append(line)
                continue
            target.put(line)
        with self._lock:
            waiting = list(self._waiting.values())
            self._waiting.clear()
        for target in waiting:
            target.put(_END)

    # ---- the end ----

    def close(self, timeout: Optional[float] = None) -> int:
        """Closes the service's stdin: it finishes the queries in flight and exits. Returns its
        exit status."""
        with self._lock:
            if self._process.stdin is not None and not self._process.stdin.closed:
                self._process.stdin.close()
        status = self._process.wait(timeout=timeout)
        self._reader.join(timeout=timeout)
        return status

    def kill(self) -> None:
        """Stops the service at once."""
        self._process.kill()
        self._process.wait()

    def __enter__(self) -> "AnalysisClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        if exc[0] is not None:
            self.kill()
        else:
            self.close()
