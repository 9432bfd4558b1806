"""Networks joined by training/ensemble.py read as their average, through cv2.dnn as the box runs
them, a joined file split in two reads as the joined one, and a deck enrolled in the joined
embedding reads by its prototypes."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from vision_frames import scene

from faro_box.cards import FULL_DECK
from faro_box.errors import VisionError
from faro_box.vision.canonical import View, warp_quad
from faro_box.vision.learned import EMBED, IndexNet
from faro_box.vision.learned_deck import Mode, learn_deck
from faro_box.vision.profile import DeckProfile, learned_only_profile
from faro_box.vision.reader import Reader
from faro_box.vision.sim import synth
from faro_box.vision.sim.render import RUSSIAN, render_card

REPO = Path(__file__).resolve().parents[2]
onnx = pytest.importorskip("onnx", reason="the test extra installs onnx; training/ensemble.py needs it")


def _shipped() -> bytes:
    """One trained network: the shipped ensemble's first member."""
    return resources.files("faro_box.vision").joinpath("data/index_net_first.onnx").read_bytes()


def _other(tmp_path: Path) -> Path:
    """A second network: the shipped one with its last layers' weights changed (another 'seed')."""
    model = onnx.load_from_string(_shipped())
    rng = np.random.default_rng(3)
    for t in model.graph.initializer:
        if len(t.dims) == 2:  # the fully connected layers
            a = onnx.numpy_helper.to_array(t)
            t.CopyFrom(onnx.numpy_helper.from_array((a * rng.uniform(0.5, 1.5, a.shape)).astype(a.dtype), t.name))
    path = tmp_path / "other.onnx"
    onnx.save(model, str(path))
    return path


def _joined(tmp_path: Path) -> tuple[IndexNet, Path, Path]:
    shipped = tmp_path / "shipped.onnx"
    shipped.write_bytes(_shipped())
    other = _other(tmp_path)
    out = subprocess.run([sys.executable, str(REPO / "training" / "ensemble.py"), str(shipped), str(other),
                          "--out", str(tmp_path / "joined")], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return IndexNet((tmp_path / "joined" / "index_net.onnx").read_bytes(), source="joined"), shipped, other


def test_joined_networks_read_as_the_members_mean(tmp_path):
    joined, shipped, other = _joined(tmp_path)
    a, b = IndexNet(shipped.read_bytes()), IndexNet(other.read_bytes())
    assert joined.embed == a.embed + b.embed and joined.fingerprint not in (a.fingerprint, b.fingerprint)
    patches = np.random.default_rng(4).integers(0, 256, (6, 64, 64, 3), dtype=np.uint8)
    j, x, y = joined(patches), a(patches), b(patches)
    assert not np.allclose(x.rank, y.rank, atol=1e-3)  # the members differ: the mean is not either
    assert np.allclose(j.rank, (x.rank + y.rank) / 2, atol=1e-5)
    assert np.allclose(j.suit, (x.suit + y.suit) / 2, atol=1e-5)
    # The joined embedding is a unit vector whose cosine similarity is the members' mean.
    assert np.allclose(np.linalg.norm(j.embedding, axis=1), 1.0, atol=1e-5)
    assert np.allclose(j.embedding @ j.embedding[0], ((x.embedding @ x.embedding[0]) + (y.embedding @ y.embedding[0])) / 2,
                       atol=1e-5)


def _ensemble(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPO / "training" / "ensemble.py"), *argv],
                          capture_output=True, text=True, timeout=120)


