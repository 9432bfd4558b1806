"""hardware/: the drawings are valid SVG, and the documented LED bytes are what the code sends."""

from __future__ import annotations

import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from faro_box.cards import Card
from faro_box.config import parse_config
from faro_box.devices.led_case_keeper import DEFAULT_PINS, rod_byte
from faro_box.rules.faro.beads import case_keeper

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
SVG = "{http://www.w3.org/2000/svg}svg"


@pytest.mark.parametrize("name", ["led-wiring.svg", "servo-wiring.svg", "rod.svg"])
def test_drawings_are_svg_documents_linked_from_the_readme(name):
    root = ET.parse(HARDWARE / name).getroot()
    assert root.tag == SVG and root.find("{http://www.w3.org/2000/svg}title") is not None
    assert f"({name})" in (HARDWARE / "README.md").read_text(encoding="utf-8")


def test_the_readme_led_table_matches_the_driver():
    table = (HARDWARE / "README.md").read_text(encoding="utf-8")
    documented = dict(re.findall(r"^\| ([^|]+?) \| [^|]+ \| `(0x[0-9A-F]{2})` \|$", table, re.M))

    soda = case_keeper([Card.parse("5S")])
    winner = case_keeper([Card.parse("2S"), Card.parse("3S"), Card.parse("5S")])
    mixed = case_keeper([Card.parse("5S"), Card.parse("3S"), Card.parse("5H"), Card.parse("5D")])
    four = case_keeper([Card.parse(t) for t in ("5S", "5H", "5D", "5C")])
    rank = soda.rods[4].rank
    assert documented == {"soda": "0x01", "winner": "0x02", "soda, winner, loser (one left)": "0x8D",
                          "four cards": "0x0F"}
    assert f"0x{rod_byte(soda.rod(rank)):02X}" == documented["soda"]
    assert f"0x{rod_byte(winner.rod(rank)):02X}" == documented["winner"]
    assert f"0x{rod_byte(mixed.rod(rank)):02X}" == documented["soda, winner, loser (one left)"]
    assert f"0x{rod_byte(four.rod(rank)):02X}" == documented["four cards"]


def test_the_readme_configuration_examples_are_the_configuration_file_s_toml():
    text = (HARDWARE / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, re.S)
    # Each block with the least else a file needs (no web page, so no PIN).
    settings = [parse_config(tomllib.loads(block + "[display]\nweb = false\n")).case_keeper.device_settings()
                for block in blocks]
    assert settings == [{"kind": "led", **DEFAULT_PINS}, {"kind": "servo", "port": "/dev/ttyACM0"}]
    assert "```json" not in text.split("## LED mapping")[0]
