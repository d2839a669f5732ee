#!/usr/bin/python3
"""Each PNG given is a real picture: the PNG signature, at least 20 kB,
at least 600 x 400 pixels, at least 3% of its pixels not white (axes,
text and curves, not a blank page) and at least 0.2% of its pixels in
colour, not black, white or grey (the curves or bars drawn). Prints one line per file."""
import sys

import matplotlib.image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
bad = 0
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        data = f.read()
    img = matplotlib.image.imread(path)
    h, w = img.shape[0], img.shape[1]
    rgb = (img[:, :, :3] * 255).round().astype(int)
    flat = rgb.reshape(-1, 3)
    inked = (flat.min(axis=1) < 250).mean()
    spread = flat.max(axis=1) - flat.min(axis=1)
    coloured = (spread > 60).mean()
    ok = (data[:8] == SIGNATURE and len(data) >= 20000 and w >= 600 and
          h >= 400 and inked >= 0.03 and coloured >= 0.002)
    print("%s %s: %d bytes, %d x %d, %.1f%% inked, %.2f%% in colour" %
          ("ok" if ok else "BAD", path, len(data), w, h, 100 * inked,
           100 * coloured))
    bad += not ok
sys.exit(1 if bad or not sys.argv[1:] else 0)
