"""``with`` for the devices that are not gpiozero's (gpiozero devices have it already)."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class ClosedByWith:
    """``with device: ...`` closes the device at the end; its close() may run any number of times."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
