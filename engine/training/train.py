#!/usr/bin/env python3
"""Trains PageNet on the pairs of make_pairs.py and exports it to ONNX for the engine.

Usage: python3 train.py --pairs DIR [--pairs DIR2 ...] --out engine/models/page-restore --minutes 60
Writes OUT.onnx (the best checkpoint by validation loss, exported once training ends) and OUT.json (the manifest:
data recipes, iterations, time, losses). Runs on CPU (2 threads here); a GPU is used when present.
"""
import argparse
import glob
import json
import os
import subprocess
import time

import numpy as np
import torch
from PIL import Image

from export import export
from model import PageNet

PATCH = 192
BATCH = 12
INK_WEIGHT = 4.0  # pixels of ink weigh this much more than paper: the words are what a reader needs


def pair_paths(dirs):
    """Finished pairs (the clean page is written last), so training may start while make_pairs.py still runs."""
    paths = []
    for d in dirs:
        paths += [p for p in sorted(glob.glob(os.path.join(d, "*_in.png")))
                  if os.path.exists(p.replace("_in.png", "_clean.png"))]
    return paths


def load_pair(path):
    """The pair as arrays, or None while make_pairs.py is still writing it."""
    try:
        degraded = Image.open(path).convert("RGB")
        clean = Image.open(path.replace("_in.png", "_clean.png")).convert("L")
        return np.asarray(degraded), np.asarray(clean)
    except (OSError, SyntaxError):
        return None


def ink_points(clean):
    """Pixels of ink, where most patches are centred (a page is mostly margin)."""
    ys, xs = np.nonzero(clean[::4, ::4] < 128)
    return np.stack([ys * 4, xs * 4], axis=1) if len(ys) else None


class Patches:
    def __init__(self, pairs, rng):
        self.pairs = list(pairs)
        self.ink = [ink_points(c) for _, c in pairs]
        self.rng = rng

    def add(self, pair):
        self.pairs.append(pair)
        self.ink.append(ink_points(pair[1]))

    def batch(self, n):
        xs, ys = [], []
        for _ in range(n):
            i = int(self.rng.integers(len(self.pairs)))
            deg, clean = self.pairs[i]
            h, w = clean.shape
            pts = self.ink[i]
            if pts is not None and self.rng.random() < 0.8:
                cy, cx = pts[int(self.rng.integers(len(pts)))]
                y = int(np.clip(cy - PATCH // 2 + self.rng.integers(-48, 49), 0, h - PATCH))
                x = int(np.clip(cx - PATCH // 2 + self.rng.integers(-48, 49), 0, w - PATCH))
            else:
                y, x = int(self.rng.integers(h - PATCH + 1)), int(self.rng.integers(w - PATCH + 1))
            xs.append(deg[y:y + PATCH, x:x + PATCH])
            ys.append(clean[y:y + PATCH, x:x + PATCH])
        x = torch.from_numpy(np.stack(xs)).permute(0, 3, 1, 2).float() / 255
        y = torch.from_numpy(np.stack(ys))[:, None].float() / 255
        return x, y


def weighted_l1(pred, clean):
    weight = 1 + INK_WEIGHT * (1 - clean)
    return (weight * (pred - clean).abs()).mean()


def initial_weights(path):
    """A checkpoint's weights: a .pt of train.py, or an exported .onnx (the committed network), whose initializers
    carry the model's parameter names, so a new run can go on from the weights in the repository."""
    if not path.endswith(".onnx"):
        return torch.load(path)
    import onnx
    from onnx import numpy_helper
    graph = onnx.load(path).graph
    return {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in graph.initializer}


def git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", action="append", required=True)
    ap.add_argument("--out", required=True, help="path without extension: OUT.onnx and OUT.json")
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--init", help="start from this checkpoint (.pt, or an exported .onnx) instead of random weights")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    started = time.time()
    rng = np.random.default_rng(args.seed)
    # Every 20th pair (by name) is kept for validation; pairs written later join the training set as they come.
    paths = pair_paths(args.pairs)
    is_val = lambda p: int(os.path.basename(p).split("_")[0]) % 20 == 0  # noqa: E731
    loaded = {p: load_pair(p) for p in paths}
    loaded = {p: pair for p, pair in loaded.items() if pair is not None}
    val = Patches([pair for p, pair in loaded.items() if is_val(p)], np.random.default_rng(args.seed + 1))
    seen = set(loaded)
    train = Patches([pair for p, pair in loaded.items() if not is_val(p)], rng)
    val_batches = [val.batch(BATCH) for _ in range(8)]
    print("%d training pages, %d validation pages, loaded in %.0f s" % (len(train.pairs), len(val.pairs),
                                                                         time.time() - started), flush=True)

    model = PageNet()
    if args.init:
        model.load_state_dict(initial_weights(args.init))
    model = model.to(device)
    params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = args.minutes * 60
    t0 = time.time()
    best, best_state, it, history = float("inf"), None, 0, []
    while time.time() - t0 < budget:
        # cosine schedule over the time budget
        frac = min(1.0, (time.time() - t0) / budget)
        for g in opt.param_groups:
            g["lr"] = args.lr * 0.5 * (1 + np.cos(np.pi * frac))
        model.train()
        x, y = train.batch(BATCH)
        x, y = x.to(device), y.to(device)
        loss = weighted_l1(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        it += 1
        if it % 200 == 0:
            for p in pair_paths(args.pairs):
                if p in seen:
                    continue
                pair = load_pair(p)
                if pair is None:
                    continue
                if not is_val(p):
                    train.add(pair)
                seen.add(p)
        if it % 250 == 0 or time.time() - t0 >= budget:
            model.eval()
            with torch.no_grad():
                v = float(np.mean([weighted_l1(model(a.to(device)), b.to(device)).item() for a, b in val_batches]))
                ident = float(np.mean([weighted_l1(a.mean(1, keepdim=True), b).item() for a, b in val_batches]))
            history.append({"iteration": it, "seconds": round(time.time() - t0), "train": round(loss.item(), 5),
                            "validation": round(v, 5)})
            print("it %d  %.0f s  %d pages  train %.4f  val %.4f (input %.4f)" % (it, time.time() - t0, len(train.pairs),
                                                                             loss.item(), v, ident),
                  flush=True)
            if v < best:
                best = v
                best_state = {k: t.detach().cpu().clone() for k, t in model.state_dict().items()}
                torch.save(best_state, args.out + ".pt")
    model = PageNet()
    model.load_state_dict(best_state)
    export(model, args.out + ".onnx")
    recipes = []
    for d in args.pairs:
        with open(os.path.join(d, "recipe.json")) as fh:
            r = json.load(fh)
        r.pop("pairs", None)
        recipes.append(r)
    manifest = {
        "model": "PageNet", "widths": [12, 24, 32, 48], "parameters": params, "input": "RGB page in [0, 1], NCHW",
        "output": "grey page in [0, 1]", "multiple": PageNet.MULTIPLE, "patch": PATCH, "batch": BATCH,
        "ink_weight": INK_WEIGHT, "lr": args.lr, "seed": args.seed, "init": args.init, "iterations": it,
        "training_seconds": round(time.time() - t0), "device": device, "threads": args.threads,
        "training_pages": len(train.pairs), "validation_pages": len(val.pairs), "validation_loss": round(best, 5), "commit": git_commit(), "data": recipes, "history": history,
    }
    with open(args.out + ".json", "w") as fh:
        json.dump(manifest, fh, indent=1)
    print("exported %s.onnx (%d parameters), best validation %.4f after %d iterations" % (args.out, params, best, it))


if __name__ == "__main__":
    main()
