"""Trains the column recogniser on synthetic columns for a fixed wall-clock budget, resumable.

    python3 training/train.py --budget 420 --resume training/checkpoint/recogniser.pt --out OUT

Each run starts from the checkpoint the last run left (its weights; a fresh optimiser with a short warm-up),
trains for `--budget` seconds with the learning rate on a cosine over that time, and writes to `--out`:
`recogniser.pt` (fp16 weights with their step and sample counts and figures, the next run's start),
`train.log`, `report.json` (synthetic and real-column CER along the way). A checkpoint is also written every
`--save-every` seconds, so a run cut short still leaves its progress. Real columns to score on
(`--real DIR`: crops made by training/real-columns.ts) are optional.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from model import ColumnRecognizer, parameters  # noqa: E402
from synth import WIDTH, ColumnSynth, normalise  # noqa: E402


def greedy(probs: torch.Tensor) -> list[list[int]]:
    """CTC best path: the likeliest class per step, repeats merged, blanks dropped."""
    best = probs.argmax(-1).cpu().numpy()
    out = []
    for row in best:
        seq, last = [], 0
        for c in row:
            if c != last and c != 0:
                seq.append(int(c))
            last = c
        out.append(seq)
    return out


def edit_distance(a, b) -> int:
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y))
        prev = cur
    return prev[-1]


def cer(pairs) -> float:
    errors = sum(edit_distance(t, r) for t, r in pairs)
    return errors / max(1, sum(len(t) for t, _ in pairs))


class RealColumns:
    """Column crops of real pages (training/real-columns.ts): per page, its columns in reading order."""

    def __init__(self, folder: pathlib.Path, chars: list[str]):
        from PIL import Image

        index = {ch: i + 1 for i, ch in enumerate(chars)}
        spec = json.loads((folder / "columns.json").read_text(encoding="utf8"))
        self.pages = []
        for page in spec["pages"]:
            crops = []
            for column in page["columns"]:
                grey = np.asarray(Image.open(folder / column["file"]).convert("L"), dtype=np.float32) / 255
                crops.append(torch.from_numpy(grey)[None, None])
            truth = [index.get(ch, -1) for ch in page["truth"] if not ch.isspace()]
            self.pages.append({"name": page["name"], "work": page.get("work", page["name"]), "crops": crops, "truth": truth})

    @torch.no_grad()
    def score(self, model, device) -> dict:
        model.eval()
        per_page = {}
        pairs = []
        for page in self.pages:
            read = []
            for crop in page["crops"]:
                h = crop.shape[2]
                pad = (-h) % 8
                x = F.pad(crop, (0, 0, 0, pad), value=1.0).to(device)
                x = normalise(x)
                read.extend(greedy(model(x))[0])
            pairs.append((page["truth"], read))
            per_page[page["name"]] = round(cer([(page["truth"], read)]), 4)
        model.train()
        return {"mean_page_cer": round(float(np.mean(list(per_page.values()))), 4), "pooled_cer": round(cer(pairs), 4), "pages": per_page}


def save(model, path: pathlib.Path, meta: dict):
    state = {k: (v.half() if v.is_floating_point() else v) for k, v in model.state_dict().items()}
    tmp = path.with_suffix(".tmp")
    torch.save({"model": state, "meta": meta}, tmp)
    os.replace(tmp, path)


def main():
    here = pathlib.Path(__file__).resolve().parent
    ap = argparse.ArgumentParser()
    ap.add_argument("--atlas", default=str(here / ".cache/atlas.npz"))
    ap.add_argument("--text", default=str(here / ".cache/text-ids.npz"))
    ap.add_argument("--charset", default=str(here / "charset.txt"))
    ap.add_argument("--resume", default="")
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=float, default=420, help="seconds of training")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--height", type=int, default=640)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--warmup", type=float, default=0.04, help="share of the budget")
    ap.add_argument("--eval-every", type=float, default=60, help="seconds")
    ap.add_argument("--save-every", type=float, default=90, help="seconds")
    ap.add_argument("--real", default="", help="folder of real column crops")
    ap.add_argument("--tiny", action="store_true", help="a small model (CPU smoke tests)")
    ap.add_argument("--seed", type=int, default=29)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log_file = open(out / "train.log", "a", encoding="utf8")

    def log(line: str):
        stamp = time.strftime("%H:%M:%S")
        print(f"[{stamp}] {line}", flush=True)
        log_file.write(f"[{stamp}] {line}\n")
        log_file.flush()

    chars = [c for c in pathlib.Path(args.charset).read_text(encoding="utf8").split("\n") if c]
    synth = ColumnSynth(args.atlas, args.text, device=device, height=args.height, seed=args.seed)
    assert synth.classes == len(chars) + 1, "atlas and charset differ"
    sizes = dict(channels=(8, 16, 32, 64), hidden=32, layers=1) if args.tiny else {}
    meta = {"steps": 0, "samples": 0, "seconds": 0.0, "runs": [], "sizes": sizes, "height": args.height}
    model = ColumnRecognizer(synth.classes, **sizes).to(device)
    if args.resume and pathlib.Path(args.resume).exists():
        checkpoint = torch.load(args.resume, map_location="cpu")
        meta = checkpoint["meta"]
        model = ColumnRecognizer(synth.classes, **meta.get("sizes", {})).to(device)
        model.load_state_dict({k: v.float() if v.is_floating_point() else v for k, v in checkpoint["model"].items()})
        log(f"resumed from {args.resume}: {meta['steps']} steps, {meta['samples']} samples, {meta['seconds']:.0f} s")
    model = model.to(memory_format=torch.channels_last)
    log(f"device {device} ({torch.cuda.get_device_name() if device.type == 'cuda' else 'cpu'}), model {parameters(model)} parameters, {synth.classes} classes")

    real = RealColumns(pathlib.Path(args.real), chars) if args.real else None
    val = [synth.batch(args.batch) for _ in range(2)]
    for b in val:
        b.images = b.images.cpu()

    @torch.no_grad()
    def synthetic_cer() -> float:
        model.eval()
        pairs = []
        for b in val:
            probs = model(b.images.to(device))
            for i, read in enumerate(greedy(probs)):
                pairs.append((b.labels[i, : b.lengths[i]].tolist(), read))
        model.train()
        return round(cer(pairs), 4)

    resumed = meta["steps"] > 0
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    use_amp = device.type == "cuda"
    ctc = torch.nn.CTCLoss(blank=0, zero_infinity=True)
    report = {"evals": [], "start": dict(steps=meta["steps"], samples=meta["samples"])}

    def evaluate(tag: str):
        entry = {"tag": tag, "steps": meta["steps"], "samples": meta["samples"], "synthetic_cer": synthetic_cer()}
        if real:
            entry["real"] = real.score(model, device)
        report["evals"].append(entry)
        log(f"eval {tag}: synthetic CER {entry['synthetic_cer']}" + (f", real pages mean {entry['real']['mean_page_cer']} pooled {entry['real']['pooled_cer']}" if real else ""))
        (out / "report.json").write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf8")

    evaluate("start")
    model.train()
    start = time.time()
    last_eval = last_save = start
    run = {"budget": args.budget, "batch": args.batch, "lr": args.lr, "device": str(device), "steps": 0, "samples": 0}
    losses = []
    gen_time = 0.0
    peak = args.lr * (0.5 if resumed else 1.0)
    while True:
        elapsed = time.time() - start
        if elapsed >= args.budget:
            break
        progress = elapsed / args.budget
        lr = peak * min(1.0, progress / args.warmup) * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * progress)))
        for group in optimiser.param_groups:
            group["lr"] = lr
        t0 = time.time()
        with torch.no_grad():
            batch = synth.batch(args.batch)
        if device.type == "cuda":
            torch.cuda.synchronize()
        gen_time += time.time() - t0
        images = batch.images.contiguous(memory_format=torch.channels_last)
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=use_amp):
            logits = model.logits(images)
        log_probs = logits.float().log_softmax(-1).transpose(0, 1)  # [T, N, C]
        steps = torch.full((log_probs.shape[1],), log_probs.shape[0], dtype=torch.long)
        loss = ctc(log_probs, batch.labels, steps, batch.lengths)
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimiser.step()
        losses.append(loss.item())
        meta["steps"] += 1
        meta["samples"] += args.batch
        run["steps"] += 1
        run["samples"] += args.batch
        now = time.time()
        if run["steps"] % 50 == 0:
            rate = run["samples"] / (now - start)
            log(f"step {meta['steps']} loss {np.mean(losses[-50:]):.3f} lr {lr:.2e} {rate:.0f} samples/s (generator {gen_time / (now - start):.0%} of the time)")
        if now - last_eval >= args.eval_every:
            evaluate(f"{now - start:.0f}s")
            last_eval = time.time()
        if now - last_save >= args.save_every:
            meta["seconds"] += now - last_save
            save(model, out / "recogniser.pt", meta)
            last_save = time.time()
    meta["seconds"] += time.time() - last_save
    run["seconds"] = round(time.time() - start, 1)
    run["samples_per_second"] = round(run["samples"] / max(1e-9, run["seconds"]))
    run["generator_share"] = round(gen_time / max(1e-9, run["seconds"]), 3)
    meta["runs"].append(run)
    evaluate("end")
    meta["last"] = report["evals"][-1]
    save(model, out / "recogniser.pt", meta)
    report["meta"] = meta
    (out / "report.json").write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf8")
    log(f"done: {run['steps']} steps, {run['samples']} samples in {run['seconds']} s; total {meta['steps']} steps, {meta['samples']} samples")


if __name__ == "__main__":
    main()
