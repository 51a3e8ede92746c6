#!/usr/bin/env python3
"""Trains PhotoNet (the photo network, or with --recipe dust the dust network) on photos from Debian's wallpaper
packages and exports it to ONNX for the engine.

The photos are none of the benchmark's (those come from scikit-image, SciPy and Matplotlib): KDE Plasma's,
MATE's, UKUI's and Lomiri's wallpapers (`make install-train-photo` installs them), photographs and renders. Each
is reduced to a random width of 450-1300 px (sharp, like the small photos users restore) and damaged with this
script's own recipe, not the benchmark generator's: enlarged back from 1.6-4.5x smaller (nearest, bilinear,
bicubic or Lanczos), JPEG at quality 8-50 (4:2:0, sometimes 4:4:4), both, noise then JPEG, a light blur then JPEG,
or nothing (5 %). The dust recipe (`dust_damage`): spots, lines and hairs, light and dark, on the photo as it is or
lightly blurred, noisy or JPEG-compressed; a tenth left clean. A fifth of the photos are grey. The damage is drawn
again every 1,500 iterations.

Usage: python3 train_photo.py --out engine/weights/photo-net --minutes 40 [--init CHECKPOINT.pt --lr 5e-4
       --textured 0.5]
       python3 train_photo.py --out engine/weights/dust-net --recipe dust --lr 1e-3 --textured 0.5 --minutes 30
Writes OUT.pt (best checkpoint by validation PSNR), OUT.onnx and OUT.json (the manifest: sources, recipe,
iterations, time, validation PSNR, and the manifest of the --init run it continued, if any).
"""
import argparse
import glob
import io
import json
import os
import time

import cv2
import numpy as np
import torch
from PIL import Image

from photo_model import PhotoNet
from train import git_commit

PATCH = 96
BATCH = 16
REDRAW = 1500


def sources():
    """Every wallpaper photo once (KDE ships each in several sizes: the largest is kept)."""
    found = [p for p in glob.glob("/usr/share/backgrounds/**/*", recursive=True)
             if p.lower().endswith((".jpg", ".png")) and "_3840" not in p and "_5640" not in p]
    for d in glob.glob("/usr/share/wallpapers/*/contents/images*"):
        found.append(max(glob.glob(d + "/*"), key=os.path.getsize))
    return sorted(set(found))


def jpeg(img, quality, subsampling):
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "JPEG", quality=int(quality), subsampling=subsampling)
    return np.asarray(Image.open(io.BytesIO(buf.getvalue())))


def enlarged(img, rng):
    f = rng.uniform(1.6, 4.5)
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(8, int(w / f)), max(8, int(h / f))), interpolation=cv2.INTER_AREA)
    flag = [cv2.INTER_NEAREST, cv2.INTER_LINEAR, cv2.INTER_CUBIC, cv2.INTER_LANCZOS4][
        int(rng.choice(4, p=[0.25, 0.3, 0.3, 0.15]))]
    return cv2.resize(small, (w, h), interpolation=flag)


