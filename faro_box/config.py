"""The box's configuration: one TOML file, read once at start, refused whole if anything is off.

Every key is known: an unknown key or a bad value raises ConfigError naming the key
(``camera.fps: expected a positive whole number, got 'fast'``), so a typo never silently falls
back to a default on a box nobody is watching. The result is frozen dataclasses.

    journal = "/var/lib/faro-box/journal.sqlite"
    game = "faro" | "baccarat_banque"
    profile = "foster"
    players = ["ann", "bob"]
    pin_hash = "scrypt$16384$8$1$..."        # faro-box pin
    [house_rules]      turn_pays = 4
    [camera]           source = "picamera2"; window = [[x, y], ...4]; width; height; fps;
                       deck_profile; min_confidence
    [case_keeper]      kind = "screen" | "fake" | "led" | "servo"; port; baudrate; pins = {...};
                       geometry = {rod_length, bead, gap}
    [buttons]          enabled; undo; confirm; new_deal; bounce_time; stuck_after
    [display]          web; host = "127.0.0.1"; port = 8000; terminal; language; speech; lcd = {...}
    [bank]             banker; fund; sides = {player = "right" | "left"}   (baccarat_banque only)
    [exhibit]          public_url = "http://192.168.1.20:8000/exhibit/visit"  (the visitors' QR code)
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from faro_box.display.pin import parse_pin_hash
from faro_box.errors import ConfigError, FaroBoxError
from faro_box.limits import MAX_CONFIG_CHARS, MAX_FUND, MAX_PLAYERS, read_limited
from faro_box.rules.baccarat import Bank, Side
from faro_box.rules.faro import house_profile
from faro_box.rules.faro.beads import BeadGeometry
from faro_box.table.baccarat.commands import StartBank
from faro_box.table.commands import StartDeal

CAMERA_SOURCES = ("picamera2", "synthetic")
GAMES = ("faro", "baccarat_banque")
BANK_SIDES = ("right", "left")
CASE_KEEPER_KINDS = ("screen", "fake", "led", "servo")
LANGUAGES = ("en", "ru", "fr")
LED_PINS = ("data", "clock", "latch", "enable")
GEOMETRY_KEYS = ("rod_length", "bead", "gap")
# Upper bounds: a number past these is a typo or an attack, never a setting, and left unbounded
# it reaches a device or a loop that cannot cope (a frame rate of 10**18 was once accepted).
MAX_FPS = 120                    # the fastest mode of the cameras the box drives
MAX_PACED_FPS = 1_000_000        # a simulation or a recording is only paced: tests run them fast
MAX_FRAME_SIDE = 8192            # pixels: wider than an 8K frame
MAX_BAUDRATE = 4_000_000         # the fastest rate pyserial names
MAX_BOUNCE_S = 1.0               # a longer debounce would swallow real presses
MAX_STUCK_S = 3600.0
MAX_LENGTH_MM = 1000.0           # a case-keeper rod, bead or gap longer than a metre is no case-keeper
I2C_ADDRESSES = (0x03, 0x77)     # the 7-bit I2C addresses a device may have
MAX_I2C_BUS = 255


# ----- value checks: each returns the value or raises ConfigError naming the key ---------------
def _fail(key: str, expected: str, value: object) -> ConfigError:
    return ConfigError(f"{key}: expected {expected}, got {value!r}")


def _positive_int(key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise _fail(key, "a positive whole number", value)
    return value


def _up_to(limit: int, unit: str) -> Callable[[str, object], int]:
    def check(key: str, value: object) -> int:
        number = _positive_int(key, value)
        if number > limit:
            raise _fail(key, f"at most {limit} {unit}", value)
        return number
    return check


def _seconds_up_to(limit: float) -> Callable[[str, object], float]:
    def check(key: str, value: object) -> float:
        seconds = _seconds(key, value)
        if seconds > limit:
            raise _fail(key, f"at most {limit:g} seconds", value)
        return seconds
    return check


def _i2c_address(key: str, value: object) -> int:
    low, high = I2C_ADDRESSES
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(key, f"an I2C address {low:#04x}..{high:#04x}", value)
    return value


def _port(key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 65535:
        raise _fail(key, "a TCP port 1..65535", value)
    return value


def _fraction(key: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise _fail(key, "a number from 0 to 1", value)
    return float(value)


def _seconds(key: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise _fail(key, "a number of seconds >= 0", value)
    return float(value)


def _bool(key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise _fail(key, "true or false", value)
    return value


def _text(key: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(key, "non-empty text", value)
    return value


def _choice(options: tuple[str, ...]) -> Callable[[str, object], str]:
    def check(key: str, value: object) -> str:
        if value not in options:
            raise _fail(key, "one of " + ", ".join(map(repr, options)), value)
        return str(value)
    return check


def _gpio(key: str, value: object) -> int | str:
    # gpiozero takes BCM numbers (17) or names ("GPIO17", "BOARD11").
    if isinstance(value, bool) or not (isinstance(value, int) and 0 <= value <= 53
                                       or isinstance(value, str) and value.strip()):
        raise _fail(key, "a GPIO pin number 0..53 or a name like 'GPIO17'", value)
    return value


def _camera_source(key: str, value: object) -> str:
    # picamera2, synthetic, a V4L2 device (/dev/video0), a device number ("0") or a video file.
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return str(value)
    return _text(key, value)


def _window(key: str, value: object) -> tuple[tuple[float, float], ...]:
    expected = "4 corners [[x, y], ...] clockwise from top-left, in pixels"
    if not isinstance(value, list) or len(value) != 4:
        raise _fail(key, expected, value)
    corners = []
    for corner in value:
        if not (isinstance(corner, list) and len(corner) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                and 0 <= v <= MAX_FRAME_SIDE for v in corner)):
            raise _fail(key, expected, value)
        corners.append((float(corner[0]), float(corner[1])))
    return tuple(corners)


def _players(key: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _fail(key, f"a list of up to {MAX_PLAYERS} names", value)
    try:
        return StartDeal("foster", tuple(value), {}).players
    except FaroBoxError as exc:
        raise ConfigError(f"{key}: {exc}") from None


def _pin_hash(key: str, value: object) -> str:
    if not isinstance(value, str) or not value.startswith("scrypt$"):
        # The value is a secret (or a PIN typed in by mistake): never echo it.
        raise ConfigError(f"{key}: expected a hash made by `faro-box pin` (scrypt$...), got something else")
    try:
        parse_pin_hash(value)
    except ConfigError as exc:
        raise ConfigError(f"{key}: {exc}") from None
    return value


def _networks(key: str, value: object) -> tuple[str, ...]:
    from faro_box.display.throttle import parse_networks

    if not isinstance(value, list) or len(value) > 64 or not all(isinstance(v, str) for v in value):
        raise _fail(key, "a list of addresses or ranges like ['192.168.1.0/24']", value)
    try:
        parse_networks(value)
    except ValueError as exc:
        raise ConfigError(f"{key}: {exc}") from None
    return tuple(value)


_HOST_NAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                        r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$")


def _host_names(key: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > 64 or not all(
            isinstance(v, str) and _HOST_NAME.match(v) for v in value):
        raise _fail(key, "a list of DNS names like ['faro.example.org']", value)
    return tuple(value)


def _bounded(low: float, high: float, what: str, *, whole: bool = False) -> Callable[[str, object], Any]:
    kinds = (int,) if whole else (int, float)

    def check(key: str, value: object) -> Any:
        if isinstance(value, bool) or not isinstance(value, kinds) or not low <= value <= high:
            raise _fail(key, f"{what} from {low:g} to {high:g}", value)
        return value
    return check


def _table_of(check: Callable[[str, object], Any], keys: tuple[str, ...] | None = None
              ) -> Callable[[str, object], dict[str, Any]]:
    def parse(key: str, value: object) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise _fail(key, "a table", value)
        out = {}
        for name, item in value.items():
            if keys is not None and name not in keys:
                raise ConfigError(f"{key}.{name}: unknown key (known: {', '.join(keys)})")
            out[name] = check(f"{key}.{name}", item)
        return out
    return parse


def _geometry_value(key: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= MAX_LENGTH_MM:
        raise _fail(key, f"a length in mm from 0 to {MAX_LENGTH_MM:g}", value)
    return value


def _house_rules(key: str, value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(key, "a table", value)
    try:
        house_profile("foster", value)
    except FaroBoxError as exc:
        raise ConfigError(f"{key}: {exc}") from None
    return dict(value)


# ----- the sections ------------------------------------------------------------------------
def _spec(check: Callable[[str, object], Any], default: Any = None, *, factory: Any = None) -> Any:
    if factory is not None:
        return field(default_factory=factory, metadata={"check": check})
    return field(default=default, metadata={"check": check})


@dataclass(frozen=True)
class CameraConfig:
    source: str = _spec(_camera_source, "picamera2")
    window: tuple[tuple[float, float], ...] | None = _spec(_window)
    width: int = _spec(_up_to(MAX_FRAME_SIDE, "pixels"), 1280)
    height: int = _spec(_up_to(MAX_FRAME_SIDE, "pixels"), 720)
    fps: int = _spec(_up_to(MAX_PACED_FPS, "frames per second"), 15)
    deck_profile: str | None = _spec(_text)
    min_confidence: float = _spec(_fraction, 0.0)


@dataclass(frozen=True)
class CaseKeeperConfig:
    kind: str = _spec(_choice(CASE_KEEPER_KINDS), "screen")
    port: str | None = _spec(_text)
    baudrate: int | None = _spec(_up_to(MAX_BAUDRATE, "baud"))
    pins: dict[str, int | str] = _spec(_table_of(_gpio, LED_PINS), factory=dict)
    geometry: dict[str, float] = _spec(_table_of(_geometry_value, GEOMETRY_KEYS), factory=dict)

    def device_settings(self) -> dict[str, Any]:
        """The settings faro_box.devices.case_keeper.open_case_keeper takes."""
        if self.kind == "led":
            return {"kind": "led", **self.pins}
        if self.kind == "servo":
            settings: dict[str, Any] = {"kind": "servo", "port": self.port}
            if self.baudrate is not None:
                settings["baudrate"] = self.baudrate
            return settings
        return {"kind": self.kind}


@dataclass(frozen=True)
class ButtonsConfig:
    enabled: bool = _spec(_bool, False)
    undo: int | str = _spec(_gpio, 5)
    confirm: int | str = _spec(_gpio, 6)
    new_deal: int | str = _spec(_gpio, 13)
    bounce_time: float = _spec(_seconds_up_to(MAX_BOUNCE_S), 0.05)
    stuck_after: float = _spec(_seconds_up_to(MAX_STUCK_S), 5.0)

    def device_settings(self) -> dict[str, Any]:
        return {"undo": self.undo, "confirm": self.confirm, "new_deal": self.new_deal,
                "bounce_time": self.bounce_time, "stuck_after": self.stuck_after}


@dataclass(frozen=True)
class LcdConfig:
    enabled: bool = _spec(_bool, False)
    address: int = _spec(_i2c_address, 0x27)
    bus: int = _spec(_up_to(MAX_I2C_BUS, "(an I2C bus number)"), 1)


@dataclass(frozen=True)
class DisplayConfig:
    web: bool = _spec(_bool, True)
    host: str = _spec(_text, "127.0.0.1")
    port: int = _spec(_port, 8000)
    terminal: bool = _spec(_bool, False)
    language: str = _spec(_choice(LANGUAGES), "en")
    speech: bool = _spec(_bool, False)
    lcd: LcdConfig = field(default_factory=LcdConfig, metadata={"section": LcdConfig})
    # The dealer's own devices: their PIN tries are counted apart from strangers' (the box's
    # own screen is the loopback address).
    dealer_addresses: tuple[str, ...] = _spec(_networks, ("127.0.0.0/8", "::1"))
    # Reverse proxies whose X-Forwarded-For is believed (none: the connection's own address).
    trusted_proxies: tuple[str, ...] = _spec(_networks, ())
    # DNS names the box answers to besides IP addresses, single-label, .local and .home.arpa names.
    server_names: tuple[str, ...] = _spec(_host_names, ())
    max_connections: int = _spec(_bounded(16, 60_000, "a whole number of connections", whole=True), 512)
    header_timeout: float = _spec(_bounded(1, 120, "a number of seconds"), 10.0)


def public_url(key: str, value: object) -> str:
    """The visitors' phone page as phones reach it: an http(s) address whose host is not this
    machine's loopback (a phone scanning 127.0.0.1 or localhost opens itself, not the box)."""
    import ipaddress
    from urllib.parse import urlsplit

    expected = "an http:// or https:// address phones can reach, like 'http://192.168.1.20:8000/exhibit/visit'"
    if not isinstance(value, str) or not value or len(value) > 500 or any(c.isspace() for c in value):
        raise _fail(key, expected, value)
    try:
        parts = urlsplit(value)
        _ = parts.port  # a port that is not a number 0..65535 raises ValueError
    except ValueError:
        raise _fail(key, expected, value) from None
    host = (parts.hostname or "").lower()
    if parts.scheme not in ("http", "https") or not host:
        raise _fail(key, expected, value)
    try:
        address = ipaddress.ip_address(host)
        loopback = address.is_loopback or address.is_unspecified
    except ValueError:
        loopback = host == "localhost" or host.endswith(".localhost")
    if loopback:
        raise ConfigError(f"{key}: {value!r} names this machine itself, which no phone can reach: "
                          "give the box's address on the network")
    return value


