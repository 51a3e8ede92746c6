#!/usr/bin/env python3
"""Training pairs for the page restoration network: damaged page in, clean page out.

Pages are rendered and damaged with the benchmark's own generator (../shared/eval/tools/make_set.py, imported,
not copied), with more fonts, layouts, paper sizes and resolutions than the public set, plus damage kinds the
generator lacks (see OWN_DAMAGES). Geometric damages (skew, perspective) are left out of the pairs: they move
the page against its clean version, and the engine straightens pages with its own steps.

Usage: python3 make_pairs.py --out DIR --seed N --pages 300 [--eval-tools ../shared/eval/tools] [--jobs 2]
       [--focus stains,bleed_through]
Writes DIR/NNNNN_in.png (the damaged page as captured: grey or RGB), DIR/NNNNN_clean.png (grey) and
DIR/recipe.json (seed, counts, fonts, damages of every pair).
"""
import argparse
import json
import math
import os
import sys
import time
from multiprocessing import Pool

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TOOLS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "eval", "tools"))

# Every family is checked against fc-list at start; missing ones are dropped (the recipe lists those used).
FONTS = {
    "serif": ["DejaVu Serif", "Liberation Serif", "FreeSerif", "Nimbus Roman", "P052", "C059",
              "URW Bookman", "Noto Serif", "Caladea", "TeX Gyre Termes", "TeX Gyre Pagella",
              "TeX Gyre Schola", "Linux Libertine O", "EB Garamond"],
    "sans": ["DejaVu Sans", "Liberation Sans", "Liberation Sans Narrow", "FreeSans", "Nimbus Sans",
             "URW Gothic", "Noto Sans", "Carlito", "Cantarell", "TeX Gyre Heros", "TeX Gyre Adventor",
             "Linux Biolinum O"],
    "mono": ["Liberation Mono", "DejaVu Sans Mono", "Nimbus Mono PS", "FreeMono", "Noto Sans Mono",
             "TeX Gyre Cursor"],
}
LAYOUTS = {"single": 3, "two_col": 3, "headings": 3, "table": 2, "form": 2, "letter": 2,
           "invoice": 2, "memo": 2}
DPIS = {100: 0.1, 150: 0.5, 200: 0.25, 300: 0.15}
PAPERS = {"letter": 0.5, "a4": 0.5}
CORPUS = ["GPL-2", "GPL-3", "LGPL-2.1", "GFDL-1.3", "Apache-2.0", "Artistic-2.0", "MPL-2.0"]
# Geometric damages: the page moves against its clean version.
GEOMETRIC = {"skew", "perspective"}
CLEAN_SHARE = 0.06
OWN_SHARE = 0.3


def load_generator(tools):
    sys.path.insert(0, tools)
    import make_set  # noqa: E402  (the benchmark's generator)
    return make_set


def profile(ms):
    have = {e[0] for e in ms.font_db()}
    fonts = {k: [f for f in v if f in have] for k, v in FONTS.items()}
    corpus = [c for c in CORPUS if os.path.exists(os.path.join("/usr/share/common-licenses", c))]
    return {"name": "train", "corpus": corpus, "template_parity": 0, "fonts": fonts, "layouts": LAYOUTS,
            "dpi": DPIS, "paper": PAPERS}


# ---- damage kinds of our own (float RGB image in [0, 1], HxWx3) -------------------------------------------

def own_gutter_shadow(img, rng, dpi):
    """A book page photographed or scanned open: a deep shadow along one side, fading inwards."""
    h, w = img.shape[:2]
    side = int(rng.integers(4))
    depth = rng.uniform(0.04, 0.18)
    dark = rng.uniform(0.35, 0.8)
    n = w if side < 2 else h
    t = np.arange(n, dtype=np.float32) / n
    if side in (1, 3):
        t = t[::-1]
    prof = 1 - dark * np.exp(-t / depth)
    field = prof[None, :] if side < 2 else prof[:, None]
    return img * field[..., None] if img.ndim == 3 else img * field


def own_low_contrast(img, rng, dpi):
    """A pale copy: ink and paper squeezed towards each other (a faint carbon, a washed-out print)."""
    lo = rng.uniform(0.25, 0.6)
    hi = rng.uniform(0.7, 0.95)
    return lo + (hi - lo) * img


def own_ink_fade_field(img, rng, dpi, ms):
    """Ink faded unevenly across the page (sun, water): some lines nearly gone, others dark."""
    h, w = img.shape[:2]
    field = ms.smooth_noise(rng, h, w, rng.uniform(60, 200) * dpi / 150, 2)
    field = (field - field.min()) / (np.ptp(field) + 1e-6)
    keep = 0.15 + 0.85 * (1 - rng.uniform(0.4, 0.9) * field)
    lum = img.mean(axis=-1, keepdims=True) if img.ndim == 3 else img
    ink = 1 - lum
    out = img + ink * (1 - keep[..., None] if img.ndim == 3 else 1 - keep)
    return np.clip(out, 0, 1)


def own_heavy_blur(img, rng, dpi, ms):
    """Camera shake or a page off the scanner glass, stronger than the generator's blur."""
    k = dpi / 150
    if rng.random() < 0.5:
        kern = ms.motion_kernel(rng.uniform(5, 12) * k, rng.uniform(0, 180))
    else:
        kern = ms.disk_kernel(rng.uniform(2, 4) * k)
    return ms.cv2.filter2D(img, -1, kern, borderType=ms.cv2.BORDER_REFLECT)


OWN_DAMAGES = ["gutter_shadow", "low_contrast", "ink_fade_field", "heavy_blur"]


