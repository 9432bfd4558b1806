"""Join several trained index networks into one ONNX file that reads as their average.

    python training/ensemble.py A.onnx B.onnx ... --out faro_box/vision/data
    python training/ensemble.py --split OUT/index_net.onnx --out faro_box/vision/data

Networks trained alike from different seeds disagree on the cards none of them has seen, and
where one is sure of a wrong card the others seldom are: their average probability is the
better judge of when to abstain. The joined network takes the members' input and gives rank
and suit logits whose softmax is the members' mean probability, then every member's unit
embedding side by side scaled by 1/sqrt(n), so that the joined embedding is a unit vector and
its cosine similarity is the members' mean cosine similarity. Needs the `train` extra (onnx).
Writes index_net.onnx and index_net.json (the members' own records, and this command).

``--split JOINED`` cuts a joined file in two, the same weights: its first member alone
(index_net_first.onnx) and the others joined (index_net_rest.onnx). The box ships the pair: a
generic reading asks the first member, and the others only where it is unsure
(faro_box.vision.learned.IndexNet.probabilities). index_net.json beside them gains the command.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from faro_box.vision.learned import EMBED, RANK_CLASSES  # noqa: E402

INPUT = "patch"
OUTPUT = "out"


def _renamed(graph, prefix: str):
    """The member's nodes and initializers with every name but the shared input prefixed."""
    def name(n: str) -> str:
        return n if n in ("", INPUT) else prefix + n

    nodes = []
    for node in graph.node:
        node = type(node).FromString(node.SerializeToString())
        node.name = prefix + node.name
        node.input[:] = [name(n) for n in node.input]
        node.output[:] = [name(n) for n in node.output]
        nodes.append(node)
    inits = []
    for t in graph.initializer:
        t = type(t).FromString(t.SerializeToString())
        t.name = prefix + t.name
        inits.append(t)
    return nodes, inits, name(graph.output[0].name)


def _width(model) -> int:  # noqa: ANN001 - onnx is imported lazily
    return int(model.graph.output[0].type.tensor_type.shape.dim[1].dim_value)


def _joined_width(models: list) -> int:
    """The joined output's width: one rank and suit head, every member's embedding."""
    return RANK_CLASSES + 4 + sum(_width(m) - RANK_CLASSES - 4 for m in models)


