"""Tests of the training code that need no GPU and no fonts (issue 29 part 4): the generator's images and
labels agree, a tiny model trains, resumes and exports, and the export loads in onnxruntime-node.

    python3 -m unittest discover -s training -p 'test_*.py'
"""
from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import torch

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from model import ColumnRecognizer  # noqa: E402
from synth import GLYPH, ColumnSynth, normalise  # noqa: E402

CLASSES = 6  # characters of the test charset


def test_atlas(folder: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path, pathlib.Path]:
    """An atlas whose character k (1-based) is a filled square 4 + 3k glyph pixels wide, in two faces."""
    glyphs = []
    for face in range(2):
        for k in range(1, CLASSES + 1):
            g = np.zeros((GLYPH, GLYPH), dtype=bool)
            half = (4 + 3 * k) // 2
            c = GLYPH // 2
            g[c - 10 : c + 10, c - half : c + half] = True
            glyphs.append(np.packbits(g, axis=-1))
    slot = np.arange(2 * CLASSES, dtype=np.int32).reshape(2, CLASSES)
    atlas = folder / "atlas.npz"
    np.savez_compressed(
        atlas,
        glyphs=np.stack(glyphs),
        slot=slot,
        has=np.ones_like(slot, dtype=bool),
        styles=np.array(["ming", "kai"]),
        names=np.array(["a", "b"]),
    )
    rng = np.random.default_rng(0)
    ids = rng.integers(1, CLASSES + 1, size=20000).astype(np.uint16)
    ids[::97] = 0  # texts end now and then
    text = folder / "text-ids.npz"
    np.savez_compressed(text, ids=ids)
    charset = folder / "charset.txt"
    charset.write_text("".join(f"{ch}\n" for ch in "天地玄黃宇宙"), encoding="utf8")
    return atlas, text, charset


class SynthTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = pathlib.Path(tempfile.mkdtemp())
        cls.atlas, cls.text, cls.charset = test_atlas(cls.dir)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def test_images_and_labels_agree(self):
        """Undegraded, each column shows its label's characters, in order: one square per character, as wide as its class says."""
        synth = ColumnSynth(str(self.atlas), str(self.text), height=320, seed=3)
        batch = synth.batch(24, degrade=False)
        self.assertEqual(tuple(batch.images.shape), (24, 1, 320, 48))
        for i in range(24):
            n = int(batch.lengths[i])
            labels = batch.labels[i, :n].tolist()
            self.assertTrue(all(1 <= c <= CLASSES for c in labels))
            self.assertTrue(bool((batch.labels[i, n:] == 0).all()))
            ink = (batch.images[i, 0] < 0.5).numpy()
            rows = ink.any(axis=1)
            runs = []
            start = None
            for y, on in enumerate(list(rows) + [False]):
                if on and start is None:
                    start = y
                elif not on and start is not None:
                    runs.append((start, y))
                    start = None
            self.assertEqual(len(runs), n, f"column {i}: {n} characters, {len(runs)} squares")
            widths = [ink[a:b].sum(axis=1).max() for a, b in runs]
            # Wider squares are larger classes (each column has one face and size).
            for (w1, c1), (w2, c2) in zip(zip(widths, labels), zip(widths[1:], labels[1:])):
                if c1 < c2:
                    self.assertLess(w1, w2 + 1)
                if c1 > c2:
                    self.assertGreater(w1 + 1, w2)

    def test_degraded_batches_are_images_of_paper_and_ink(self):
        synth = ColumnSynth(str(self.atlas), str(self.text), height=320, seed=4)
        batch = synth.batch(16)
        self.assertTrue(bool(torch.isfinite(batch.images).all()))
        self.assertGreaterEqual(float(batch.images.min()), 0.0)
        self.assertLessEqual(float(batch.images.max()), 1.0)
        self.assertTrue(bool((batch.lengths >= 1).all()))

    def test_seals_print_over_a_band_of_the_column_and_never_take_ink_away(self):
        """Issue 28: columns with a seal over them (a border and thick strokes, solid or dotted)."""
        synth = ColumnSynth(str(self.atlas), str(self.text), height=320, seed=5)
        ink = synth.batch(16, degrade=False).images
        ink = 1 - ink  # ink 1 on paper 0, as the degradations take it
        sealed = synth._seals(ink, share=1.0)
        self.assertTrue(bool((sealed >= ink).all()))
        added = (sealed - ink) > 0
        self.assertTrue(bool(added.flatten(1).any(1).all()), "every column gets a seal")
        # The seal is a band: rows far from it are untouched, and it is no taller than 70 % (+ its border).
        rows = added[:, 0].any(dim=2)
        for i in range(16):
            span = rows[i].nonzero()
            self.assertLessEqual(int(span[-1] - span[0]) + 1, int(0.7 * 320) + 14)
        self.assertTrue(torch.equal(synth._seals(ink, share=0.0), ink))

    def test_normalise_stretches_to_the_percentiles(self):
        grey = torch.linspace(0.2, 0.8, 101).reshape(1, 1, 101, 1).expand(1, 1, 101, 48).contiguous()
        out = normalise(grey)
        self.assertAlmostEqual(float(out.min()), 0.0, places=5)
        self.assertAlmostEqual(float(out.max()), 1.0, places=5)

    def test_a_tiny_model_trains_resumes_exports_and_loads_in_onnxruntime_node(self):
        out = self.dir / "run"
        common = [
            sys.executable, str(HERE / "train.py"), "--tiny", "--budget", "4", "--batch", "8", "--height", "160",
            "--atlas", str(self.atlas), "--text", str(self.text), "--charset", str(self.charset),
            "--eval-every", "1000", "--save-every", "1000",
        ]
        subprocess.run([*common, "--out", str(out)], check=True, capture_output=True)
        first = torch.load(out / "recogniser.pt", map_location="cpu")["meta"]
        self.assertGreater(first["steps"], 0)
        # A second run starts where the first left off: steps and samples add up.
        subprocess.run([*common, "--out", str(self.dir / "run2"), "--resume", str(out / "recogniser.pt")], check=True, capture_output=True)
        second = torch.load(self.dir / "run2" / "recogniser.pt", map_location="cpu")["meta"]
        self.assertGreater(second["steps"], first["steps"])
        self.assertEqual(len(second["runs"]), 2)
        report = json.loads((self.dir / "run2" / "report.json").read_text())
        self.assertEqual(report["start"]["steps"], first["steps"])

        onnx_file = self.dir / "tiny.onnx"
        subprocess.run([sys.executable, str(HERE / "export.py"), str(self.dir / "run2" / "recogniser.pt"), str(onnx_file)], check=True, capture_output=True)
        model = ColumnRecognizer(CLASSES + 1, channels=(8, 16, 32, 64), hidden=32, layers=1)
        self.assertEqual(sum(p.numel() for p in model.parameters()) > 0, True)
        node = shutil.which("node")
        if node is None:
            self.skipTest("node is not installed")
        script = f"""
const ort = require('onnxruntime-node');
(async () => {{
  const s = await ort.InferenceSession.create({json.dumps(str(onnx_file))});
  const h = 96;
  const out = await s.run({{ image: new ort.Tensor('float32', new Float32Array(h * 48).fill(1), [1, 1, h, 48]) }});
  const p = out.probs;
  let sum = 0;
  for (let c = 0; c < p.dims[2]; c++) sum += p.data[c];
  console.log(JSON.stringify({{ dims: p.dims, sum }}));
}})().catch((e) => {{ console.error(e); process.exit(1); }});
"""
        result = subprocess.run([node, "-e", script], check=True, capture_output=True, text=True, cwd=HERE.parent / "apps" / "server")
        answer = json.loads(result.stdout.strip().splitlines()[-1])
        self.assertEqual(answer["dims"], [1, 12, CLASSES + 1])
        self.assertAlmostEqual(answer["sum"], 1.0, places=3)


if __name__ == "__main__":
    unittest.main()
