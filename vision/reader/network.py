"""A small fully connected network (ReLU hidden layers, one logit out) in plain numpy.

The reader's learned parts (`match`, `trust`) are such networks. They are
trained by `vision/reader/train.py` on rendered frames and shipped as ``.npz`` files next to
this module (``models/``): weights, the input scaling, the names of the inputs they were
trained on (a mismatch is an error, not a silent misreading) and a decision threshold. Several
networks trained alike from different random starts can ship as one (`Network.mean_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

MODELS = Path(__file__).with_name("models")


@dataclass(frozen=True)
class Network:
    """Input scaling, layers ((weights, bias), ...) and the logit threshold for "yes"."""

    inputs: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]
    threshold: float = 0.0

    @classmethod
    def mean_of(cls, networks: Sequence[Network], threshold: float = 0.0) -> Network:
        """One network whose logit is the mean of these networks' logits (same inputs and
        depth): their layers side by side, the input scaling folded into the first."""
        firsts = [network.folded[0] for network in networks]
        layers = [(np.hstack([w for w, _ in firsts]), np.concatenate([b for _, b in firsts]))]
        for depth in range(1, len(networks[0].layers) - 1):
            blocks = [network.layers[depth] for network in networks]
            weights = np.zeros((sum(w.shape[0] for w, _ in blocks),
                                sum(w.shape[1] for w, _ in blocks)), np.float32)
            row = column = 0
            for w, _ in blocks:
                weights[row:row + w.shape[0], column:column + w.shape[1]] = w
                row, column = row + w.shape[0], column + w.shape[1]
            layers.append((weights, np.concatenate([b for _, b in blocks])))
        lasts = [network.layers[-1] for network in networks]
        layers.append((np.vstack([w for w, _ in lasts]) / len(networks),
                       np.mean([b for _, b in lasts], axis=0).astype(np.float32)))
        count = len(networks[0].inputs)
        return cls(networks[0].inputs, np.zeros(count, np.float32), np.ones(count, np.float32),
                   tuple(layers), threshold)

    @classmethod
    def load(cls, path: Path, inputs: tuple[str, ...]) -> Network:
        """A saved network; `inputs` must be the names it was trained on."""
        with np.load(path) as data:
            saved = tuple(str(name) for name in data["inputs"])
            if saved != inputs:
                raise ValueError(f"{path}: trained on inputs {saved}, the reader has {inputs}")
            count = int(data["layer_count"])
            layers = tuple((data[f"w{i}"], data[f"b{i}"]) for i in range(count))
            return cls(saved, data["mean"], data["scale"], layers, float(data["threshold"]))

    def save(self, path: Path) -> None:
        """Write the network as an .npz file."""
        arrays: dict[str, Any] = {
            "inputs": np.array(self.inputs), "mean": self.mean, "scale": self.scale,
            "threshold": np.float64(self.threshold), "layer_count": np.int64(len(self.layers))}
        arrays |= {f"w{i}": w for i, (w, _) in enumerate(self.layers)}
        arrays |= {f"b{i}": b for i, (_, b) in enumerate(self.layers)}
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, **arrays)

    @cached_property
    def folded(self) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        """The layers with the input scaling folded into the first one."""
        weights, bias = self.layers[0]
        first = (weights / self.scale[:, None], bias - (self.mean / self.scale) @ weights)
        return (first, *self.layers[1:])

    def logits(self, rows: np.ndarray) -> np.ndarray:
        """(rows,) log-odds of "yes" for (rows, inputs) features."""
        layers = self.folded
        values = rows
        for weights, bias in layers[:-1]:
            values = values @ weights
            values += bias
            np.maximum(values, 0.0, out=values)
        weights, bias = layers[-1]
        return np.asarray((values @ weights)[:, 0] + bias[0])
