#!/usr/bin/env python3
"""The pycairo baseline for `waterflow scroll`: the same 60 frames written with write_to_png.

Draws what Renderer draws for bench-scene.json (375x667 pt at scale 2): background, each visible
cell clipped and filled with its colour, the price bar (black at 30 %, white centred 13 pt text)
and the index label (white rounded tag, 12 pt text), for 60 linear offsets 0...2000.
Usage: scroll_pycairo.py OUTDIR
"""
import json, os, random, sys
import cairo

here = os.path.dirname(os.path.abspath(__file__))
scene = json.load(open(os.path.join(here, "bench-scene.json")))
W, H, S = 375.0, 667.0, 2.0
m = scene["margins"]
cols = 3
cw = (W - m["left"] - m["right"] - (cols - 1) * m["column"]) / cols
bottoms, frames = [None] * cols, []
for item in scene["items"]:  # shortest column, ties to the left
    c = min(range(cols), key=lambda k: (bottoms[k] or 0, k))
    y = m["top"] if bottoms[c] is None else bottoms[c] + m["row"]
    frames.append((m["left"] + c * (cw + m["column"]), y, cw, item["height"], item["price"]))
    bottoms[c] = y + item["height"]
rng = random.Random(1)
colours = [(rng.random(), rng.random(), rng.random()) for _ in frames]

def text_centred(cr, text, x, y, w, h, size):
    cr.set_font_size(size)
    xb, yb, tw, th, _, _ = cr.text_extents(text)
    cr.move_to(x + w / 2 - (xb + tw / 2), y + h / 2 - (yb + th / 2))
    cr.show_text(text)

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for n in range(60):
    offset = 2000.0 * n / 59
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, int(W * S), int(H * S))
    cr = cairo.Context(surface)
    cr.scale(S, S)
    cr.select_font_face("DejaVu Sans")
    cr.set_source_rgb(0.95, 0.95, 0.96)
    cr.paint()
    cr.rectangle(0, 0, W, H)
    cr.clip()
    cr.translate(0, -offset)
    for i, (x, y, w, h, price) in enumerate(frames):
        if not (y + h > offset and y < offset + H):
            continue
        cr.save()
        cr.rectangle(x, y, w, h)
        cr.clip()
        cr.set_source_rgb(*colours[i])
        cr.rectangle(x, y, w, h)
        cr.fill()
        cr.set_source_rgba(0, 0, 0, 0.3)
        cr.rectangle(x, y + h - 25, w, 25)
        cr.fill()
        cr.set_source_rgb(1, 1, 1)
        text_centred(cr, price, x, y + h - 25, w, 25, 13)
        cr.set_font_size(12)
        adv = cr.text_extents(str(i))[4]
        cr.set_source_rgba(1, 1, 1, 0.8)
        r, lx, ly, lw, lh = 3, x + 4, y + 4, adv + 8, 16
        cr.new_sub_path()
        cr.arc(lx + lw - r, ly + r, r, -1.5708, 0)
        cr.arc(lx + lw - r, ly + lh - r, r, 0, 1.5708)
        cr.arc(lx + r, ly + lh - r, r, 1.5708, 3.14159)
        cr.arc(lx + r, ly + r, r, 3.14159, 4.71239)
        cr.close_path()
        cr.fill()
        cr.set_source_rgb(0.1, 0.1, 0.12)
        cr.move_to(x + 8, y + 16.5)
        cr.show_text(str(i))
        cr.restore()
    surface.write_to_png(os.path.join(out, "frame-%04d.png" % (n + 1)))