def noisy(img, rng):
    """Sensor-like noise: slightly correlated, mostly in luminance."""
    s = rng.uniform(2, 10)
    n = rng.standard_normal(img.shape[:2]).astype(np.float32)
    n = cv2.GaussianBlur(n, (0, 0), rng.uniform(0.3, 0.8))
    n /= n.std() + 1e-6
    out = img.astype(np.float32) + s * (n[..., None] if img.ndim == 3 else n)
    if img.ndim == 3:
        out += s * 0.3 * rng.standard_normal(img.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def specks(img, rng):
    """Dust, hairs and scratches on the print: spots of about 1-10 px, light (dust on the negative) or dark (dust on the
    print), thin light or dark lines, straight or bent, and curly dark hairs; from a few to a few hundred."""
    h, w = img.shape[:2]
    light = np.zeros((h, w), np.float32)
    dark = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(3, 8 + int(300 * rng.random() ** 2)))):
        target = light if rng.random() < 0.5 else dark
        r = rng.uniform(0.4, 3.0)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        ax = r * rng.uniform(0.6, 1.6)
        cv2.ellipse(target, ((cx, cy), (2 * ax, 2 * r), rng.uniform(0, 180)), float(rng.uniform(0.4, 1.0)), -1,
                    cv2.LINE_AA)
    for _ in range(int(rng.integers(0, 9))):
        target = light if rng.random() < 0.6 else dark
        n = int(rng.integers(2, 6))
        length = rng.uniform(20, 1.2 * max(h, w))
        angle = rng.uniform(0, np.pi)
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        pts = [(x, y)]
        for _ in range(n):
            angle += rng.normal(0, 0.15)
            x, y = x + np.cos(angle) * length / n, y + np.sin(angle) * length / n
            pts.append((x, y))
        width = 1 if rng.random() < 0.7 else 2
        cv2.polylines(target, [np.int32(np.round(pts))], False, float(rng.uniform(0.3, 1.0)), width, cv2.LINE_AA)
    for _ in range(int(rng.integers(0, 4))):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        pts = []
        angle = rng.uniform(0, 2 * np.pi)
        for _ in range(int(rng.integers(10, 40))):
            angle += rng.normal(0, 0.5)
            x, y = x + 2 * np.cos(angle), y + 2 * np.sin(angle)
            pts.append((x, y))
        cv2.polylines(dark, [np.int32(np.round(pts))], False, float(rng.uniform(0.5, 1.0)), 1, cv2.LINE_AA)
    if rng.random() < 0.5:
        light = cv2.GaussianBlur(light, (0, 0), rng.uniform(0.3, 0.8))
        dark = cv2.GaussianBlur(dark, (0, 0), rng.uniform(0.3, 0.8))
    shape = (h, w, 1) if img.ndim == 3 else (h, w)
    light, dark = light.reshape(shape), dark.reshape(shape)
    out = img.astype(np.float32)
    out = out * (1 - dark * rng.uniform(0.6, 0.95)) + dark * rng.uniform(0, 25)
    out = out * (1 - light) + light * rng.uniform(200, 255)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def dust_damage(img, rng):
    """The dust network's recipe: specks on the photo as it is (60 %), slightly blurred, noisy or JPEG-compressed
    (30 %); a tenth of the photos stay clean, so that the network learns to leave a photo without dust alone."""
    r = rng.random()
    if r < 0.1:
        return img.copy()
    if r < 0.2:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.0))
    elif r < 0.3:
        img = noisy(img, rng)
    elif r < 0.4:
        img = jpeg(img, rng.uniform(60, 95), 2)
    return specks(img, rng)


def damage(img, rng):
    """The photo network's recipe: enlargement, JPEG, both, noise or blur then JPEG, or nothing."""
    r = rng.random()
    q = rng.uniform(8, 50)
    sub = 0 if rng.random() < 0.2 else 2
    if r < 0.25:
        return enlarged(img, rng)
    if r < 0.5:
        return jpeg(img, q, sub)
    if r < 0.75:
        return jpeg(enlarged(img, rng), q, sub)
    if r < 0.87:
        return jpeg(noisy(img, rng), q, sub)
    if r < 0.95:
        return jpeg(cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.5)), q, sub)
    return img.copy()


def make_pool(paths, rng, per_source, recipe=damage):
    """Damaged/clean pairs (RGB uint8): each source at `per_source` random sizes and crops."""
    pool = []
    for p in paths:
        src = cv2.imread(p, cv2.IMREAD_COLOR)
        if src is None or min(src.shape[:2]) < 400:
            continue
        src = cv2.cvtColor(src, cv2.COLOR_BGR2RGB)
        for _ in range(per_source):
            w = int(rng.uniform(450, 1300))
            h = int(src.shape[0] * w / src.shape[1])
            img = cv2.resize(src, (w, h), interpolation=cv2.INTER_AREA)
            ch, cw = min(h, 640), min(w, 800)
            y, x = int(rng.integers(h - ch + 1)), int(rng.integers(w - cw + 1))
            img = np.ascontiguousarray(img[y:y + ch, x:x + cw])
            if rng.random() < 0.2:
                img = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
            deg = recipe(img, rng)
            if img.ndim == 2:
                img, deg = [np.repeat(a[..., None], 3, 2) for a in (img, deg)]
            pool.append((deg, img))
    return pool


def texture(clean, y, x):
    p = clean[y:y + PATCH:2, x:x + PATCH:2, 1].astype(np.float32)
    return np.abs(np.diff(p, axis=0)).mean() + np.abs(np.diff(p, axis=1)).mean()


