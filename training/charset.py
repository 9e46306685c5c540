"""The recogniser's charset: every Han character of the texts at hand that occurs at least twice, every
character of the real pages' transcriptions, and the variant forms the transcriptions distinguish.

    python3 training/charset.py training/.cache/text.txt > training/charset.txt

One character a line, ordered by code point; class 0 of the model is the CTC blank and class i (1-based)
is line i. Characters no face of the atlas draws are left out by atlas.py's check (`--check`).
"""
import collections
import pathlib
import sys
import unicodedata

ROOT = pathlib.Path(__file__).resolve().parent
SHARED = ROOT.parent.parent / "shared" / "data"
# Pairs the real pages' README folds for scoring: both forms occur on real pages, so both are classes.
VARIANTS = (
    "為爲 眾衆 黃黄 說説 內内 陰隂 德徳 隱隠 錄録 別别 真眞 修脩 華花 青靑 既旣 即卽 決决 減减 弊獘 疏踈 "
    "略畧 蓋葢盖 穎頴 祇祗 稟禀 世丗 壽夀 溫温 注註 幷并 高髙 顏顔 懷懐 兗兖 敕勅 並竝 事亊 玄𤣥 弘𢎞 〇"
)
MIN_COUNT = 2


def is_han(ch: str) -> bool:
    return ch == "〇" or unicodedata.name(ch, "").startswith("CJK UNIFIED IDEOGRAPH") or (
        0xF900 <= ord(ch) <= 0xFAFF
    )


def build(text_file: pathlib.Path) -> list[str]:
    counts: collections.Counter[str] = collections.Counter()
    with open(text_file, encoding="utf8") as f:
        for line in f:
            counts.update(line)
    chars = {ch for ch, n in counts.items() if n >= MIN_COUNT and is_han(ch)}
    for gt in sorted(SHARED.glob("ocr-real/**/*.gt.txt")):
        chars.update(ch for ch in gt.read_text(encoding="utf8") if is_han(ch))
    chars.update(ch for ch in VARIANTS if is_han(ch))
    # Compatibility ideographs (U+F900–FAFF) are normalised forms of unified ones: not classes of their own.
    chars = {ch for ch in chars if not 0xF900 <= ord(ch) <= 0xFAFF}
    return sorted(chars)


if __name__ == "__main__":
    for ch in build(pathlib.Path(sys.argv[1])):
        print(ch)
