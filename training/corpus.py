"""The text the synthetic columns are cut from, as charset class ids (uint16, 1-based; 0 ends a text).

    python3 training/corpus.py training/charset.txt training/.cache/text.txt training/.cache/text-ids.npz

Characters outside the charset (punctuation, Latin) are dropped; each line of the text file (one source
text) ends with 0, so no column runs from one text into the next. The prose of the classics is taken
whole; the poems are sampled (a fixed seed) to keep the file small enough to carry to a GPU machine.
"""
import pathlib
import random
import sys

import numpy as np

MAX_CHARS = 6_000_000
SEED = 20261128


def build(charset_file: pathlib.Path, text_file: pathlib.Path) -> np.ndarray:
    chars = [line for line in charset_file.read_text(encoding="utf8").split("\n") if line]
    index = {ch: i + 1 for i, ch in enumerate(chars)}
    texts = []
    for line in text_file.read_text(encoding="utf8").split("\n"):
        ids = [index[ch] for ch in line if ch in index]
        if len(ids) >= 4:
            texts.append(ids)
    total = sum(len(t) for t in texts)
    if total > MAX_CHARS:
        # Long texts (prose: a chapter, an essay) are kept; short ones (a poem) are sampled.
        rng = random.Random(SEED)
        long = [t for t in texts if len(t) >= 400]
        short = [t for t in texts if len(t) < 400]
        rng.shuffle(short)
        budget = MAX_CHARS - sum(len(t) for t in long)
        kept = []
        for t in short:
            if budget <= 0:
                break
            kept.append(t)
            budget -= len(t)
        texts = long + kept
        rng.shuffle(texts)
    out = []
    for t in texts:
        out.extend(t)
        out.append(0)
    return np.array(out, dtype=np.uint16)


if __name__ == "__main__":
    ids = build(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
    np.savez_compressed(sys.argv[3], ids=ids)
    print(f"{sys.argv[3]}: {len(ids)} ids, {len(np.unique(ids)) - 1} distinct characters", file=sys.stderr)
