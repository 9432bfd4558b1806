"""Find mode's second search at the larger size: photos whose card the small copy cannot take."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from faro_box.cards import Rank
from faro_box.commands.vision import load_image
from faro_box.vision import locate
from faro_box.vision.reader import Reader

pytestmark = pytest.mark.shared_data


# The ten of diamonds on a drum pad needed the larger search until the paper mask's colours
# were balanced, and the king (a court, little of its face plain paper) until a card's plain
# margin counted for it; the small copy finds both now, and they must still be read.
@pytest.mark.parametrize(("name", "rank", "searched"), [("IMG_2456.JPG", Rank.TEN, [160]),
                                                        ("IMG_2697.JPG", Rank.KING, [160]),
                                                        ("IMG_2462.JPG", Rank.TEN, [160, 256])])
def test_a_card_only_the_larger_search_finds_is_still_read(
        shared_data: Path, monkeypatch: pytest.MonkeyPatch, name: str, rank: Rank, searched: list[int]) -> None:
    widths: list[int] = []
    search = locate._search

    def watched(small: np.ndarray, **kwargs: bool) -> tuple[np.ndarray | None, bool]:
        widths.append(small.shape[1])
        return search(small, **kwargs)

    monkeypatch.setattr(locate, "_search", watched)
    reading = Reader().read(load_image(shared_data / "tabletop-ranks" / "images" / "train" / name))
    assert widths == searched  # [160, 256]: the small copy found nothing; the larger one found the card
    assert reading.rank == rank
