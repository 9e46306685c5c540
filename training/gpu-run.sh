#!/usr/bin/env bash
# The one prepared GPU run of issue 29: trains the column recogniser from the committed checkpoint
# (training/checkpoint/recogniser.pt; from scratch when there is none) for BUDGET seconds and writes the
# new checkpoint, its log and report, and an ONNX export to $OUT. training/README.md gives the device call
# (it carries training/.cache/atlas.npz, text-ids.npz and real/, made beforehand on the CPU).
# Tried on the CPU first with: PYTHON=/usr/bin/python3 OUT=/tmp/gpu-out BUDGET=20 BATCH=8 EXTRA=--tiny bash training/gpu-run.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu-out}
BUDGET=${BUDGET:-480}
BATCH=${BATCH:-384}
PYTHON=${PYTHON:-python3}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; "$PYTHON" -c 'import torch; print("torch", torch.__version__)'; } > "$OUT/gpu.txt" 2>&1
"$PYTHON" training/train.py --budget "$BUDGET" --batch "$BATCH" --resume training/checkpoint/recogniser.pt \
  --out "$OUT" --real training/.cache/real ${EXTRA:-} > "$OUT/console.log" 2>&1
echo "train.py exit $?" >> "$OUT/console.log"
timeout 90 "$PYTHON" training/export.py "$OUT/recogniser.pt" "$OUT/column-recogniser.onnx" >> "$OUT/console.log" 2>&1 \
  || echo "ONNX export failed there (training/export.py makes it here)" >> "$OUT/console.log"
tail -5 "$OUT/console.log"
