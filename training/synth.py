"""Synthetic columns of classical text, composed and degraded on the GPU (or the CPU) from the glyph atlas.

A batch is made in one pass of tensor operations: no font is rasterised and no image is made on the CPU,
so the generator keeps up with the model (issue 29: rendering with Pillow on 15 CPU workers gave 1,250
columns a second and starved the GPU).

Each column: text cut from the corpus (or, one column in ten, characters drawn uniformly from the charset
so that rare ones are seen), one face (Kai for manuscripts, Ming/Song for prints), a character size and
pitch (some columns sparse, as contents pages are), per-character jitter; then ink spread or thinned and
broken strokes, ruling lines at the column's sides, fragments of the neighbouring columns and marks at
its ends, a library's seal printed over part of the column now and then (its border and the thick strokes
of its seal script, solid or as the dense dots a red seal turns into in a grey or bilevel scan), uneven
paper and show-through, blur, lower resolution, noise, JPEG-like blocking, sometimes
binarisation, and a slight rotation, shear and shift. The image is grey, paper light and ink dark, every
column stretched to the same contrast as the product does it (`normalise`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

GLYPH = 48
EM = 44
WIDTH = 48
# The share of columns with a seal printed over part of them.
SEAL_SHARE = 0.12


@dataclass
class Batch:
    images: torch.Tensor  # [B, 1, H, W] float in [0, 1], paper light
    labels: torch.Tensor  # [B, L] long, class ids (1-based), 0 past the end
    lengths: torch.Tensor  # [B] long


def normalise(images: torch.Tensor) -> torch.Tensor:
    """Stretches each column so its 2nd percentile is 0 and its 98th is 1 (the product does the same)."""
    b = images.shape[0]
    flat = images.reshape(b, -1)
    # Percentiles of a subsample: the same figures within a grey level, at a fraction of the cost.
    step = max(1, flat.shape[1] // 4096)
    sample = flat[:, ::step]
    lo = torch.quantile(sample, 0.02, dim=1, keepdim=True)
    hi = torch.quantile(sample, 0.98, dim=1, keepdim=True)
    span = (hi - lo).clamp_min(0.15)
    return ((flat - lo) / span).clamp(0, 1).reshape(images.shape)


class ColumnSynth:
    def __init__(self, atlas: str, text: str, device: torch.device | str = "cpu", height: int = 640, seed: int = 0):
        self.device = torch.device(device)
        a = np.load(atlas)
        glyphs = np.unpackbits(a["glyphs"], axis=-1)[..., :GLYPH]
        self.glyphs = torch.from_numpy(glyphs).to(self.device).reshape(-1)  # uint8 0/1, glyph-major
        self.slot = torch.from_numpy(a["slot"]).long().to(self.device)  # [faces, classes-1]
        styles = [str(s) for s in a["styles"]]
        self.kai = torch.tensor([s == "kai" for s in styles], device=self.device)
        self.faces = len(styles)
        self.classes = self.slot.shape[1] + 1  # with the CTC blank
        ids = np.load(text)["ids"].astype(np.int64)
        self.text = torch.from_numpy(ids).to(self.device)
        self.height = height
        self.gen = torch.Generator(device=self.device)
        self.gen.manual_seed(seed)

    # Random numbers from the synth's own generator, so a seed gives the same batches.
    def _u(self, *shape, lo=0.0, hi=1.0):
        return torch.rand(*shape, generator=self.gen, device=self.device) * (hi - lo) + lo

    def _n(self, *shape, std=1.0):
        return torch.randn(*shape, generator=self.gen, device=self.device) * std

    def _p(self, prob: float, n: int) -> torch.Tensor:
        return self._u(n) < prob

    def _lowfreq(self, b: int, h: int, w: int, cells: int) -> torch.Tensor:
        """Smooth noise in [0, 1]: random values on a coarse grid, bicubically enlarged."""
        coarse = self._u(b, 1, max(2, h // cells), max(2, w // cells))
        return F.interpolate(coarse, size=(h, w), mode="bicubic", align_corners=False).clamp(0, 1)

    def texts(self, b: int, n_max: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Class ids [b, n_max] (0 past a text's end) and how many each column may hold at most."""
        starts = torch.randint(0, len(self.text) - n_max - 1, (b,), generator=self.gen, device=self.device)
        ids = self.text[starts[:, None] + torch.arange(n_max, device=self.device)[None, :]]
        # A text ends at its 0: nothing after it in the column.
        ended = torch.cumsum((ids == 0).long(), dim=1) > 0
        ids = ids.masked_fill(ended, 0)
        random_chars = self._p(0.1, b)
        uniform = torch.randint(1, self.classes, (b, n_max), generator=self.gen, device=self.device)
        ids = torch.where(random_chars[:, None], uniform, ids)
        return ids, (ids > 0).sum(1)

    def batch(self, b: int, degrade: bool = True) -> Batch:
        """`b` columns with their labels; `degrade=False` (tests): the glyphs as they are, on white."""
        H, W, dev = self.height, WIDTH, self.device
        # Character size (the em square, px) and pitch; one column in ten sparse, as on contents pages.
        size = self._u(b, lo=0.6, hi=1.0) * W
        pitch = size * self._u(b, lo=0.92, hi=1.3)
        sparse = self._p(0.1, b)
        pitch = torch.where(sparse, size * self._u(b, lo=1.4, hi=3.0), pitch)
        capacity = ((H - 4) / pitch).floor().long().clamp(min=1)
        n_max = int(capacity.max().item())
        ids, available = self.texts(b, n_max)
        # Most columns full, some shorter (a column's end, a heading), none empty.
        full = self._p(0.6, b)
        wanted = torch.where(full, capacity, (self._u(b) * capacity.float()).long() + 1)
        n = torch.minimum(wanted, available).clamp(min=1)
        # A text shorter than one character (a 0 at its start) takes a uniform character instead.
        first_blank = ids[:, 0] == 0
        ids[:, 0] = torch.where(first_blank, torch.randint(1, self.classes, (b,), generator=self.gen, device=dev), ids[:, 0])
        slots = torch.arange(n_max, device=dev)[None, :]
        present = slots < n[:, None]
        ids = ids.masked_fill(~present, 0)
        free = H - n.float() * pitch
        y0 = self._u(b) * free.clamp(min=0)
        face = torch.randint(0, self.faces, (b,), generator=self.gen, device=dev)
        # Per character: offsets and size jitter (hands and cut blocks are not type).
        kai = self.kai[face]
        wobble = torch.where(kai, 0.05, 0.025)[:, None] * float(degrade)
        dx = self._n(b, n_max) * wobble * W
        dy = self._n(b, n_max) * wobble * pitch[:, None]
        scale = size[:, None] * (1 + self._n(b, n_max) * torch.where(kai, 0.06, 0.03)[:, None] * float(degrade))
        cx = W / 2 + self._n(b, std=0.04 * W)[:, None] * float(degrade) + dx
        cy = y0[:, None] + (slots + 0.5) * pitch[:, None] + dy
        glyph = self.slot[face[:, None].expand(-1, n_max), (ids - 1).clamp(min=0)]  # [b, n_max]

        ink = self._compose(glyph, present, cx, cy, scale, pitch, y0, n_max)
        if not degrade:
            return Batch(images=1 - ink[:, None].clamp(0, 1), labels=ids, lengths=n)
        ink = self._strokes(ink)
        ink = self._furniture(ink)
        ink = self._seals(ink)
        grey = self._paper(ink)
        grey = self._optics(grey)
        grey = self._geometry(grey)
        grey = normalise(grey)
        return Batch(images=grey, labels=ids, lengths=n)

    def _compose(self, glyph, present, cx, cy, scale, pitch, y0, n_max):
        """Ink (1) on paper (0): each pixel samples the glyphs of the two slots nearest its row."""
        b = glyph.shape[0]
        H, W, dev = self.height, WIDTH, self.device
        ys = torch.arange(H, device=dev, dtype=torch.float32)[None, :] + 0.5
        xs = torch.arange(W, device=dev, dtype=torch.float32) + 0.5
        base = ((ys - y0[:, None]) / pitch[:, None] - 0.5).floor().long()  # [b, H]
        ink = torch.zeros(b, H, W, device=dev)
        for k in (0, 1):
            slot = (base + k).clamp(0, n_max - 1)
            valid = (base + k >= 0) & (base + k < n_max)
            valid &= torch.gather(present, 1, slot)
            g = torch.gather(glyph, 1, slot)  # [b, H]
            s = torch.gather(scale, 1, slot) / EM  # output px per glyph px
            gy = (ys - torch.gather(cy, 1, slot)) / s + GLYPH / 2  # [b, H]
            gx = (xs[None, None, :] - torch.gather(cx, 1, slot)[:, :, None]) / s[:, :, None] + GLYPH / 2  # [b, H, W]
            ink = torch.maximum(ink, self._sample(g, gx, gy[:, :, None].expand_as(gx)) * valid[:, :, None])
        return ink

    def _sample(self, g, gx, gy):
        """Bilinear samples of glyphs `g` [b, H] at glyph coordinates (pixel centres at .5), 0 outside."""
        x = gx - 0.5
        y = gy - 0.5
        x0 = x.floor()
        y0 = y.floor()
        fx = x - x0
        fy = y - y0
        out = 0
        base = g[:, :, None].long() * (GLYPH * GLYPH)
        for oy, wy in ((0, 1 - fy), (1, fy)):
            for ox, wx in ((0, 1 - fx), (1, fx)):
                xi = x0.long() + ox
                yi = y0.long() + oy
                inside = (xi >= 0) & (xi < GLYPH) & (yi >= 0) & (yi < GLYPH)
                idx = base + yi.clamp(0, GLYPH - 1) * GLYPH + xi.clamp(0, GLYPH - 1)
                out = out + self.glyphs[idx].float() * inside * wx * wy
        return out

    def _strokes(self, ink):
        """Ink spread or thinned, edges worn and strokes broken."""
        b = ink.shape[0]
        x = ink[:, None]
        grown = F.max_pool2d(x, 3, 1, 1)
        thinned = -F.max_pool2d(-x, 3, 1, 1)
        weight = self._u(b, lo=-0.8, hi=1.2)[:, None, None, None]
        x = x + weight.clamp(min=0) * (grown - x) + (-weight).clamp(min=0) * (thinned - x)
        # Broken strokes and worn blocks: ink lost where smooth noise is low.
        worn = self._p(0.35, b)[:, None, None, None]
        holes = self._lowfreq(b, x.shape[2], x.shape[3], 4) < self._u(b, lo=0.05, hi=0.25)[:, None, None, None]
        x = torch.where(worn & holes, x * 0.3, x)
        return x.clamp(0, 1)

    def _furniture(self, ink):
        """Ruling lines at the column's sides, fragments of the next columns, marks above and below."""
        b, _, H, W = ink.shape
        dev = self.device
        xs = torch.arange(W, device=dev, dtype=torch.float32)[None, None, None, :]
        ys = torch.arange(H, device=dev, dtype=torch.float32)[None, None, :, None]
        out = ink
        # Neighbouring columns: another column's ink, shifted so only its edge shows at one side.
        other = ink.roll(1, 0)
        shift = (self._u(b, lo=0.78, hi=1.0) * W).long() * torch.where(self._p(0.5, b), 1, -1)
        source = torch.arange(W, device=dev)[None, :] - shift[:, None]  # [b, W]
        inside = ((source >= 0) & (source < W) & self._p(0.4, b)[:, None]).float()
        index = source.clamp(0, W - 1)[:, None, None, :].expand(-1, 1, H, -1)
        out = torch.maximum(out, torch.gather(other, 3, index) * inside[:, None, None, :])
        # Ruling lines: thin, sometimes faint, sometimes wavering, at either side.
        for edge in (0, 1):
            has = self._p(0.45, b)[:, None, None, None]
            pos = self._u(b, lo=0, hi=6)[:, None, None, None]
            pos = pos if edge == 0 else (W - 1 - pos)
            waver = (self._lowfreq(b, H, 1, 64) - 0.5) * self._u(b, lo=0, hi=3)[:, None, None, None]
            thick = self._u(b, lo=0.6, hi=2.5)[:, None, None, None]
            strength = self._u(b, lo=0.4, hi=1.0)[:, None, None, None]
            line = (1 - ((xs - pos - waver).abs() - thick / 2).clamp(min=0)).clamp(0, 1) * strength
            out = torch.maximum(out, line * has)
        # A frame line or a mark above or below the text (cut off by the detector's box).
        for edge in (0, 1):
            has = self._p(0.12, b)[:, None, None, None]
            pos = self._u(b, lo=0, hi=4)[:, None, None, None]
            pos = pos if edge == 0 else (H - 1 - pos)
            thick = self._u(b, lo=1, hi=4)[:, None, None, None]
            line = (1 - ((ys - pos).abs() - thick / 2).clamp(min=0)).clamp(0, 1)
            out = torch.maximum(out, line * has)
        # Specks of dirt.
        specks = (self._u(b, 1, H, W) < self._u(b, lo=0, hi=0.002)[:, None, None, None]).float()
        specks = F.max_pool2d(specks, 3, 1, 1) * self._p(0.4, b)[:, None, None, None]
        return torch.maximum(out, specks)

    def _seals(self, ink, share: float = SEAL_SHARE):
        """A seal printed over part of the column; it is no text, so the labels stay as they are.

        Collectors' and libraries' seals are stamped over the first columns of a juan, larger than a
        column: a column shows a slice of one. The slice is a band down the column holding the seal's border
        (thick lines across it, now and then one down a side where the column is at the seal's edge) and its
        seal script, here another column's characters enlarged 2-4 times so that only thick pieces of them
        show. It prints as a solid lighter tone or as dense dots (red ink in a grey or bilevel scan).
        """
        b, _, H, W = ink.shape
        dev = self.device
        on = self._p(share, b)[:, None, None, None]
        ys = torch.arange(H, device=dev, dtype=torch.float32)[None, None, :, None]
        xs = torch.arange(W, device=dev, dtype=torch.float32)[None, None, None, :]
        length = self._u(b, lo=0.25, hi=0.7)[:, None, None, None] * H
        top = self._u(b)[:, None, None, None] * (H - length)
        band = ((ys >= top) & (ys < top + length)).float()
        thick = self._u(b, lo=2.0, hi=6.0)[:, None, None, None]

        def line(distance):
            return (1 - (distance.abs() - thick / 2).clamp(min=0)).clamp(0, 1)

        # The border: across the column at the band's ends, now and then down a side (the seal's edge).
        border = torch.maximum(line(ys - top), line(ys - top - length)).expand(b, 1, H, W)
        side = self._u(b, lo=2, hi=8)[:, None, None, None]
        side = torch.where(self._p(0.5, b)[:, None, None, None], side, W - 1 - side)
        edge = self._p(0.3, b)[:, None, None, None].float()
        border = torch.maximum(border, line(xs - side) * band * edge)
        # Seal script: thick pieces of another column's characters, enlarged.
        zoom = float(self._u(1, lo=2.0, hi=4.0).item())
        big = F.interpolate(ink.roll(3, 0), scale_factor=zoom, mode="bilinear", align_corners=False)
        dy = int(self._u(1).item() * max(0, big.shape[2] - H))
        dx = int(self._u(1).item() * max(0, big.shape[3] - W))
        script = F.max_pool2d(big[:, :, dy : dy + H, dx : dx + W], 3, 1, 1) * band
        seal = torch.maximum(border, script)
        # Printed solid and lighter than the ink, or as dots of ink (2 px) where the seal is.
        tone = self._u(b, lo=0.3, hi=0.7)[:, None, None, None]
        density = self._u(b, lo=0.08, hi=0.25)[:, None, None, None]
        dots = F.pad(F.max_pool2d((self._u(b, 1, H, W) < density).float(), 2, 1), (0, 1, 0, 1))
        dotted = self._p(0.5, b)[:, None, None, None]
        printed = torch.where(dotted, seal * dots, seal * tone)
        return torch.maximum(ink, printed * on)

    def _paper(self, ink):
        """Grey: uneven paper, ink of some darkness, show-through of the leaf's other side."""
        b, _, H, W = ink.shape
        paper = self._u(b, lo=0.55, hi=1.0)[:, None, None, None]
        paper = paper - self._lowfreq(b, H, W, 24) * self._u(b, lo=0, hi=0.18)[:, None, None, None]
        # Ink at least 0.3 darker than the paper: fainter than that, a scan is not legible either.
        darkness = torch.minimum(self._u(b, lo=0.0, hi=0.35)[:, None, None, None], paper.amin(dim=(2, 3), keepdim=True) - 0.3)
        through = ink.flip(0).flip(-1) * self._u(b, lo=0, hi=0.15)[:, None, None, None] * self._p(0.3, b)[:, None, None, None]
        through = F.avg_pool2d(through, 5, 1, 2)
        grey = paper * (1 - through)
        return grey * (1 - ink) + darkness * ink

    def _optics(self, grey):
        """Blur, lower resolution, noise, JPEG-like blocking and, now and then, binarisation."""
        b, _, H, W = grey.shape
        # Blur: a Gaussian of per-column sigma, separable, as a grouped convolution.
        sigma = self._u(b, lo=0.3, hi=1.6)
        radius = 4
        t = torch.arange(-radius, radius + 1, device=self.device, dtype=torch.float32)
        k = torch.exp(-(t[None, :] ** 2) / (2 * sigma[:, None] ** 2))
        k = k / k.sum(1, keepdim=True)
        x = grey.reshape(1, b, H, W)
        x = F.pad(x, (radius, radius, radius, radius), mode="replicate")
        x = F.conv2d(x, k[:, None, None, :], groups=b)
        x = F.conv2d(x, k[:, None, :, None], groups=b)
        grey = x.reshape(b, 1, H, W)
        # Lower resolution: a quarter of the batch at each of four factors (1 keeps the resolution).
        parts = []
        for chunk, factor in zip(grey.chunk(4), (1.0, 1.4, 1.8, 2.4)):
            if factor > 1:
                small = F.interpolate(chunk, scale_factor=1 / factor, mode="area")
                chunk = F.interpolate(small, size=(H, W), mode="bilinear", align_corners=False)
            parts.append(chunk)
        grey = torch.cat(parts)  # (columns are independent draws: no need to shuffle the quarters)
        grey = grey + self._n(b, 1, H, W) * self._u(b, lo=0, hi=0.06)[:, None, None, None]
        grey = self._blocking(grey.clamp(0, 1))
        binary = self._p(0.12, b)[:, None, None, None]
        level = grey.mean(dim=(2, 3), keepdim=True) - self._u(b, lo=0.05, hi=0.2)[:, None, None, None]
        return torch.where(binary, (grey > level).float(), grey)

    def _blocking(self, grey):
        """JPEG-like: 8 × 8 DCT blocks, coefficients quantised more coarsely the higher their frequency."""
        b, _, H, W = grey.shape
        if H % 8 or W % 8:
            return grey
        n = torch.arange(8, device=self.device, dtype=torch.float32)
        d = torch.cos(math.pi * (2 * n[None, :] + 1) * n[:, None] / 16) * math.sqrt(2 / 8)
        d[0] /= math.sqrt(2)
        blocks = grey.reshape(b, H // 8, 8, W // 8, 8).permute(0, 1, 3, 2, 4)
        coef = d @ blocks @ d.T
        q = (1 + n[:, None] + n[None, :]) * self._u(b, lo=0.005, hi=0.03)[:, None, None, None, None]
        quantised = torch.round(coef / q) * q
        on = self._p(0.3, b)[:, None, None, None, None]
        coef = torch.where(on, quantised, coef)
        blocks = d.T @ coef @ d
        return blocks.permute(0, 1, 3, 2, 4).reshape(b, 1, H, W).clamp(0, 1)

    def _geometry(self, grey):
        """A slight rotation, shear, horizontal scale and shift; paper fills what comes in from outside."""
        b = grey.shape[0]
        H, W = grey.shape[2], grey.shape[3]
        angle = self._n(b, std=0.6) * math.pi / 180
        shear = self._n(b, std=0.015)
        sx = self._u(b, lo=0.92, hi=1.08)
        tx = self._n(b, std=0.04)
        cos, sin = torch.cos(angle), torch.sin(angle)
        aspect = H / W
        theta = torch.zeros(b, 2, 3, device=self.device)
        # In normalised coordinates (x across the width, y down the height, each in [-1, 1]).
        theta[:, 0, 0] = cos / sx
        theta[:, 0, 1] = (-sin + shear) * aspect
        theta[:, 0, 2] = tx
        theta[:, 1, 0] = sin / aspect
        theta[:, 1, 1] = cos
        grid = F.affine_grid(theta, list(grey.shape), align_corners=False)
        paper = grey.amax(dim=(2, 3), keepdim=True)
        out = F.grid_sample(grey - paper, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
        return out + paper
