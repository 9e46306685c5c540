"""The column recogniser: a CNN that reads a column 48 px wide down its length, a bidirectional LSTM over
its rows, and a CTC classifier over the charset.

Input [N, 1, H, 48], grey in [0, 1] with paper light (any H that is a multiple of 8). Output, per row step
of 8 px (H / 8 steps), the probabilities of the blank (class 0) and of every charset character. The
product reads the steps' best classes as the column's characters and each step's rows as the
character's place (ocr/column-recognizer.ts).
"""
from __future__ import annotations

import torch
from torch import nn


def conv(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Residual(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels, channels, 3, padding=1, bias=False),
            nn.BatchNorm2d(channels),
            nn.ReLU(inplace=True),
            nn.Conv2d(channels, channels, 3, padding=1, bias=False),
            nn.BatchNorm2d(channels),
        )
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.act(x + self.body(x))


class ColumnRecognizer(nn.Module):
    """Sizes: `channels` of the four CNN stages, `hidden` units of the LSTM each way."""

    def __init__(self, classes: int, channels=(32, 64, 128, 256), hidden: int = 160, layers: int = 2):
        super().__init__()
        c1, c2, c3, c4 = channels
        self.cnn = nn.Sequential(
            conv(1, c1),
            nn.MaxPool2d(2),  # H/2 × 24
            conv(c1, c2),
            Residual(c2),
            nn.MaxPool2d(2),  # H/4 × 12
            conv(c2, c3),
            Residual(c3),
            nn.MaxPool2d(2),  # H/8 × 6
            conv(c3, c4),
            Residual(c4),
            nn.MaxPool2d((1, 2)),  # H/8 × 3
        )
        # The remaining three columns of the width, taken together (where in the width the ink is).
        self.collapse = nn.Sequential(nn.Conv2d(c4, c4, (1, 3), bias=False), nn.BatchNorm2d(c4), nn.ReLU(inplace=True))
        self.rnn = nn.LSTM(c4, hidden, num_layers=layers, bidirectional=True, batch_first=True)
        self.classifier = nn.Linear(2 * hidden, classes)

    def logits(self, images: torch.Tensor) -> torch.Tensor:
        """[N, T, classes] for [N, 1, H, 48] images (paper light), T = H / 8."""
        x = self.cnn(1 - images)
        x = self.collapse(x)  # [N, C, T, 1]
        x = x.squeeze(3).transpose(1, 2)  # [N, T, C]
        # The LSTM in full precision, also under mixed-precision training.
        with torch.autocast(device_type=x.device.type, enabled=False):
            x, _ = self.rnn(x.float())
        return self.classifier(x)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        """Per step probabilities [N, T, classes] (what the ONNX model gives the product)."""
        return self.logits(images).softmax(-1)


def parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
