"""An exhibition server on a real port, its table journalled to a real SQLite file (for the
browser tests)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from faro_box.display.pin import hash_pin
from faro_box.display.web import create_app, serve
from faro_box.exhibit.show import Show
from faro_box.exhibit.visitors import VisitorBook
from faro_box.exhibit.web import mount_exhibit
from faro_box.table.journal import Journal
from faro_box.table.table import Table


@contextmanager
def exhibit_server(folder: Path, **show: Any) -> Iterator[tuple[Table, Show, Any]]:
    """(table, show, server); ``show``: the Show's settings (hold_s and panel_s are 0 unless given)."""
    with Journal(folder / "exhibit.sqlite") as journal:
        table = Table(journal)
        book = VisitorBook()
        book.attach(table)
        screen = Show(visitors=book, **({"hold_s": 0, "panel_s": 0} | show))
        table.subscribe(screen.on_event)
        app = create_app(table, pin_hash=hash_pin("2468", n=2**10))
        mount_exhibit(app, screen, book)
        server = serve(app, port=0, background=True)
        assert server is not None
        try:
            yield table, screen, server
        finally:
            server.stop()
