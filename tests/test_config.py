import pytest

from faro_box.config import load_config, parse_config
from faro_box.display.pin import check_pin, hash_pin
from faro_box.errors import ConfigError

PIN_HASH = hash_pin("2468", n=2**4)

GOOD = f"""
journal = "/var/lib/faro-box/journal.sqlite"
profile = "french"
players = ["ann", "bob", "cy"]
pin_hash = "{PIN_HASH}"

[house_rules]
turn_pays = 5

[camera]
source = "picamera2"
window = [[210, 95], [390, 97], [388, 346], [208, 344]]
fps = 20

[case_keeper]
kind = "led"
pins = {{ data = 17, clock = 27, latch = 22 }}
geometry = {{ rod_length = 150, bead = 12, gap = 8 }}

[buttons]
enabled = true
undo = 5

[display]
port = 8080
language = "fr"
terminal = true
lcd = {{ enabled = true, address = 0x3f }}
"""


def test_a_full_configuration_is_read_into_frozen_values(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(GOOD)
    config = load_config(path)
    assert config.profile == "french" and config.players == ("ann", "bob", "cy")
    assert config.house_rules == {"turn_pays": 5}
    assert config.camera.window[0] == (210.0, 95.0) and config.camera.fps == 20
    assert config.case_keeper.device_settings() == {"kind": "led", "data": 17, "clock": 27, "latch": 22}
    assert config.case_keeper.geometry == {"rod_length": 150, "bead": 12, "gap": 8}
    assert config.buttons.enabled and config.buttons.undo == 5 and config.buttons.confirm == 6
    assert config.display.host == "127.0.0.1"  # the pages stay on the box unless opened
    assert config.display.lcd.address == 0x3F
    assert check_pin("2468", config.pin_hash)
    with pytest.raises(AttributeError):
        config.profile = "stuss"


def test_defaults_need_only_a_pin():
    config = parse_config({"pin_hash": PIN_HASH})
    assert config.case_keeper.kind == "screen" and config.display.port == 8000
    assert config.display.host == "127.0.0.1"


@pytest.mark.parametrize("doc, message", [
    ({"camera": {"fps": "fast"}}, "camera.fps: expected a positive whole number, got 'fast'"),
    ({"camera": {"fps": 0}}, "camera.fps: expected a positive whole number, got 0"),
    ({"camera": {"fsp": 20}}, "camera.fsp: unknown key"),
    ({"camara": {}}, "camara: unknown key"),
    ({"camera": {"window": [[1, 2], [3, 4]]}}, "camera.window: expected 4 corners"),
    ({"camera": {"min_confidence": 2}}, "camera.min_confidence: expected a number from 0 to 1, got 2"),
    ({"display": {"port": 99999}}, "display.port: expected a TCP port 1..65535, got 99999"),
    ({"display": {"language": "de"}}, "display.language: expected one of 'en', 'ru', 'fr', got 'de'"),
    ({"display": {"lcd": {"adress": 39}}}, "display.lcd.adress: unknown key"),
    ({"display": {"web": "yes"}}, "display.web: expected true or false, got 'yes'"),
    ({"case_keeper": {"kind": "abacus"}}, "case_keeper.kind: expected one of"),
    ({"case_keeper": {"kind": "led", "pins": {"dta": 4}}}, "case_keeper.pins.dta: unknown key"),
    ({"case_keeper": {"kind": "led", "pins": {"data": 99}}}, "case_keeper.pins.data: expected a GPIO pin"),
    ({"case_keeper": {"kind": "servo"}}, "case_keeper.port: the servo case-keeper needs its serial port"),
    ({"case_keeper": {"geometry": {"bead": -1}}}, "case_keeper.geometry.bead: expected a length"),
    ({"case_keeper": {"geometry": {"rod_length": 30}}}, "case_keeper.geometry: bead geometry rod_length=30"),
    ({"buttons": {"stuck_after": -2}}, "buttons.stuck_after: expected a number of seconds"),
    ({"players": ["ann", "ann"]}, "players: the player 'ann' is listed twice"),
    ({"players": ["x" * 41]}, "players: a player's name must be at most 40 characters"),
    ({"players": "ann"}, "players: expected a list"),
    ({"profile": "poker"}, "profile: unknown profile 'poker'"),
    ({"house_rules": {"turn_pays": "x"}}, "house_rules: house rule 'turn_pays'"),
    ({"journal": ""}, "journal: expected non-empty text, got ''"),
    # Upper bounds: each of these was accepted before.
    ({"camera": {"fps": 10**18}}, "camera.fps: expected at most 1000000 frames per second, got 1000000000000000000"),
    ({"camera": {"fps": 121}}, "camera.fps: expected at most 120 frames per second from a camera ('picamera2'), "
                               "got 121"),
    ({"camera": {"source": "/dev/video0", "fps": 1000}}, "camera.fps: expected at most 120 frames per second"),
    ({"camera": {"width": 10**9}}, "camera.width: expected at most 8192 pixels, got 1000000000"),
    ({"camera": {"height": 8193}}, "camera.height: expected at most 8192 pixels, got 8193"),
    ({"camera": {"window": [[0, 0], [1e300, 0], [1, 1], [0, 1]]}}, "camera.window: expected 4 corners"),
    ({"case_keeper": {"kind": "servo", "port": "/dev/ttyACM0", "baudrate": 10**12}},
     "case_keeper.baudrate: expected at most 4000000 baud, got 1000000000000"),
    ({"case_keeper": {"geometry": {"rod_length": 1e300}}}, "case_keeper.geometry.rod_length: expected a length in mm"
                                                          " from 0 to 1000, got 1e+300"),
    ({"buttons": {"bounce_time": 1e18}}, "buttons.bounce_time: expected at most 1 seconds, got 1e+18"),
    ({"buttons": {"stuck_after": 1e18}}, "buttons.stuck_after: expected at most 3600 seconds, got 1e+18"),
    ({"display": {"lcd": {"address": 10**18}}}, "display.lcd.address: expected an I2C address 0x03..0x77"),
    ({"display": {"lcd": {"address": 0}}}, "display.lcd.address: expected an I2C address 0x03..0x77, got 0"),
    ({"display": {"lcd": {"bus": 10**18}}}, "display.lcd.bus: expected at most 255"),
])
def test_bad_keys_and_values_are_refused_naming_the_key(doc, message):
    with pytest.raises(ConfigError) as caught:
        parse_config({"pin_hash": PIN_HASH, **doc})
    assert message in str(caught.value)


def test_the_largest_sane_values_are_still_taken():
    config = parse_config({"pin_hash": PIN_HASH, "camera": {"fps": 120, "width": 8192, "height": 8192},
                           "buttons": {"bounce_time": 1, "stuck_after": 3600},
                           "display": {"lcd": {"address": 0x77, "bus": 255}}})
    assert config.camera.fps == 120 and config.camera.width == 8192 and config.display.lcd.address == 0x77
    # A simulated camera is only paced: the tests run it far faster than any sensor.
    assert parse_config({"pin_hash": PIN_HASH, "camera": {"source": "sim:3", "fps": 100_000}}).camera.fps == 100_000


def test_a_pin_in_clear_is_refused_without_echoing_it():
    with pytest.raises(ConfigError) as caught:
        parse_config({"pin_hash": "5731"})
    assert "pin_hash" in str(caught.value) and "5731" not in str(caught.value)


def test_the_web_display_needs_a_pin():
    with pytest.raises(ConfigError, match="pin_hash: the dealer page needs a PIN"):
        parse_config({})
    assert parse_config({"display": {"web": False}}).pin_hash is None


def test_file_errors_name_the_file(tmp_path):
    with pytest.raises(ConfigError, match="cannot read the configuration"):
        load_config(tmp_path / "absent.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[camera\nfps = 3\n")
    with pytest.raises(ConfigError, match="bad.toml.*not valid TOML"):
        load_config(bad)
    typo = tmp_path / "typo.toml"
    typo.write_text(f'pin_hash = "{PIN_HASH}"\n[camera]\nfps = "fast"\n')
    with pytest.raises(ConfigError, match=r"typo.toml'?: camera.fps: expected a positive whole number, got 'fast'"):
        load_config(typo)