def apply_own(name, img, rng, dpi, ms):
    if name == "gutter_shadow":
        return own_gutter_shadow(img, rng, dpi)
    if name == "low_contrast":
        return own_low_contrast(img, rng, dpi)
    if name == "ink_fade_field":
        return own_ink_fade_field(img, rng, dpi, ms)
    return own_heavy_blur(img, rng, dpi, ms)


def with_focus(damages, focus, rng, ms):
    """The damages with one of the focus kinds added where none is among them (planned as the generator plans a
    single damage), so a set made for a weakness holds that damage on every damaged page."""
    if not focus or any(d["type"] in focus for d in damages):
        return damages
    return damages + ms.plan_damages(rng, "single", focus[int(rng.integers(len(focus)))])


def make_pair(args):
    index, seed, tools, out, focus = args
    ms = load_generator(tools)
    prof = profile(ms)
    rng = np.random.default_rng(seed)
    prof["template_parity"] = int(rng.integers(2))  # both halves of the generator's sentence templates
    tg = ms.TextGen(np.random.default_rng(seed + 1), prof)
    dpi, paper, w, h = ms.page_geometry(rng, prof)
    layout = ms.wchoice(rng, LAYOUTS)
    clean, _, info, fonts = ms.render_page(rng, tg, prof, layout, dpi, w, h)
    roll = rng.random()
    damages, own = [], []
    if roll >= CLEAN_SHARE:
        if rng.random() < 0.35:
            damages = ms.plan_damages(rng, "single", ms.DAMAGE_TYPES[int(rng.integers(len(ms.DAMAGE_TYPES)))])
        else:
            names = list(ms.COMBOS)
            damages = ms.plan_damages(rng, "combo", names[int(rng.integers(len(names)))])
        damages = with_focus([d for d in damages if d["type"] not in GEOMETRIC], focus, rng, ms)
        if rng.random() < OWN_SHARE or not damages:
            own = [OWN_DAMAGES[int(rng.integers(len(OWN_DAMAGES)))]]
    back = None
    if any(d["type"] == "bleed_through" for d in damages):
        tg2 = ms.TextGen(np.random.default_rng(seed + 2), prof)
        back, _, _, _ = ms.render_page(rng, tg2, prof, "single", dpi, w, h, fonts)
    if damages:
        degraded, damages, colour = ms.degrade_document(clean, damages, rng, dpi, back)
    else:
        degraded, colour = clean.copy(), False
    for name in own:
        f = degraded.astype(np.float32) / 255
        degraded = ms.to_u8(apply_own(name, f, rng, dpi, ms))
    # Written under temporary names and renamed, so a reader never sees half a pair (training may run meanwhile).
    stem = os.path.join(out, "%05d" % index)
    ms.save_png(degraded, stem + ".tmp_in.png", dpi)
    ms.save_png(clean, stem + ".tmp_clean.png", dpi)
    os.replace(stem + ".tmp_in.png", stem + "_in.png")
    os.replace(stem + ".tmp_clean.png", stem + "_clean.png")
    return {"index": index, "seed": int(seed), "dpi": dpi, "paper": paper, "layout": layout,
            "fonts": {k: v.family for k, v in fonts.items()}, "colour": bool(colour),
            "damages": [d["type"] for d in damages] + ["own:" + n for n in own]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--pages", type=int, default=300)
    ap.add_argument("--start", type=int, default=0, help="first pair index (to extend a set; pairs are seeded by index)")
    ap.add_argument("--eval-tools", default=DEFAULT_TOOLS)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--focus", default="", help="damage kinds every damaged pair holds, comma-separated (e.g. "
                    "stains,bleed_through: one of them is added where the drawn damages have neither)")
    args = ap.parse_args()
    focus = [f for f in args.focus.split(",") if f]
    ms = load_generator(args.eval_tools)
    unknown = [f for f in focus if f not in ms.DAMAGE_TYPES or f in GEOMETRIC]
    if unknown:
        ap.error("--focus: not a damage kind of the pairs: " + ", ".join(unknown))
    os.makedirs(args.out, exist_ok=True)
    started = time.time()
    jobs = [(i, ms.derive_seed(args.seed, "train-pair", i), args.eval_tools, args.out, focus)
            for i in range(args.start, args.pages)]
    pairs = []
    with Pool(args.jobs) as pool:
        for n, meta in enumerate(pool.imap_unordered(make_pair, jobs), 1):
            pairs.append(meta)
            if n % 20 == 0:
                print("%d/%d pairs, %.0f s" % (n, len(jobs), time.time() - started), flush=True)
    pairs.sort(key=lambda p: p["index"])
    if args.start:
        with open(os.path.join(args.out, "recipe-%d.json" % args.start), "w") as fh:
            json.dump(pairs, fh, indent=1)
        print("extended %s with pairs %d..%d" % (args.out, args.start, args.pages - 1))
        return
    recipe = {"seed": args.seed, "pages": args.pages, "generator": "make_set.py " + ms.GENERATOR_VERSION,
              "fonts": profile(ms)["fonts"], "layouts": LAYOUTS, "dpi": {str(k): v for k, v in DPIS.items()},
              "paper": PAPERS, "clean_share": CLEAN_SHARE, "own_damage_share": OWN_SHARE,
              "own_damages": OWN_DAMAGES, "left_out": sorted(GEOMETRIC), "focus": focus,
              "seconds": round(time.time() - started), "pairs": pairs}
    with open(os.path.join(args.out, "recipe.json"), "w") as fh:
        json.dump(recipe, fh, indent=1)
    print("wrote %d pairs to %s in %.0f s" % (len(pairs), args.out, time.time() - started))


if __name__ == "__main__":
    main()
