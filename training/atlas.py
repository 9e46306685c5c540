"""The glyph atlas: every charset character drawn once in every face, 48 × 48 px, one bit a pixel.

    python3 training/atlas.py training/charset.txt training/.cache/fonts training/.cache/atlas.npz

The synthetic columns (synth.py) are composed from it on the GPU, so no font is rasterised while training.
A face lacking a character borrows it from the first face of the same style that has it (`slot`). With
`--check`, prints the charset characters no face draws (charset.py's list is then trimmed by hand).
"""
import multiprocessing
import pathlib
import sys

import numpy as np
from fontTools.ttLib import TTCollection, TTFont
from PIL import Image, ImageDraw, ImageFont

SIZE = 48
# The em square drawn inside the glyph box; CJK faces put the ideographic em box from 0.12 em below the
# baseline to 0.88 em above it.
EM = 44
BASELINE = round((SIZE - EM) / 2 + 0.88 * EM)

# name, file, index in a collection, style, extra files searched for characters the main file lacks.
# (HanaMin draws 一 as a dot through FreeType, so it serves only for characters TW-Sung lacks.)
# Ming/Song faces stand for woodblock prints and movable type, Kai (regular script) faces for manuscripts.
FACES = [
    ("uming-tw", "uming.ttc", 2, "ming", []),
    ("bsmi", "bsmi00lp.ttf", 0, "ming", []),
    ("cwming", "cwming.ttf", 0, "ming", []),
    ("tw-sung", "TW-Sung-98_1.ttf", 0, "ming", ["TW-Sung-Ext-B-98_1.ttf", "TW-Sung-Plus-98_1.ttf", "HanaMinA.ttf", "HanaMinB.ttf"]),
    ("ipamj", "ipamjm.ttf", 0, "ming", []),
    ("ipaex", "ipaexm.ttf", 0, "ming", []),
    ("noto-serif-tc", "NotoSerifCJK-Regular.ttc", 3, "ming", []),
    ("noto-serif-jp", "NotoSerifCJK-Regular.ttc", 0, "ming", []),
    ("noto-serif-kr", "NotoSerifCJK-Regular.ttc", 1, "ming", []),
    ("noto-serif-tc-bold", "NotoSerifCJK-Bold.ttc", 3, "ming", []),
    ("ukai-tw", "ukai.ttc", 2, "kai", []),
    ("bkai", "bkai00mp.ttf", 0, "kai", []),
    ("cwkai", "cwkai.ttf", 0, "kai", []),
    ("tw-kai", "TW-Kai-98_1.ttf", 0, "kai", ["TW-Kai-Ext-B-98_1.ttf", "TW-Kai-Plus-98_1.ttf"]),
    ("lxgw", "LXGWWenKai-Regular.ttf", 0, "kai", []),
    ("lxgw-bold", "LXGWWenKai-Bold.ttf", 0, "kai", []),
    ("klee", "KleeOne-SemiBold.ttf", 0, "kai", []),
    ("cwfs", "cwfs.ttf", 0, "kai", []),
]


def cmap_of(path: pathlib.Path, index: int) -> set[int]:
    font = TTCollection(str(path), lazy=True).fonts[index] if path.suffix == ".ttc" else TTFont(str(path), lazy=True)
    return set(font.getBestCmap().keys())


def render_face(args):
    """The face's glyphs of `chars` (None where it has no inked glyph), as packed bits."""
    fonts_dir, face, chars = args
    name, file, index, _style, extras = face
    files = [(fonts_dir / file, index)] + [(fonts_dir / extra, 0) for extra in extras]
    cmaps = [cmap_of(p, i) for p, i in files]
    fonts = [ImageFont.truetype(str(p), EM, index=i) for p, i in files]
    out = []
    for ch in chars:
        glyph = None
        for cmap, font in zip(cmaps, fonts):
            if ord(ch) not in cmap:
                continue
            image = Image.new("L", (SIZE, SIZE), 0)
            ImageDraw.Draw(image).text((SIZE / 2, BASELINE), ch, fill=255, font=font, anchor="ms")
            bits = np.asarray(image) >= 128
            if bits.sum() > 0:
                glyph = np.packbits(bits, axis=-1)
                break
        out.append(glyph)
    print(f"  {name}: {sum(g is not None for g in out)} of {len(chars)}", file=sys.stderr)
    return out


def build(charset_file: pathlib.Path, fonts_dir: pathlib.Path):
    chars = [line for line in charset_file.read_text(encoding="utf8").split("\n") if line]
    with multiprocessing.Pool() as pool:
        per_face = pool.map(render_face, [(fonts_dir, face, chars) for face in FACES])
    glyphs = []
    own = np.full((len(FACES), len(chars)), -1, dtype=np.int32)
    for f, faces_glyphs in enumerate(per_face):
        for c, glyph in enumerate(faces_glyphs):
            if glyph is not None:
                own[f, c] = len(glyphs)
                glyphs.append(glyph)
    # A missing glyph is borrowed: first from a face of the same style, then from any face.
    slot = own.copy()
    styles = [face[3] for face in FACES]
    for f in range(len(FACES)):
        for c in np.nonzero(own[f] < 0)[0]:
            order = [g for g in range(len(FACES)) if styles[g] == styles[f]] + list(range(len(FACES)))
            for g in order:
                if own[g, c] >= 0:
                    slot[f, c] = own[g, c]
                    break
    missing = [chars[c] for c in range(len(chars)) if slot[0, c] < 0]
    return chars, np.stack(glyphs), slot, own >= 0, missing


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    chars, glyphs, slot, has, missing = build(pathlib.Path(args[0]), pathlib.Path(args[1]))
    if "--check" in sys.argv:
        print("".join(missing))
        sys.exit(0)
    if missing:
        sys.exit(f"no face draws: {''.join(missing)}")
    np.savez_compressed(
        args[2],
        glyphs=glyphs,
        slot=slot,
        has=has,
        styles=np.array([face[3] for face in FACES]),
        names=np.array([face[0] for face in FACES]),
    )
    print(f"{args[2]}: {len(glyphs)} glyphs of {len(chars)} characters in {len(FACES)} faces", file=sys.stderr)
