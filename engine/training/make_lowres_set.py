#!/usr/bin/env python3
"""A development set of low-resolution pages at chosen effective resolutions, from the clean pages of a set that
../shared/eval/tools/make_set.py generated (imported, not copied: its own low_resolution damage degrades them).

The generator draws low resolution at random severities (about 38-60 effective DPI on a 150-DPI page); this set
puts the same number of pages at each effective DPI asked for, so the engine can be measured level by level. Half
the pages get a second, light damage of the generator as well (noise, JPEG, yellowing, salt and pepper, stains).

Usage: python3 make_lowres_set.py SOURCE_SET OUT_DIR SEED [34,38,42,46,52,60]
Writes OUT_DIR/doc_NNN/{degraded.png, clean.png, text.txt, meta.json} in the benchmark's layout; meta.json keeps
the source page's fields, with the damages applied and `effective_dpi`.
"""
import json
import os
import shutil
import sys

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "eval", "tools")))
import make_set  # noqa: E402

EXTRA_DAMAGES = ["gaussian_noise", "jpeg", "yellowing_fading", "salt_pepper", "stains"]


def main():
    source, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    targets = [int(x) for x in sys.argv[4].split(",")] if len(sys.argv) > 4 else [34, 38, 42, 46, 52, 60]
    rng = np.random.default_rng(seed)
    os.makedirs(out, exist_ok=True)
    names = sorted(n for n in os.listdir(source) if n.startswith("doc_"))
    for k, name in enumerate(names):
        meta = json.load(open(os.path.join(source, name, "meta.json")))
        dpi = meta["dpi"]
        clean = cv2.imread(os.path.join(source, name, "clean.png"), cv2.IMREAD_GRAYSCALE)
        effective = targets[k % len(targets)]
        # The generator's enlargement factor is 2 + 2 * severity.
        damages = [{"type": "low_resolution", "label": "chosen", "severity": (dpi / effective - 2) / 2}]
        if rng.random() < 0.5:
            extra = EXTRA_DAMAGES[int(rng.integers(len(EXTRA_DAMAGES)))]
            damages.append({"type": extra, "label": "light", "severity": 0.3})
        degraded, damages, _ = make_set.degrade_document(clean, damages, rng, dpi)
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        shutil.copy(os.path.join(source, name, "clean.png"), folder)
        shutil.copy(os.path.join(source, name, "text.txt"), folder)
        make_set.save_png(degraded, os.path.join(folder, "degraded.png"), dpi)
        meta["damages"] = damages
        meta["effective_dpi"] = effective
        with open(os.path.join(folder, "meta.json"), "w") as fh:
            json.dump(meta, fh, indent=1, default=str)
        print(name, dpi, effective, [d["type"] for d in damages])


if __name__ == "__main__":
    main()