def batch(pool, rng, n, textured):
    """Patches on JPEG's 8 px grid; a share `textured` of them the most textured of four draws (flat renders and
    skies alone would teach the network to smooth)."""
    xs, ys = [], []
    for k in range(n):
        deg, clean = pool[int(rng.integers(len(pool)))]
        h, w = clean.shape[:2]
        tries = 4 if k < n * textured else 1
        draws = [(int(rng.integers((h - PATCH) // 8 + 1)) * 8, int(rng.integers((w - PATCH) // 8 + 1)) * 8)
                 for _ in range(tries)]
        y, x = max(draws, key=lambda yx: texture(clean, *yx))
        xs.append(deg[y:y + PATCH, x:x + PATCH])
        ys.append(clean[y:y + PATCH, x:x + PATCH])
    as_tensor = lambda a: torch.from_numpy(np.stack(a)).permute(0, 3, 1, 2).float() / 255  # noqa: E731
    return as_tensor(xs), as_tensor(ys)


def export(model, path):
    model.eval()
    torch.onnx.export(model, torch.rand(1, 3, 64, 64), path, input_names=["photo"], output_names=["restored"],
                      opset_version=13,
                      dynamic_axes={"photo": {2: "height", 3: "width"}, "restored": {2: "height", 3: "width"}})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True, help="path without extension: OUT.pt, OUT.onnx and OUT.json")
    ap.add_argument("--minutes", type=float, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--textured", type=float, default=0.0, help="share of patches picked for texture")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--recipe", choices=["photo", "dust"], default="photo",
                    help="photo: enlargement and JPEG (photo-net); dust: dust, hairs and scratches (dust-net)")
    ap.add_argument("--init", help="continue from this checkpoint (.pt; its .json manifest is kept in ours)")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    paths = sources()
    val_paths = paths[::7]
    train_paths = [p for p in paths if p not in val_paths]
    started = time.time()
    recipe = dust_damage if args.recipe == "dust" else damage
    pool = make_pool(train_paths, rng, 6, recipe)
    val = make_pool(val_paths, np.random.default_rng(args.seed + 1), 3, recipe)
    val_batches = [batch(val, np.random.default_rng(args.seed + 2 + i), 16, args.textured) for i in range(6)]
    print("%d training sources, %d validation sources, %d pairs in %.0f s" % (
        len(train_paths), len(val_paths), len(pool), time.time() - started), flush=True)
    model = PhotoNet()
    if args.init:
        model.load_state_dict(torch.load(args.init))
    params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = args.minutes * 60
    t0 = time.time()
    best, best_state, it, history = float("inf"), None, 0, []
    psnr = lambda mse: -10 * np.log10(mse)  # noqa: E731
    input_mse = float(np.mean([((a - b) ** 2).mean().item() for a, b in val_batches]))
    while time.time() - t0 < budget:
        frac = min(1.0, (time.time() - t0) / budget)
        for g in opt.param_groups:
            g["lr"] = args.lr * 0.5 * (1 + np.cos(np.pi * frac))
        if it and it % REDRAW == 0:
            pool = make_pool(train_paths, rng, 6, recipe)
        x, y = batch(pool, rng, BATCH, args.textured)
        model.train()
        loss = ((model(x) - y) ** 2).mean()  # MSE: what PSNR measures
        opt.zero_grad()
        loss.backward()
        opt.step()
        it += 1
        if it % 100 == 0 or time.time() - t0 >= budget:
            model.eval()
            with torch.no_grad():
                mse = float(np.mean([((model(a) - b) ** 2).mean().item() for a, b in val_batches]))
            history.append({"iteration": it, "seconds": round(time.time() - t0),
                            "validation_psnr": round(psnr(mse), 3)})
            print("it %d  %.0f s  train %.5f  validation %.2f dB (input %.2f dB)" % (
                it, time.time() - t0, loss.item(), psnr(mse), psnr(input_mse)), flush=True)
            if mse < best:
                best = mse
                best_state = {k: t.detach().clone() for k, t in model.state_dict().items()}
                torch.save(best_state, args.out + ".pt")
    model = PhotoNet()
    model.load_state_dict(best_state)
    export(model, args.out + ".onnx")
    init_manifest = None
    if args.init and os.path.exists(os.path.splitext(args.init)[0] + ".json"):
        with open(os.path.splitext(args.init)[0] + ".json") as fh:
            init_manifest = json.load(fh)
    manifest = {
        "model": "PhotoNet", "width": 32, "dilations": [1, 2, 4, 1], "parameters": params,
        "input": "RGB photo in [0, 1], NCHW", "output": "RGB photo in [0, 1]",
        "sources": [os.path.relpath(p, "/usr/share") for p in paths], "validation_sources": len(val_paths),
        "patch": PATCH, "batch": BATCH, "textured": args.textured, "recipe": args.recipe, "lr": args.lr, "seed": args.seed,
        "iterations": it, "training_seconds": round(time.time() - t0), "threads": args.threads,
        "validation_psnr": round(psnr(best), 3), "validation_input_psnr": round(psnr(input_mse), 3),
        "commit": git_commit(), "history": history, "continued_from": init_manifest,
    }
    with open(args.out + ".json", "w") as fh:
        json.dump(manifest, fh, indent=1)
    print("exported %s.onnx (%d parameters), validation %.2f dB (input %.2f dB) after %d iterations" % (
        args.out, params, psnr(best), psnr(input_mse), it))


if __name__ == "__main__":
    main()