def join(models: list) -> object:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    k = len(models)
    nodes, inits = [], []

    def const(name: str, value: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(value, name))
        return name

    # A member may itself be joined networks, its embedding wider: it runs to the output's end.
    starts = {"rank": (0, RANK_CLASSES), "suit": (RANK_CLASSES, RANK_CLASSES + 4),
              "emb": (RANK_CLASSES + 4, np.iinfo(np.int64).max)}
    for part, (a, b) in starts.items():
        const(f"{part}_start", np.array([a], np.int64))
        const(f"{part}_end", np.array([b], np.int64))
    const("axis1", np.array([1], np.int64))
    const("mean", np.array(1.0 / k, np.float32))
    const("unit", np.array(1.0 / math.sqrt(k), np.float32))
    probs: dict[str, list[str]] = {"rank": [], "suit": []}
    embs: list[str] = []
    for i, m in enumerate(models):
        p = f"m{i}_"
        n, t, out = _renamed(m.graph, p)
        nodes += n
        inits += t
        for part in ("rank", "suit", "emb"):
            nodes.append(helper.make_node("Slice", [out, f"{part}_start", f"{part}_end", "axis1"], [p + part]))
        for part in ("rank", "suit"):
            nodes.append(helper.make_node("Softmax", [p + part], [p + part + "_p"], axis=1))
            probs[part].append(p + part + "_p")
        embs.append(p + "emb")
    heads = []
    for part in ("rank", "suit"):
        total = probs[part][0]
        for j, q in enumerate(probs[part][1:]):
            nodes.append(helper.make_node("Add", [total, q], [f"{part}_sum{j}"]))
            total = f"{part}_sum{j}"
        nodes.append(helper.make_node("Mul", [total, "mean"], [f"{part}_mean"]))
        nodes.append(helper.make_node("Log", [f"{part}_mean"], [f"{part}_logits"]))
        heads.append(f"{part}_logits")
    nodes.append(helper.make_node("Concat", embs, ["emb_all"], axis=1))
    nodes.append(helper.make_node("Mul", ["emb_all", "unit"], ["emb_unit"]))
    nodes.append(helper.make_node("Concat", heads + ["emb_unit"], [OUTPUT], axis=1))
    width = _joined_width(models)
    graph = helper.make_graph(
        nodes, "index_net_ensemble",
        [helper.make_tensor_value_info(INPUT, TensorProto.FLOAT, ["n", 3, 64, 64])],
        [helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT, ["n", width])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = models[0].ir_version
    onnx.checker.check_model(model)
    return model


def members(joined) -> list:  # noqa: ANN001 - onnx is imported lazily
    """The members of a file ``join`` wrote, each a network of its own (the very weights the
    joined file holds); ValueError where it is no such file, or one whose members are joined."""
    from onnx import TensorProto, helper, shape_inference

    found = sorted({int(m.group(1)) for n in joined.graph.node if (m := re.match(r"m(\d+)_", n.name))})
    if len(found) < 2 or found != list(range(len(found))):
        raise ValueError("not networks joined by training/ensemble.py")
    # Each member's own output is what join's slices of its rank are cut from.
    outputs = {n.output[0]: n.input[0] for n in joined.graph.node if n.op_type == "Slice"}
    shapes = {v.name: v.type.tensor_type.shape for v in shape_inference.infer_shapes(joined).graph.value_info}
    for i in found:
        shape = shapes.get(outputs.get(f"m{i}_rank", ""))
        if shape is None or len(shape.dim) != 2:
            raise ValueError("not networks joined by training/ensemble.py")
        if shape.dim[1].dim_value != RANK_CLASSES + 4 + EMBED:
            raise ValueError("its members are joined networks themselves: split those first")
    out = []
    for i in found:
        prefix = f"m{i}_"
        nodes = [n for n in joined.graph.node if n.name.startswith(prefix)]
        used = {name for n in nodes for name in n.input}
        graph = helper.make_graph(
            nodes, f"index_net_member{i}",
            [helper.make_tensor_value_info(INPUT, TensorProto.FLOAT, ["n", 3, 64, 64])],
            [helper.make_tensor_value_info(outputs[f"m{i}_rank"], TensorProto.FLOAT, ["n", RANK_CLASSES + 4 + EMBED])],
            [t for t in joined.graph.initializer if t.name in used])
        model = helper.make_model(graph, opset_imports=list(joined.opset_import))
        model.ir_version = joined.ir_version
        out.append(model)
    return out


def split(path: Path, out: Path) -> str:
    """Write ``path``'s first member and its other members joined into ``out``; what was done."""
    import onnx

    try:
        joined = onnx.load(str(path))
    except Exception as exc:  # noqa: BLE001 - onnx's parser raises protobuf's own errors
        raise ValueError(f"not an ONNX file onnx can read ({type(exc).__name__})") from None
    parts = members(joined)
    onnx.checker.check_model(parts[0])
    rest = join(parts[1:])  # checked there
    out.mkdir(parents=True, exist_ok=True)
    onnx.save(parts[0], str(out / "index_net_first.onnx"))
    onnx.save(rest, str(out / "index_net_rest.onnx"))
    meta = path.with_suffix(".json")
    record = json.loads(meta.read_text()) if meta.is_file() else {}
    record["split"] = f"python training/ensemble.py --split OUT/{path.name} --out DIR"
    (out / "index_net.json").write_text(json.dumps(record, indent=2) + "\n")
    return f"split {len(parts)} networks into {out / 'index_net_first.onnx'} and {out / 'index_net_rest.onnx'}"


def main() -> int:
    import onnx

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("members", nargs="*", type=Path, help="trained networks (index_net*.onnx), each with its .json")
    ap.add_argument("--split", type=Path, metavar="JOINED",
                    help="cut this joined network into its first member and the others joined")
    ap.add_argument("--out", type=Path, required=True, help="folder for the network files and index_net.json")
    args = ap.parse_args()
    if args.split is not None:
        if args.members:
            ap.error("--split takes no networks to join")
        if not args.split.is_file():
            ap.error(f"{str(args.split)!r}: no such file")
        try:
            print(split(args.split, args.out))
        except (ValueError, onnx.checker.ValidationError) as exc:
            ap.error(f"{str(args.split)!r}: {exc}")
        return 0
    if len(args.members) < 2:
        ap.error("name at least two networks to join")
    records = []
    models = []
    for path in args.members:
        if not path.is_file():
            ap.error(f"{str(path)!r}: no such file")
        meta = path.with_suffix(".json")
        record = json.loads(meta.read_text()) if meta.is_file() else {}
        record["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
        records.append(record)
        model = onnx.load(str(path))
        if [i.name for i in model.graph.input] != [INPUT] or len(model.graph.output) != 1 \
                or (_width(model) - RANK_CLASSES - 4) % EMBED or _width(model) <= RANK_CLASSES + 4:
            ap.error(f"{str(path)!r}: not an index network from training/train_reader.py")
        models.append(model)
    args.out.mkdir(parents=True, exist_ok=True)
    onnx.save(join(models), str(args.out / "index_net.onnx"))
    (args.out / "index_net.json").write_text(json.dumps({
        "ensemble": len(models),
        "command": "python training/ensemble.py " + " ".join(f"MEMBER{i + 1}" for i in range(len(models)))
                   + " --out OUT",
        "outputs": {"rank_logits": [0, RANK_CLASSES], "suit_logits": [RANK_CLASSES, RANK_CLASSES + 4],
                    "embedding": [RANK_CLASSES + 4, _joined_width(models)]},
        "members": records}, indent=2) + "\n")
    print(f"joined {len(models)} networks into {args.out / 'index_net.onnx'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