@dataclass(frozen=True)
class ExhibitConfig:
    public_url: str | None = _spec(public_url)


def _fund(key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_FUND:
        raise _fail(key, f"a whole number of chips from 1 to {MAX_FUND}", value)
    return value


@dataclass(frozen=True)
class BankConfig:
    """The bank a Baccarat Banque box opens at start (the dealer's page can open another)."""

    banker: str | None = _spec(_text)
    fund: int | None = _spec(_fund)
    sides: dict[str, str] = _spec(_table_of(_choice(BANK_SIDES)), factory=dict)

    @property
    def given(self) -> bool:
        return self.banker is not None or self.fund is not None or bool(self.sides)


@dataclass(frozen=True)
class Config:
    journal: str = _spec(_text, "/var/lib/faro-box/journal.sqlite")
    game: str = _spec(_choice(GAMES), "faro")
    profile: str = _spec(_text, "foster")
    players: tuple[str, ...] = _spec(_players, ())
    house_rules: dict[str, Any] = _spec(_house_rules, factory=dict)
    pin_hash: str | None = _spec(_pin_hash)
    snapshots: str | None = _spec(_text)
    camera: CameraConfig = field(default_factory=CameraConfig, metadata={"section": CameraConfig})
    case_keeper: CaseKeeperConfig = field(default_factory=CaseKeeperConfig,
                                          metadata={"section": CaseKeeperConfig})
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig, metadata={"section": ButtonsConfig})
    display: DisplayConfig = field(default_factory=DisplayConfig, metadata={"section": DisplayConfig})
    bank: BankConfig = field(default_factory=BankConfig, metadata={"section": BankConfig})
    exhibit: ExhibitConfig = field(default_factory=ExhibitConfig, metadata={"section": ExhibitConfig})

    def start_bank(self) -> Any:
        """The StartBank the configuration names, or None (the dealer's page opens the bank)."""
        if not self.players:
            return None
        assert self.bank.banker is not None and self.bank.fund is not None  # _check_bank saw to it
        return StartBank(self.players, dict(self.bank.sides), self.bank.banker, self.bank.fund)