def test_a_joined_network_split_in_two_reads_as_the_joined_one(tmp_path):
    joined, shipped, other = _joined(tmp_path)
    (tmp_path / "joined" / "index_net.json").write_text('{"ensemble": 2}')
    out = _ensemble("--split", str(tmp_path / "joined" / "index_net.onnx"), "--out", str(tmp_path / "split"))
    assert out.returncode == 0, out.stderr
    first = (tmp_path / "split" / "index_net_first.onnx").read_bytes()
    assert first[:2] != b"PK"
    split = IndexNet(first, rest=(tmp_path / "split" / "index_net_rest.onnx").read_bytes())
    alone = IndexNet(shipped.read_bytes())
    assert split.embed == joined.embed and split.fingerprint != joined.fingerprint
    patches = np.random.default_rng(5).integers(0, 256, (6, 64, 64, 3), dtype=np.uint8)
    a, b, c = joined(patches), split(patches), alone(patches)
    for got, want in ((b.rank, a.rank), (b.suit, a.suit), (b.embedding, a.embedding), (split.probabilities(patches, lambda _: False).rank,
                                                                                         a.rank)):
        assert np.allclose(got, want, atol=1e-5)
    assert not np.allclose(b.rank, c.rank, atol=1e-3)  # the whole, not its first member
    record = json.loads((tmp_path / "split" / "index_net.json").read_text())
    assert record["ensemble"] == 2 and record["split"].startswith("python training/ensemble.py --split")


def test_splitting_what_is_no_joined_network_is_refused(tmp_path):
    shipped = tmp_path / "shipped.onnx"
    shipped.write_bytes(_shipped())
    text = tmp_path / "notes.onnx"
    text.write_text("not a network")
    for path, says in ((shipped, "not networks joined"), (text, "not an ONNX file"),
                       (tmp_path / "nope.onnx", "no such file")):
        out = _ensemble("--split", str(path), "--out", str(tmp_path / "s"))
        assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr, out.stderr
        assert not (tmp_path / "s").exists()
    out = _ensemble("--split", str(shipped), str(shipped), "--out", str(tmp_path / "s"))
    assert out.returncode == 2 and "takes no networks" in out.stderr and not (tmp_path / "s").exists()


def test_joining_one_network_or_a_missing_file_is_refused(tmp_path):
    shipped = tmp_path / "shipped.onnx"
    shipped.write_bytes(_shipped())
    for argv, says in (([str(shipped)], "at least two"), ([str(shipped), str(tmp_path / "nope.onnx")], "no such file")):
        out = subprocess.run([sys.executable, str(REPO / "training" / "ensemble.py"), *argv, "--out",
                              str(tmp_path / "j")], capture_output=True, text=True, timeout=120)
        assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr
        assert not (tmp_path / "j").exists()


def test_a_deck_enrolled_in_the_joined_embedding_reads_by_its_prototypes(tmp_path):
    joined, _, _ = _joined(tmp_path)
    rng = np.random.default_rng(8)
    faces = []
    for card in FULL_DECK:
        quad = synth.card_quad(640, 480, 360, 0, (320, 240), 0.02, rng)
        frame = synth.place_card(synth.light_background(640, 480, rng), render_card(card, style=RUSSIAN), quad)
        faces.append((card, warp_quad(frame, quad)))
    deck = learn_deck(joined, faces, corner=False)
    assert deck.mode is not Mode.FACE and deck.rank_protos.shape == (13, joined.embed) and joined.embed % EMBED == 0
    path = tmp_path / "deck.npz"
    learned_only_profile("joined", View.FACE, deck).save(path)
    reader = Reader(DeckProfile.load(path), learned=True, net=joined)
    right, wrong = 0, []
    for i, card in enumerate(FULL_DECK):
        frame, quad = scene(card, seed=7600 + i, style=RUSSIAN)
        got = reader.read(frame, window=quad).card
        right += got == card
        if got not in (None, card):
            wrong.append((str(card), str(got)))
    assert wrong == [] and right >= 28, (right, wrong)  # lower than the shipped network's: one member altered
    with pytest.raises(VisionError, match="another index network"):
        Reader(DeckProfile.load(path), learned=True)  # the shipped network alone: not the embedding enrolled in


def test_a_network_of_another_shape_is_refused(tmp_path):
    shipped = tmp_path / "shipped.onnx"
    shipped.write_bytes(_shipped())
    model = onnx.load_from_string(_shipped())
    model.graph.output[0].type.tensor_type.shape.dim[1].dim_value = 40  # no index network gives 40 outputs
    odd = tmp_path / "odd.onnx"
    onnx.save(model, str(odd))
    out = subprocess.run([sys.executable, str(REPO / "training" / "ensemble.py"), str(shipped), str(odd), "--out",
                          str(tmp_path / "j")], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "not an index network" in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "j").exists()
