"""Exports a checkpoint to the ONNX model the product runs (apps/server/src/ocr/column-recognizer.ts).

    python3 training/export.py training/checkpoint/recogniser.pt apps/server/models/column-recogniser.onnx

Input `image` [N, 1, H, 48] (grey in [0, 1], paper light, H a multiple of 8), output `probs` [N, H/8,
classes]. The weights are stored in fp16 (half the file) behind Cast nodes, which onnxruntime folds into
fp32 constants when it loads the model, so it computes in fp32 as trained.
"""
from __future__ import annotations

import pathlib
import sys

import numpy as np
import onnx
import torch
from onnx import helper, numpy_helper

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from model import ColumnRecognizer  # noqa: E402


def load(checkpoint: str) -> tuple[ColumnRecognizer, dict]:
    data = torch.load(checkpoint, map_location="cpu")
    state = {k: v.float() if v.is_floating_point() else v for k, v in data["model"].items()}
    classes = state["classifier.weight"].shape[0]
    model = ColumnRecognizer(classes, **data["meta"].get("sizes", {}))
    model.load_state_dict(state)
    return model.eval(), data["meta"]


def half_weights(path: str) -> None:
    """Every fp32 initializer of 1,024 values or more stored as fp16 behind a Cast to fp32."""
    model = onnx.load(path)
    graph = model.graph
    casts = []
    for init in graph.initializer:
        if init.data_type != onnx.TensorProto.FLOAT:
            continue
        values = numpy_helper.to_array(init)
        if values.size < 1024:
            continue
        name = init.name
        half = numpy_helper.from_array(values.astype(np.float16), name + "_fp16")
        init.CopyFrom(half)
        casts.append(helper.make_node("Cast", [name + "_fp16"], [name], to=onnx.TensorProto.FLOAT, name="cast_" + name))
    for node in reversed(casts):
        graph.node.insert(0, node)
    onnx.checker.check_model(model)
    onnx.save(model, path)


def export(checkpoint: str, out: str) -> None:
    model, meta = load(checkpoint)
    example = torch.ones(1, 1, 160, 48)
    torch.onnx.export(
        model,
        example,
        out,
        input_names=["image"],
        output_names=["probs"],
        dynamic_axes={"image": {0: "n", 2: "height"}, "probs": {0: "n", 1: "steps"}},
        opset_version=13,
        do_constant_folding=True,
    )
    half_weights(out)
    print(f"{out}: {pathlib.Path(out).stat().st_size} bytes; {meta['steps']} steps, {meta['samples']} samples")


if __name__ == "__main__":
    export(sys.argv[1], sys.argv[2])