def _build(cls: type, doc: object, prefix: str) -> Any:
    if not isinstance(doc, dict):
        raise _fail(prefix.rstrip("."), "a table", doc)
    known = {f.name: f for f in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in doc.items():
        spec = known.get(key)
        if spec is None:
            raise ConfigError(f"{prefix}{key}: unknown key (known: {', '.join(known)})")
        section = spec.metadata.get("section")
        if section is not None:
            values[key] = _build(section, value, f"{prefix}{key}.")
        else:
            values[key] = spec.metadata["check"](f"{prefix}{key}", value)
    return cls(**values)


def parse_config(doc: Mapping[str, Any]) -> Config:
    config: Config = _build(Config, dict(doc), "")
    if config.game == "baccarat_banque":
        _check_bank(config, doc)
    else:
        _check_whole(config)
    return config


def _check_bank(config: Config, doc: Mapping[str, Any]) -> None:
    """A Baccarat Banque box: faro's keys mean nothing there, so they are refused, not ignored."""
    for key, what in (("profile", "faro's profile does"), ("house_rules", "faro's house rules do")):
        if key in doc:
            raise ConfigError(f"{key}: {what} not apply to a Baccarat Banque bank (game = 'baccarat_banque'): "
                              "remove the key")
    if config.camera.window is not None:
        raise ConfigError("camera.window: a Baccarat Banque bank reads each card in find mode as it leaves "
                          "the shoe, without a calibrated window: remove the key")
    _check_devices(config)
    bank = config.bank
    if not config.players:
        if bank.given:
            raise ConfigError("players: the [bank] section needs the players (everyone but the banker, "
                              "in the order bets are taken)")
        return
    for key, value in (("bank.banker", bank.banker), ("bank.fund", bank.fund)):
        if value is None:
            raise ConfigError(f"{key}: a bank with players needs its banker and fund")
    try:
        start = config.start_bank()
        Bank(start.players, {p: Side(s) for p, s in start.sides.items()}, start.banker, start.fund)
    except FaroBoxError as exc:
        text = str(exc)
        key = "bank.banker" if "banker" in text else "bank.sides" if "side" in text else "players"
        raise ConfigError(f"{key}: {exc}") from None


def _check_whole(config: Config) -> None:
    try:
        house_profile(config.profile, config.house_rules)
    except FaroBoxError as exc:
        raise ConfigError(f"profile: {exc}") from None
    if config.bank.given:
        raise ConfigError("bank: only a Baccarat Banque box (game = 'baccarat_banque') has a bank section")
    _check_devices(config)


def _check_devices(config: Config) -> None:
    camera = config.camera
    if camera.fps > MAX_FPS:
        # Lazy: devices.camera loads numpy, whose import time every command would pay for this case.
        from faro_box.devices.camera import parse_source

        if parse_source(camera.source)[0] in ("picamera2", "usb"):
            raise ConfigError(f"camera.fps: expected at most {MAX_FPS} frames per second from a camera "
                              f"({camera.source!r}), got {camera.fps!r}")
    try:
        BeadGeometry.from_mapping(config.case_keeper.geometry)
    except ConfigError as exc:
        raise ConfigError(f"case_keeper.geometry: {exc}") from None
    ck = config.case_keeper
    if ck.kind == "servo" and ck.port is None:
        raise ConfigError("case_keeper.port: the servo case-keeper needs its serial port, like '/dev/ttyACM0'")
    if ck.kind != "servo" and (ck.port is not None or ck.baudrate is not None):
        raise ConfigError(f"case_keeper.port: only the servo case-keeper has a serial port (kind is {ck.kind!r})")
    if ck.kind != "led" and ck.pins:
        raise ConfigError(f"case_keeper.pins: only the LED case-keeper has pins (kind is {ck.kind!r})")
    if config.display.web and config.pin_hash is None:
        raise ConfigError("pin_hash: the dealer page needs a PIN: make its hash with `faro-box pin` "
                          "and set pin_hash (or set display.web = false)")


def load_config(path: str | Path) -> Config:
    """Read and check a TOML configuration file; ConfigError names the file and the key."""
    file = Path(path)
    try:
        with file.open(encoding="utf-8") as stream:
            text = read_limited(stream, f"the configuration {str(file)!r}", MAX_CONFIG_CHARS, ConfigError)
    except OSError as exc:
        raise ConfigError(f"cannot read the configuration {str(file)!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"the configuration {str(file)!r} is not UTF-8 text: {exc}") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{str(file)!r} is not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{str(file)!r} nests too deeply to be a configuration") from None
    try:
        return parse_config(doc)
    except ConfigError as exc:
        raise ConfigError(f"{str(file)!r}: {exc}") from None
