#!/usr/bin/env python3
# Generates the sample-feed photos in this folder: p01.jpg ... p14.jpg (cover and product
# pictures, 540 px wide, the @3x size of a ~170 pt cell) and face1.jpg ... face6.jpg (120 x 120
# avatars). Every picture is synthetic: simple shapes, gradients and soft shadows drawn with
# Cairo at twice the size and downsampled with Lanczos, from a fixed seed, so a run gives the
# same pictures every time. They were made for Waterflow and carry its ISC licence.
#
# The output is committed; nothing runs this script at build or test time. To regenerate:
#
#   apt-get install -y python3-pil python3-cairo python3-numpy   # Debian packages
#   /usr/bin/python3 Assets/Feeds/Photos/generate.py              # writes next to this script
#
# After regenerating, check that the w/h fields in ../notes.jsonl, ../products.csv,
# ../pins.jsonl and ../ads.jsonl still match the pictures' pixel sizes.

import math
import os
import random

import cairo
import numpy as np
from PIL import Image, ImageFilter

OUT = os.path.dirname(os.path.abspath(__file__))
SS = 2          # supersampling factor: draw at 2x, downsample with Lanczos
WIDTH = 540
QUALITY = 80

# ---------------------------------------------------------------------------------------------
# Helpers


def rgba(h, a=1.0):
    h = h.lstrip('#')
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, a)


def mix(c1, c2, t):
    a, b = rgba(c1) if isinstance(c1, str) else c1, rgba(c2) if isinstance(c2, str) else c2
    return tuple(a[i] + (b[i] - a[i]) * t for i in range(4))


def _stops(g, stops):
    for off, col in stops:
        g.add_color_stop_rgba(off, *(rgba(col) if isinstance(col, str) else col))
    return g


def lg(x0, y0, x1, y1, stops):
    return _stops(cairo.LinearGradient(x0, y0, x1, y1), stops)


def rg(cx0, cy0, r0, cx1, cy1, r1, stops):
    return _stops(cairo.RadialGradient(cx0, cy0, r0, cx1, cy1, r1), stops)


def src(c, s):
    if isinstance(s, str):
        c.set_source_rgba(*rgba(s))
    elif isinstance(s, tuple):
        c.set_source_rgba(*s)
    else:
        c.set_source(s)


def ellipse(c, cx, cy, rx, ry, a0=0.0, a1=2 * math.pi):
    c.save()
    c.translate(cx, cy)
    c.scale(rx, ry)
    c.arc(0, 0, 1, a0, a1)
    c.restore()


def circle(c, cx, cy, r):
    c.new_sub_path()
    c.arc(cx, cy, r, 0, 2 * math.pi)
    c.close_path()


def rrect(c, x, y, w, h, r):
    r = min(r, w / 2, h / 2)
    c.new_sub_path()
    c.arc(x + w - r, y + r, r, -math.pi / 2, 0)
    c.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
    c.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
    c.arc(x + r, y + r, r, math.pi, 1.5 * math.pi)
    c.close_path()


def smooth(c, pts, closed=False, move=True):
    """A Catmull-Rom spline through pts, as Bezier curves."""
    n = len(pts)
    if move:
        c.move_to(*pts[0])
    else:
        c.line_to(*pts[0])
    last = n if closed else n - 1
    for i in range(last):
        p0 = pts[(i - 1) % n] if (closed or i > 0) else pts[0]
        p1 = pts[i]
        p2 = pts[(i + 1) % n]
        p3 = pts[(i + 2) % n] if (closed or i + 2 < n) else pts[-1]
        c.curve_to(p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6,
                   p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6, p2[0], p2[1])
    if closed:
        c.close_path()


def fill(c, path, source):
    c.new_path()
    path(c)
    src(c, source)
    c.fill()


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, w * SS, h * SS)
        self.ctx = cairo.Context(self.surface)
        self.ctx.scale(SS, SS)
        self.ctx.set_line_cap(cairo.LINE_CAP_ROUND)
        self.ctx.set_line_join(cairo.LINE_JOIN_ROUND)

    def _mask(self, path, stroke_width=None):
        s = cairo.ImageSurface(cairo.FORMAT_A8, self.w * SS, self.h * SS)
        c = cairo.Context(s)
        c.scale(SS, SS)
        c.set_line_cap(cairo.LINE_CAP_ROUND)
        c.set_line_join(cairo.LINE_JOIN_ROUND)
        c.set_source_rgba(0, 0, 0, 1)
        path(c)
        if stroke_width:
            c.set_line_width(stroke_width)
            c.stroke()
        else:
            c.fill()
        s.flush()
        a = np.ndarray((self.h * SS, s.get_stride()), np.uint8, s.get_data())
        return a[:, :self.w * SS].copy()

    def soft(self, path, blur, color, dx=0.0, dy=0.0, stroke_width=None, clip=None):
        """Fills (or strokes) path, blurred by blur px, in color: soft shadows, glows, mist."""
        def moved(c):
            c.translate(dx, dy)
            path(c)
        a = self._mask(moved, stroke_width)
        if blur > 0:
            a = np.asarray(Image.fromarray(a, 'L').filter(ImageFilter.GaussianBlur(blur * SS)))
        h, w = a.shape
        stride = cairo.ImageSurface.format_stride_for_width(cairo.FORMAT_A8, w)
        buf = np.zeros((h, stride), np.uint8)
        buf[:, :w] = a
        m = cairo.ImageSurface.create_for_data(buf, cairo.FORMAT_A8, w, h, stride)
        c = self.ctx
        c.save()
        if clip:
            c.new_path()
            clip(c)
            c.clip()
        c.identity_matrix()
        src(c, color if not isinstance(color, str) else rgba(color))
        c.mask_surface(m, 0, 0)
        c.restore()
        m.finish()

    def image(self, grain=0.0, seed=0):
        self.surface.flush()
        a = np.ndarray((self.h * SS, self.surface.get_stride() // 4, 4), np.uint8,
                       self.surface.get_data())[:, :self.w * SS]
        im = Image.fromarray(a[:, :, [2, 1, 0]].copy(), 'RGB')
        im = im.resize((self.w, self.h), Image.LANCZOS)
        if grain:
            # A little film grain hides gradient banding in the JPEG.
            rs = np.random.RandomState(seed)
            px = np.asarray(im).astype(np.float32)
            px += rs.normal(0, grain, (self.h, self.w, 1)).astype(np.float32)
            im = Image.fromarray(np.clip(px + 0.5, 0, 255).astype(np.uint8), 'RGB')
        return im


def save(im, name):
    path = os.path.join(OUT, name)
    im.save(path, 'JPEG', quality=QUALITY, optimize=True, progressive=False, subsampling=2)
    return path


# ---------------------------------------------------------------------------------------------
# Photos


def sunset(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    hz = H * 0.60
    fill(c, lambda c: c.rectangle(0, 0, W, hz + 1), lg(0, 0, 0, hz, [
        (0, '#232458'), (0.32, '#55397c'), (0.6, '#c0567c'), (0.82, '#f28d5c'), (1, '#ffd38c')]))
    sx, sy, sr = W * 0.52, hz - 26, 58
    cv.soft(lambda c: circle(c, sx, sy, 120), 70, rgba('#ffdca0', 0.55))
    cv.soft(lambda c: circle(c, sx, sy, 70), 22, rgba('#fff0c8', 0.5))
    # long thin clouds, lit from below
    for x, y, rx, ry, col, a in [(120, 150, 170, 9, '#f6a0a8', 0.45), (420, 200, 150, 7, '#f7b0a0', 0.5),
                                 (250, 260, 210, 8, '#ffc59a', 0.55), (80, 330, 120, 5, '#ffd0a0', 0.6),
                                 (460, 310, 110, 5, '#ffd6a8', 0.55), (300, 110, 130, 6, '#c98bb8', 0.35)]:
        cv.soft(lambda c, x=x, y=y, rx=rx, ry=ry: ellipse(c, x, y, rx, ry), 5, rgba(col, a))
    c.save()
    c.rectangle(0, 0, W, hz)
    c.clip()
    fill(c, lambda c: circle(c, sx, sy, sr), rg(sx, sy - 25, 0, sx, sy, sr, [(0, '#fffbe8'), (1, '#ffc978')]))
    c.restore()
    # distant headland
    fill(c, lambda c: smooth(c, [(-10, hz + 1), (0, hz - 18), (60, hz - 30), (130, hz - 14), (190, hz - 4),
                                 (230, hz + 1)]), '#6e3f6e')
    fill(c, lambda c: smooth(c, [(W - 120, hz + 1), (W - 70, hz - 10), (W + 10, hz - 16), (W + 10, hz + 1)]),
         '#7a4670')
    sea = lg(0, hz, 0, H, [(0, '#f3a677'), (0.12, '#c3677a'), (0.45, '#5d4079'), (1, '#202150')])
    fill(c, lambda c: c.rectangle(0, hz, W, H - hz), sea)
    # the sun's path on the water
    cv.soft(lambda c: (c.move_to(sx - 40, hz), c.line_to(sx + 40, hz), c.line_to(sx + 70, H), c.line_to(sx - 70, H),
                       c.close_path()), 24, rgba('#ffcf9a', 0.28))
    y = hz + 3
    while y < H:
        t = (y - hz) / (H - hz)
        th = 1.4 + 3.5 * t
        for _ in range(rng.choice([1, 1, 2, 3])):
            half = sr * (0.95 - 0.3 * t) * rng.uniform(0.15, 0.8)
            off = rng.uniform(-1, 1) * sr * (0.7 + 0.5 * t) * 0.8
            col = rgba('#ffe6b0', (0.85 * (1 - t) ** 1.5 + 0.06) * rng.uniform(0.6, 1))
            fill(c, lambda c, y=y, half=half, off=off, th=th: rrect(c, sx - half + off, y, 2 * half, th, th / 2), col)
        y += th + rng.uniform(2, 4) + 8 * t
    # faint swell lines across the sea
    for _ in range(70):
        yy = hz + (H - hz) * rng.random() ** 1.4
        t = (yy - hz) / (H - hz)
        x0 = rng.uniform(-40, W)
        ln = rng.uniform(30, 140) * (0.5 + t)
        fill(c, lambda c, x0=x0, yy=yy, ln=ln, t=t: rrect(c, x0, yy, ln, 1 + 1.5 * t, 1), rgba('#ffd0b0', 0.10))
    cv.soft(lambda c: c.rectangle(0, hz - 6, W, 12), 6, rgba('#ffe0b0', 0.35))
    # two gulls
    c.set_source_rgba(*rgba('#2b2245', 0.8))
    for bx, by, s in [(150, 210, 14), (182, 232, 10)]:
        c.set_line_width(2.4 * s / 14)
        c.move_to(bx - s, by - s * 0.2)
        c.curve_to(bx - s * 0.6, by - s * 0.7, bx - s * 0.2, by - s * 0.5, bx, by)
        c.curve_to(bx + s * 0.2, by - s * 0.5, bx + s * 0.6, by - s * 0.7, bx + s, by - s * 0.2)
        c.stroke()


def strawberry(c, x, y, s, angle=0.0, leaves=True, seeds=True):
    c.save()
    c.translate(x, y)
    c.rotate(angle)
    c.scale(s, s)

    def body(c):
        c.move_to(0, 0.66)
        c.curve_to(-0.34, 0.52, -0.62, 0.06, -0.56, -0.27)
        c.curve_to(-0.5, -0.5, -0.2, -0.52, 0, -0.44)
        c.curve_to(0.2, -0.52, 0.5, -0.5, 0.56, -0.27)
        c.curve_to(0.62, 0.06, 0.34, 0.52, 0, 0.66)
        c.close_path()
    fill(c, body, rg(-0.2, -0.2, 0.02, 0, 0, 0.75, [(0, '#ff8a94'), (0.35, '#f0364f'), (1, '#a5142c')]))
    if seeds:
        c.save()
        c.new_path()
        body(c)
        c.clip()
        for row in range(7):
            yy = -0.32 + row * 0.15
            for col in range(-4, 5):
                xx = col * 0.15 + (0.075 if row % 2 else 0)
                if xx * xx / 0.3 + (yy - 0.05) ** 2 / 0.45 > 1:
                    continue
                fill(c, lambda c, xx=xx, yy=yy: ellipse(c, xx, yy, 0.022, 0.034), '#ffe7a6')
        c.restore()
    if leaves:
        for k in range(6):
            a = math.pi * (k / 5) + math.pi
            c.save()
            c.translate(0, -0.44)
            c.rotate(a + math.pi / 2)
            c.move_to(0, 0)
            c.curve_to(-0.09, -0.1, -0.05, -0.26, 0, -0.32)
            c.curve_to(0.05, -0.26, 0.09, -0.1, 0, 0)
            c.close_path()
            src(c, lg(0, 0, 0, -0.32, [(0, '#2f7d3a'), (1, '#6cc46a')]))
            c.fill()
            c.restore()
        fill(c, lambda c: rrect(c, -0.03, -0.62, 0.06, 0.2, 0.03), '#4f8f3a')
    c.restore()


def cylinder_band(c, cx, rx, ry, y0, y1):
    c.move_to(cx - rx, y0)
    c.line_to(cx - rx, y1)
    c.save()
    c.translate(cx, y1)
    c.scale(rx, ry)
    c.arc_negative(0, 0, 1, math.pi, 0)
    c.restore()
    c.line_to(cx + rx, y0)
    c.save()
    c.translate(cx, y0)
    c.scale(rx, ry)
    c.arc(0, 0, 1, 0, math.pi)
    c.restore()
    c.close_path()


def every_other(a):
    """Whether the dollop at angle a (one of ten round the rim) carries a berry."""
    return int(round(a * 10 / (2 * math.pi))) % 2 == 0


def dessert(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    fill(c, lambda c: c.rectangle(0, 0, W, H), lg(0, 0, 0, H, [(0, '#f9cfd6'), (0.55, '#fde4e6'), (1, '#fff3ef')]))
    cv.soft(lambda c: ellipse(c, W * 0.5, H * 0.4, 260, 200), 90, rgba('#ffffff', 0.5))
    cx, top, bot, rx, ry = 270, 262, 432, 165, 46
    # plate
    py = bot + 50
    cv.soft(lambda c: ellipse(c, cx, py, 230, 58), 16, rgba('#b0606a', 0.30), dy=12)
    fill(c, lambda c: ellipse(c, cx, py, 228, 62), lg(0, py - 60, 0, py + 60, [(0, '#ffffff'), (1, '#efe6e6')]))
    fill(c, lambda c: ellipse(c, cx, py - 6, 180, 44), lg(0, py - 50, 0, py + 40, [(0, '#ece2e2'), (1, '#fffafa')]))
    cv.soft(lambda c: ellipse(c, cx, bot + 14, rx + 4, ry), 9, rgba('#8c4a52', 0.35))
    # cake side, as bands from the bottom up
    bands = [(bot, bot - 36, '#f1cf94'), (bot - 36, bot - 50, '#fff8f0'), (bot - 50, bot - 82, '#fff3ea'),
             (bot - 82, bot - 96, '#fff8f0'), (bot - 96, bot - 132, '#f3d39a'), (bot - 132, bot - 146, '#fff8f0'),
             (bot - 146, top, '#f1cf94')]
    for y1, y0, col in bands:
        fill(c, lambda c, y0=y0, y1=y1: cylinder_band(c, cx, rx, ry, y0, y1), col)
    # sponge texture: tiny pores
    c.save()
    c.new_path()
    cylinder_band(c, cx, rx, ry, top, bot)
    c.clip()
    for _ in range(260):
        x = rng.uniform(cx - rx, cx + rx)
        band = rng.choice([(bot - 36, bot), (bot - 132, bot - 96), (top, bot - 146)])
        dy = ry * math.sqrt(max(0.0, 1 - ((x - cx) / rx) ** 2))
        y = rng.uniform(band[0], band[1]) + dy
        fill(c, lambda c, x=x, y=y: ellipse(c, x, y, rng.uniform(0.8, 1.8), rng.uniform(0.6, 1.2)),
             rgba('#c99a55', 0.35))
    # strawberry slices in the cream layer
    for k in range(9):
        x = cx - rx + 18 + k * (2 * rx - 36) / 8
        f = math.sqrt(max(0.0, 1 - ((x - cx) / rx) ** 2))
        y = bot - 66 + ry * f
        w = 15 * (0.35 + 0.65 * f)
        fill(c, lambda c, x=x, y=y, w=w: ellipse(c, x, y, w, 13), rg(x, y, 1, x, y, 15,
             [(0, '#ffd0d4'), (0.45, '#ff6b7d'), (1, '#d62a45')]))
    # side shading
    fill(c, lambda c: c.rectangle(cx - rx, top - ry, 2 * rx, bot - top + 2 * ry), lg(cx - rx, 0, cx + rx, 0, [
        (0, (0.35, 0.15, 0.1, 0.28)), (0.25, (0, 0, 0, 0)), (0.38, (1, 1, 1, 0.16)), (0.55, (0, 0, 0, 0)),
        (1, (0.35, 0.12, 0.1, 0.34))]))
    c.restore()
    # cream top
    fill(c, lambda c: ellipse(c, cx, top, rx, ry), rg(cx - 40, top - 20, 10, cx, top, rx,
         [(0, '#fffdf9'), (1, '#f6e9e0')]))
    # dollops and berries around the rim, back to front
    items = []
    for k in range(10):
        a = 2 * math.pi * k / 10 + 0.2
        items.append((top + ry * 0.72 * math.sin(a), cx + rx * 0.78 * math.cos(a), a))
    items.sort()
    for y, x, a in items:
        cv.soft(lambda c, x=x, y=y: ellipse(c, x, y + 6, 20, 8), 3, rgba('#b78c80', 0.35))
        fill(c, lambda c, x=x, y=y: (circle(c, x - 8, y - 2, 11), circle(c, x + 8, y - 2, 11), circle(c, x, y - 10, 12)),
             rg(x - 6, y - 12, 1, x, y - 4, 22, [(0, '#ffffff'), (1, '#eadbd3')]))
        if every_other(a):
            strawberry(c, x, y - 26, 34, rng.uniform(-0.3, 0.3))
    strawberry(c, cx + 4, top - 38, 66, 0.12)
    # mint leaf
    c.save()
    c.translate(cx - 34, top - 20)
    c.rotate(-0.6)
    c.move_to(0, 0)
    c.curve_to(-12, -8, -10, -26, 0, -34)
    c.curve_to(10, -26, 12, -8, 0, 0)
    src(c, lg(0, 0, 0, -34, [(0, '#2f8f4e'), (1, '#7fd38a')]))
    c.fill()
    c.restore()
    # loose berries on the table
    cv.soft(lambda c: ellipse(c, 100, 610, 36, 9), 5, rgba('#a0505a', 0.35))
    strawberry(c, 100, 582, 58, -1.25)
    cv.soft(lambda c: ellipse(c, 440, 622, 30, 8), 5, rgba('#a0505a', 0.35))
    strawberry(c, 442, 596, 50, 1.4)
    cv.soft(lambda c: ellipse(c, 196, 630, 22, 6), 4, rgba('#a0505a', 0.3))
    strawberry(c, 194, 612, 38, 0.5)


def latte(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    # light oak planks
    plank = H / 4
    for i in range(4):
        base = ['#d8b48a', '#d2ad82', '#dcb98f', '#cfa97e'][i]
        fill(c, lambda c, i=i: c.rectangle(0, i * plank, W, plank), lg(0, 0, W, 0, [(0, mix(base, '#000000', 0.04)),
             (0.5, base), (1, mix(base, '#ffffff', 0.06))]))
        for _ in range(9):
            y0 = i * plank + rng.uniform(6, plank - 6)
            amp, ph, fr = rng.uniform(1, 4), rng.uniform(0, 6.3), rng.uniform(0.006, 0.015)
            c.new_path()
            smooth(c, [(x, y0 + amp * math.sin(fr * x + ph)) for x in range(-20, W + 40, 30)])
            c.set_line_width(rng.uniform(0.6, 1.6))
            c.set_source_rgba(*rgba('#8a5a30', 0.12))
            c.stroke()
        fill(c, lambda c, i=i: c.rectangle(0, i * plank - 0.8, W, 1.6), rgba('#7a5030', 0.35))
    cx, cy = 262, 282
    # coffee beans
    for bx, by, a in [(470, 80, 0.6), (498, 118, -0.4), (62, 470, 1.1), (100, 500, 0.2), (470, 470, -0.9)]:
        cv.soft(lambda c, bx=bx, by=by: ellipse(c, bx + 3, by + 5, 14, 10), 3, rgba('#3a2010', 0.35))
        c.save()
        c.translate(bx, by)
        c.rotate(a)
        fill(c, lambda c: ellipse(c, 0, 0, 15, 10.5), rg(-5, -4, 1, 0, 0, 16, [(0, '#9a5a32'), (1, '#4a2612')]))
        c.move_to(-12, 1)
        c.curve_to(-4, -4, 4, 5, 12, -1)
        c.set_line_width(2)
        c.set_source_rgba(*rgba('#2a1408', 0.8))
        c.stroke()
        c.restore()
    # saucer
    cv.soft(lambda c: circle(c, cx, cy, 192), 16, rgba('#4a2c14', 0.45), dx=12, dy=16)
    fill(c, lambda c: circle(c, cx, cy, 192), rg(cx - 60, cy - 70, 20, cx, cy, 195, [(0, '#ffffff'), (0.85, '#f1ede8'),
         (1, '#dcd5cd')]))
    fill(c, lambda c: circle(c, cx, cy, 150), rg(cx + 20, cy + 20, 100, cx, cy, 152, [(0, (0, 0, 0, 0)),
         (0.9, (0.45, 0.35, 0.25, 0.06)), (1, (0.45, 0.35, 0.25, 0.12))]))
    # spoon on the saucer
    c.save()
    c.translate(cx - 100, cy + 118)
    c.rotate(-0.75)
    cv.soft(lambda c: (c.save(), c.translate(cx - 92, cy + 126), c.rotate(-0.75),
                       ellipse(c, 0, 0, 17, 25), rrect(c, -4, 20, 8, 88, 4), c.restore()), 4,
            rgba('#3a2a1a', 0.35))
    steel = lg(-20, 0, 20, 0, [(0, '#9aa1a8'), (0.45, '#f6f7f8'), (1, '#8d949b')])
    fill(c, lambda c: rrect(c, -4, 18, 8, 90, 4), steel)
    fill(c, lambda c: ellipse(c, 0, 0, 17, 25), steel)
    fill(c, lambda c: ellipse(c, -2, -3, 11, 17), lg(-12, 0, 12, 0, [(0, '#c8ced3'), (1, '#eef0f2')]))
    c.restore()
    # handle (under the cup)
    c.save()
    c.translate(cx, cy)
    c.rotate(0.55)
    cv.soft(lambda c: (c.save(), c.translate(cx + 6, cy + 10), c.rotate(0.55), rrect(c, 120, -24, 70, 48, 24),
                       c.restore()), 6, rgba('#3a2a1a', 0.35))
    fill(c, lambda c: rrect(c, 120, -24, 70, 48, 24), lg(0, -24, 0, 24, [(0, '#ffffff'), (1, '#dcd6cf')]))
    fill(c, lambda c: rrect(c, 140, -10, 36, 20, 10), rgba('#c8beb3', 1))
    fill(c, lambda c: rrect(c, 141, -9, 34, 18, 9), lg(0, -9, 0, 9, [(0, '#b9a996'), (1, '#e9dfd3')]))
    c.restore()
    # cup
    cv.soft(lambda c: circle(c, cx, cy, 134), 8, rgba('#3a2a1a', 0.35), dx=6, dy=9)
    fill(c, lambda c: circle(c, cx, cy, 134), rg(cx - 50, cy - 50, 10, cx, cy, 136, [(0, '#ffffff'), (1, '#e6e0d9')]))
    fill(c, lambda c: circle(c, cx, cy, 121), '#efe8e0')
    fill(c, lambda c: circle(c, cx, cy, 118), rg(cx, cy, 20, cx, cy, 120, [(0, '#c99362'), (0.55, '#a8693b'),
         (0.88, '#7a4322'), (1, '#5a2e14')]))
    # latte art: a three-layer tulip
    foam = rgba('#f7ead6')
    brew = rgba('#b07242')

    def heart(c, x, y, s):
        c.move_to(x, y + s * 0.9)
        c.curve_to(x - s * 1.3, y + s * 0.1, x - s * 1.0, y - s * 0.95, x, y - s * 0.45)
        c.curve_to(x + s * 1.0, y - s * 0.95, x + s * 1.3, y + s * 0.1, x, y + s * 0.9)
        c.close_path()
    cv.soft(lambda c: heart(c, cx, cy - 10, 84), 1.1, foam)
    cv.soft(lambda c: heart(c, cx, cy - 2, 60), 1.1, brew)
    cv.soft(lambda c: heart(c, cx, cy + 2, 46), 1.1, foam)
    cv.soft(lambda c: heart(c, cx, cy + 10, 26), 1.1, brew)
    cv.soft(lambda c: heart(c, cx, cy + 12, 16), 1.1, foam)
    cv.soft(lambda c: (c.move_to(cx, cy - 62), c.line_to(cx, cy + 66)), 1.0, brew, stroke_width=3.0)
    fill(c, lambda c: circle(c, cx, cy, 118), rg(cx, cy, 90, cx, cy, 119, [(0, (0, 0, 0, 0)), (1, (0.3, 0.15, 0.05, 0.35))]))


def dress(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    fill(c, lambda c: c.rectangle(0, 0, W, H), lg(0, 0, 0, H, [(0, '#e6ddf6'), (0.6, '#f7e2ea'), (1, '#ffe8dc')]))
    cv.soft(lambda c: circle(c, 300, 330, 220), 30, rgba('#fff4d8', 0.75))
    fill(c, lambda c: c.rectangle(0, 700, W, H - 700), lg(0, 700, 0, H, [(0, '#f3d6d6'), (1, '#f8e2dc')]))
    cv.soft(lambda c: c.rectangle(0, 696, W, 8), 4, rgba('#ffffff', 0.5))
    # rail and hanger
    fill(c, lambda c: rrect(c, -10, 70, W + 20, 10, 5), lg(0, 70, 0, 80, [(0, '#f2d9a8'), (0.5, '#c49a58'),
         (1, '#8f6a35')]))
    c.set_line_width(4)
    c.set_source_rgba(*rgba('#9a7a4a'))
    c.new_path()
    c.arc(270, 96, 16, math.pi * 1.05, math.pi * 2.25)
    c.stroke()
    c.move_to(270 + 16 * math.cos(math.pi * 2.25), 96 + 16 * math.sin(math.pi * 2.25))
    c.line_to(270, 132)
    c.stroke()
    cv.soft(lambda c: (c.move_to(160, 178), c.curve_to(200, 150, 240, 134, 270, 132),
                       c.curve_to(300, 134, 340, 150, 380, 178)), 5, rgba('#6a4a5a', 0.25), dy=6, stroke_width=11)
    c.new_path()
    c.move_to(160, 178)
    c.curve_to(200, 150, 240, 134, 270, 132)
    c.curve_to(300, 134, 340, 150, 380, 178)
    c.set_line_width(11)
    src(c, lg(0, 130, 0, 180, [(0, '#e8c48c'), (1, '#b48850')]))
    c.stroke()

    def body(c):
        c.move_to(214, 168)
        c.curve_to(214, 200, 210, 228, 206, 254)      # left strap down to the bodice
        c.curve_to(200, 300, 212, 350, 222, 392)      # bodice to the waist
        c.curve_to(170, 480, 120, 600, 96, 712)       # skirt, left
        # scalloped hem
        pts = [96, 150, 205, 260, 315, 370, 425, 446]
        c.curve_to(120, 726, 136, 728, 150, 722)
        for i in range(1, len(pts) - 1):
            x0, x1 = pts[i], pts[i + 1]
            c.curve_to(x0 + 14, 734, x1 - 14, 734, x1, 722 - (4 if i == len(pts) - 2 else 0))
        c.curve_to(420, 600, 370, 480, 318, 392)      # skirt, right
        c.curve_to(328, 350, 340, 300, 334, 254)
        c.curve_to(330, 228, 326, 200, 326, 168)
        c.curve_to(318, 170, 314, 176, 314, 190)
        c.curve_to(312, 220, 300, 238, 270, 242)       # neckline
        c.curve_to(240, 238, 228, 220, 226, 190)
        c.curve_to(226, 176, 222, 170, 214, 168)
        c.close_path()
    cv.soft(body, 18, rgba('#9a5a70', 0.25), dx=14, dy=18)
    fill(c, body, lg(0, 170, 0, 730, [(0, '#ff9aa6'), (1, '#f26d85')]))
    c.save()
    c.new_path()
    body(c)
    c.clip()
    # folds of the skirt
    for x0, x1, w, a in [(236, 150, 40, 0.10), (262, 245, 30, 0.12), (282, 330, 36, 0.1), (304, 410, 40, 0.12)]:
        cv.soft(lambda c, x0=x0, x1=x1: (c.move_to(x0, 400), c.curve_to(x0, 520, x1, 600, x1, 730)), 10,
                rgba('#b03050', a), stroke_width=w * 0.5)
    for x0, x1 in [(250, 200), (272, 290), (292, 372)]:
        cv.soft(lambda c, x0=x0, x1=x1: (c.move_to(x0, 400), c.curve_to(x0, 520, x1, 600, x1, 730)), 8,
                rgba('#ffffff', 0.18), stroke_width=10)
    # strawberry print
    for j, y in enumerate(range(250, 740, 44)):
        for i, x in enumerate(range(90, 460, 44)):
            xx = x + (22 if j % 2 else 0) + rng.uniform(-3, 3)
            strawberry(c, xx, y + rng.uniform(-3, 3), 16, rng.uniform(-0.5, 0.5), seeds=False)
    # waist tie
    fill(c, lambda c: (c.move_to(214, 384), c.curve_to(250, 396, 290, 396, 326, 384), c.line_to(322, 402),
                       c.curve_to(290, 412, 250, 412, 218, 402), c.close_path()), '#fff1ee')
    # light from the upper left
    fill(c, lambda c: c.rectangle(0, 0, W, H), lg(90, 0, 450, 0, [(0, (1, 1, 1, 0.16)), (0.5, (1, 1, 1, 0)),
         (1, (0.4, 0.05, 0.15, 0.14))]))
    c.restore()
    # bow
    for s in (-1, 1):
        fill(c, lambda c, s=s: (c.move_to(270, 396), c.curve_to(270 + s * 20, 372, 270 + s * 44, 378, 270 + s * 40, 398),
                                c.curve_to(270 + s * 36, 414, 270 + s * 16, 408, 270, 396)), '#fff6f3')
        fill(c, lambda c, s=s: (c.move_to(270, 398), c.curve_to(270 + s * 10, 430, 270 + s * 18, 450, 270 + s * 28, 470),
                                c.line_to(270 + s * 16, 474), c.curve_to(270 + s * 10, 450, 270 + s * 4, 430, 270, 398)),
             '#fff6f3')
    fill(c, lambda c: circle(c, 270, 398, 7), '#ffe3df')
    # sandals on the floor
    for x in (206, 300):
        cv.soft(lambda c, x=x: ellipse(c, x + 18, 770, 44, 6), 4, rgba('#8a5060', 0.3))
        fill(c, lambda c, x=x: rrect(c, x - 22, 752, 84, 16, 8), lg(0, 752, 0, 768, [(0, '#fff6ea'), (1, '#e0c7ae')]))
        c.new_path()
        c.move_to(x, 756)
        c.curve_to(x + 10, 730, x + 36, 730, x + 46, 756)
        c.set_line_width(6)
        c.set_source_rgba(*rgba('#e9a36a'))
        c.stroke()


def sneaker(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    fill(c, lambda c: c.rectangle(0, 0, W, H), lg(0, 0, 0, H, [(0, '#bfe6de'), (0.68, '#d9f1ea'), (1, '#c9e7df')]))
    cv.soft(lambda c: circle(c, 150, 90, 140), 60, rgba('#ffffff', 0.55))
    # a colour block behind, like a studio prop
    fill(c, lambda c: (c.move_to(300, 300), c.line_to(300, 130), c.arc(390, 130, 90, math.pi, 2 * math.pi),
                       c.line_to(480, 300), c.close_path()), lg(0, 40, 0, 300, [(0, '#ffd98a'), (1, '#f7c466')]))
    fill(c, lambda c: c.rectangle(0, 300, W, H - 300), lg(0, 300, 0, H, [(0, '#cdebe3'), (1, '#bfe2d8')]))
    cv.soft(lambda c: ellipse(c, 280, 318, 210, 14), 10, rgba('#2e5e58', 0.45))
    cv.soft(lambda c: ellipse(c, 280, 314, 170, 5), 3, rgba('#23463f', 0.35))

    def upper(c):
        c.move_to(92, 288)
        c.curve_to(82, 250, 84, 214, 96, 184)
        c.curve_to(98, 176, 104, 170, 112, 170)
        c.curve_to(134, 170, 150, 186, 172, 188)
        c.curve_to(198, 190, 214, 160, 232, 140)
        c.curve_to(242, 128, 262, 126, 268, 138)
        c.curve_to(300, 168, 334, 190, 364, 202)
        c.curve_to(410, 214, 456, 226, 468, 258)
        c.curve_to(474, 274, 468, 288, 456, 290)
        c.close_path()

    def collar(c):
        c.move_to(104, 174)
        c.curve_to(140, 164, 196, 160, 232, 142)
        c.curve_to(214, 160, 198, 190, 172, 188)
        c.curve_to(150, 186, 134, 170, 112, 170)
        c.close_path()
    fill(c, collar, lg(0, 140, 0, 190, [(0, '#47525e'), (1, '#2a333c')]))
    fill(c, upper, lg(0, 130, 0, 290, [(0, '#ffffff'), (1, '#e3e8ec')]))
    c.save()
    c.new_path()
    upper(c)
    c.clip()
    # toe cap, heel counter and a side stripe
    fill(c, lambda c: (c.move_to(392, 300), c.curve_to(392, 250, 404, 222, 424, 214), c.line_to(500, 214), c.line_to(500, 300),
                       c.close_path()), lg(0, 214, 0, 300, [(0, '#f2f4f6'), (1, '#dde2e7')]))
    fill(c, lambda c: (c.move_to(70, 300), c.line_to(70, 150), c.line_to(126, 150), c.curve_to(150, 200, 156, 250, 170, 300),
                       c.close_path()), lg(0, 160, 0, 300, [(0, '#ff8a66'), (1, '#f0603e')]))
    fill(c, lambda c: (c.move_to(176, 268), c.curve_to(240, 262, 310, 226, 380, 214), c.curve_to(392, 212, 396, 220, 386, 226),
                       c.curve_to(330, 252, 260, 282, 200, 284), c.curve_to(184, 284, 176, 278, 176, 268), c.close_path()),
         lg(176, 0, 390, 0, [(0, '#ff8a66'), (1, '#f0603e')]))
    # stitching
    c.set_line_width(1.1)
    c.set_dash([4, 3])
    c.set_source_rgba(*rgba('#b9c1c9'))
    c.new_path()
    c.move_to(398, 290)
    c.curve_to(398, 250, 408, 228, 426, 220)
    c.move_to(120, 160)
    c.curve_to(142, 206, 148, 250, 162, 292)
    c.stroke()
    c.set_dash([])
    # perforations on the toe
    c.set_source_rgba(*rgba('#bcc4cc'))
    for i in range(5):
        for j in range(3):
            circle(c, 420 + i * 8 + j * 3, 238 + j * 8 + i * 2.6, 1.5)
    c.fill()
    # lace panel
    fill(c, lambda c: (c.move_to(226, 150), c.curve_to(270, 150, 320, 186, 368, 206), c.line_to(356, 216),
                       c.curve_to(310, 198, 264, 166, 222, 164), c.close_path()), rgba('#d5dbe1', 0.8))
    fill(c, lambda c: c.rectangle(0, 0, W, H), lg(0, 200, 0, 290, [(0, (0.2, 0.3, 0.35, 0)), (1, (0.2, 0.3, 0.35, 0.10))]))
    c.restore()
    # heel pull tab
    fill(c, lambda c: (c.move_to(98, 182), c.curve_to(96, 160, 100, 150, 110, 150), c.curve_to(118, 150, 120, 160, 118, 172),
                       c.close_path()), '#f0603e')
    # tongue
    fill(c, lambda c: (c.move_to(222, 150), c.curve_to(226, 120, 246, 104, 270, 108), c.curve_to(282, 112, 282, 126, 270, 138),
                       c.curve_to(254, 140, 238, 146, 230, 158), c.close_path()),
         lg(0, 104, 0, 160, [(0, '#ffffff'), (1, '#dfe4e9')]))
    # laces: eyelets with crossing bars
    for i in range(5):
        t = i / 4
        x, y = 236 + t * 112, 156 + t * 48 - 6 * math.sin(t * math.pi)
        fill(c, lambda c, x=x, y=y: circle(c, x, y + 6, 2.6), '#6b7580')
        c.new_path()
        c.move_to(x - 10, y + 2)
        c.line_to(x + 12, y - 10)
        c.set_line_width(5)
        c.set_source_rgba(*rgba('#c9d0d6'))
        c.stroke()
        c.move_to(x - 10, y + 1)
        c.line_to(x + 12, y - 11)
        c.set_line_width(3.4)
        c.set_source_rgba(*rgba('#ffffff'))
        c.stroke()
    # sole
    fill(c, lambda c: (c.move_to(82, 282), c.line_to(458, 284), c.curve_to(476, 284, 482, 296, 476, 306),
                       c.curve_to(470, 314, 450, 316, 430, 316), c.line_to(104, 316),
                       c.curve_to(88, 316, 78, 304, 82, 282), c.close_path()),
         lg(0, 282, 0, 316, [(0, '#ffffff'), (0.6, '#f3efe8'), (1, '#dcd5ca')]))
    fill(c, lambda c: rrect(c, 86, 308, 386, 9, 4.5), '#3a4650')
    c.set_line_width(1)
    c.set_source_rgba(*rgba('#cbc3b6'))
    c.move_to(92, 295)
    c.line_to(466, 295)
    c.stroke()


def ridge(rng, W, base, amp, n, peaks=()):
    ph = [rng.uniform(0, 6.28) for _ in range(3)]
    pts = []
    for i in range(n + 1):
        x = -20 + (W + 40) * i / n
        y = base - amp * (0.5 * math.sin(x * 0.011 + ph[0]) + 0.3 * math.sin(x * 0.027 + ph[1])
                          + 0.2 * math.sin(x * 0.061 + ph[2]))
        for px, ph_, pw in peaks:
            y -= ph_ * math.exp(-((x - px) / pw) ** 2)
        pts.append((x, y))
    return pts


def mountains(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    fill(c, lambda c: c.rectangle(0, 0, W, H), lg(0, 0, 0, H * 0.7, [(0, '#8fb4e0'), (0.6, '#cfdcec'), (1, '#f8dcc6')]))
    cv.soft(lambda c: circle(c, 410, 96, 60), 40, rgba('#fff2d6', 0.7))
    fill(c, lambda c: circle(c, 410, 96, 20), '#fff8e8')
    for x, y, rx in [(110, 50, 70), (190, 62, 50), (330, 40, 60)]:
        cv.soft(lambda c, x=x, y=y, rx=rx: ellipse(c, x, y, rx, 6), 5, rgba('#ffffff', 0.6))
    layers = [
        (150, 30, [(210, 70, 60), (330, 40, 50)], '#9aa9c9', '#c7cfe0'),
        (190, 26, [(80, 40, 70), (440, 50, 60)], '#7287b0', '#a9b5cf'),
        (232, 20, [(300, 20, 90)], '#4e6690', '#8293b4'),
        (270, 14, [], '#2d4466', '#3f5878'),
    ]
    for li, (base, amp, peaks, top, bottom) in enumerate(layers):
        pts = ridge(rng, W, base, amp, 24, peaks)

        def shape(c, pts=pts):
            smooth(c, pts)
            c.line_to(W + 20, H + 10)
            c.line_to(-20, H + 10)
            c.close_path()
        fill(c, shape, lg(0, base - amp - 70, 0, H, [(0, top), (1, bottom)]))
        if li == 0:
            # snow on the highest peaks
            c.save()
            c.new_path()
            shape(c)
            c.clip()
            line = [(x, 112 + 8 * math.sin(x * 0.09) + 5 * math.sin(x * 0.23) + 10 * max(0.0, math.sin(x * 0.045 + 1)))
                    for x in range(-20, W + 40, 12)]
            fill(c, lambda c: (c.move_to(-20, 0), c.line_to(W + 40, 0), smooth(c, line[::-1], move=False), c.close_path()),
                 lg(0, 60, 0, 140, [(0, '#ffffff'), (1, '#e4eaf4')]))
            fill(c, lambda c: c.rectangle(0, 0, W, H), lg(0, 0, W, 0, [(0, (0.2, 0.25, 0.4, 0.0)), (0.3, (0.2, 0.25, 0.4, 0.0)),
                 (1, (0.2, 0.25, 0.4, 0.14))]))
            c.restore()
        if li == 3:
            # pines along the nearest ridge
            for _ in range(46):
                x = rng.uniform(-10, W + 10)
                i = min(int((x + 20) / (W + 40) * 24), 23)
                t = (x - pts[i][0]) / (pts[i + 1][0] - pts[i][0])
                y = pts[i][1] * (1 - t) + pts[i + 1][1] * t + rng.uniform(2, 26)
                h = rng.uniform(18, 34)
                fill(c, lambda c, x=x, y=y, h=h: (c.move_to(x, y - h), c.line_to(x + h * 0.28, y),
                                                  c.line_to(x - h * 0.28, y), c.close_path()), '#223754')
        if li < 3:
            cv.soft(lambda c, base=base: c.rectangle(-20, base + 10, W + 40, 26), 12, rgba('#eef2f8', 0.45))
    # lake
    fill(c, lambda c: c.rectangle(0, 286, W, H - 286), lg(0, 286, 0, H, [(0, '#9fb6d6'), (1, '#6f8ab2')]))
    for _ in range(14):
        x, y = rng.uniform(0, W), rng.uniform(289, H - 2)
        fill(c, lambda c, x=x, y=y: rrect(c, x, y, rng.uniform(20, 70), 1.2, 0.6), rgba('#ffffff', 0.35))


def skyline(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    hz = H * 0.68
    fill(c, lambda c: c.rectangle(0, 0, W, hz + 2), lg(0, 0, 0, hz, [
        (0, '#0f1534'), (0.35, '#272a6a'), (0.62, '#5f3c88'), (0.84, '#cf5f80'), (1, '#f7a878')]))
    for _ in range(90):
        x, y = rng.uniform(0, W), rng.uniform(0, hz * 0.5)
        r = rng.uniform(0.5, 1.4)
        fill(c, lambda c, x=x, y=y, r=r: circle(c, x, y, r), rgba('#ffffff', rng.uniform(0.3, 0.9) * (1 - y / (hz * 0.6))))
    # crescent moon
    mx, my = 400, 170
    cv.soft(lambda c: circle(c, mx, my, 60), 30, rgba('#fff3cf', 0.35))
    c.push_group()
    fill(c, lambda c: circle(c, mx, my, 30), '#fff4d6')
    c.set_operator(cairo.OPERATOR_CLEAR)
    fill(c, lambda c: circle(c, mx + 14, my - 9, 27), '#000000')
    c.set_operator(cairo.OPERATOR_OVER)
    c.pop_group_to_source()
    c.paint()
    cv.soft(lambda c: c.rectangle(0, hz - 120, W, 110), 50, rgba('#ff9a8a', 0.35))

    def layer(xmin, hmin, hmax, wmin, wmax, prob):
        out, x = [], xmin
        while x < W + 20:
            w = rng.uniform(wmin, wmax)
            h = rng.uniform(hmin, hmax)
            kind = rng.choices(['flat', 'step', 'spire', 'dome', 'slant'], [4, 2, 1, 1, 1])[0]
            wins = []
            for wy in np.arange(hz - h + 16, hz - 8, 14):
                for wx in np.arange(x + 6, x + w - 9, 10):
                    if rng.random() < prob:
                        wins.append((wx, wy, rng.random()))
            out.append((x, w, h, kind, wins))
            x += w - rng.uniform(0, 6)
        return out
    back = layer(-20, 140, 360, 34, 70, 0.22)
    front = layer(-30, 70, 280, 40, 86, 0.38)

    def building(c, x, w, h, kind):
        top = hz - h
        if kind == 'step':
            c.move_to(x, hz)
            c.line_to(x, top + 24)
            c.line_to(x + w * 0.18, top + 24)
            c.line_to(x + w * 0.18, top)
            c.line_to(x + w * 0.82, top)
            c.line_to(x + w * 0.82, top + 24)
            c.line_to(x + w, top + 24)
            c.line_to(x + w, hz)
            c.close_path()
        elif kind == 'spire':
            c.rectangle(x, top, w, h)
            c.move_to(x + w * 0.2, top + 0.5)
            c.line_to(x + w * 0.5, top - 40)
            c.line_to(x + w * 0.8, top + 0.5)
            c.close_path()
            c.rectangle(x + w * 0.5 - 1, top - 70, 2, 32)
        elif kind == 'dome':
            c.move_to(x, hz)
            c.line_to(x, top)
            c.arc(x + w / 2, top, w / 2, math.pi, 2 * math.pi)
            c.line_to(x + w, hz)
            c.close_path()
        elif kind == 'slant':
            c.move_to(x, hz)
            c.line_to(x, top + 30)
            c.line_to(x + w, top)
            c.line_to(x + w, hz)
            c.close_path()
        else:
            c.rectangle(x, top, w, h)

    def city(c, flipped=False):
        for x, w, h, kind, wins in back:
            fill(c, lambda c, x=x, w=w, h=h, kind=kind: building(c, x, w, h, kind),
                 lg(0, hz - h, 0, hz, [(0, '#3a2e6c'), (1, '#5a3e7e')]))
            for wx, wy, r in wins:
                fill(c, lambda c, wx=wx, wy=wy: c.rectangle(wx, wy, 4, 6), rgba('#ffcf8a', 0.35 + 0.3 * r))
        for x, w, h, kind, wins in front:
            fill(c, lambda c, x=x, w=w, h=h, kind=kind: building(c, x, w, h, kind),
                 lg(x, 0, x + w, 0, [(0, '#1c1a40'), (0.7, '#231f4c'), (1, '#2e2758')]))
            for wx, wy, r in wins:
                col = '#ffd68e' if r < 0.8 else '#a8d8ff'
                fill(c, lambda c, wx=wx, wy=wy: rrect(c, wx, wy, 5, 7, 1), rgba(col, 0.6 + 0.4 * r))
            if kind == 'spire':
                fill(c, lambda c, x=x, w=w, h=h: circle(c, x + w / 2, hz - h - 70, 2.5), '#ff5a6a')
    city(c)
    # water, with the city mirrored in it
    fill(c, lambda c: c.rectangle(0, hz, W, H - hz), lg(0, hz, 0, H, [(0, '#3a2a66'), (1, '#0e0f2a')]))
    c.save()
    c.rectangle(0, hz, W, H - hz)
    c.clip()
    c.translate(0, 2 * hz)
    c.scale(1, -1)
    c.push_group()
    city(c)
    c.pop_group_to_source()
    c.paint_with_alpha(0.45)
    c.restore()
    fill(c, lambda c: c.rectangle(0, hz, W, H - hz), lg(0, hz, 0, H, [(0, (0.2, 0.12, 0.35, 0.0)), (0.5, (0.08, 0.07, 0.2, 0.5)),
         (1, (0.05, 0.05, 0.16, 0.85))]))
    for _ in range(240):
        y = hz + (H - hz) * rng.random() ** 1.3
        t = (y - hz) / (H - hz)
        x = rng.uniform(-30, W)
        fill(c, lambda c, x=x, y=y, t=t: rrect(c, x, y, rng.uniform(20, 90), 1.2 + 2 * t, 1), rgba('#1a1640', 0.55))
    for _ in range(60):
        y = hz + (H - hz) * rng.random() ** 1.6
        x = rng.uniform(0, W)
        fill(c, lambda c, x=x, y=y: rrect(c, x, y, rng.uniform(6, 26), 1.4, 0.7), rgba('#ffcf9a', 0.35))
    cv.soft(lambda c: c.rectangle(0, hz - 3, W, 6), 4, rgba('#ffb89a', 0.5))


def noodles(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    fill(c, lambda c: c.rectangle(0, 0, W, H), rg(W * 0.45, H * 0.4, 40, W / 2, H / 2, 420, [(0, '#3e4a52'), (1, '#1f262b')]))
    # linen placemat
    fill(c, lambda c: rrect(c, 30, 40, 480, 460, 10), '#d9cdb9')
    for i in range(0, 460, 5):
        fill(c, lambda c, i=i: c.rectangle(30, 40 + i, 480, 1), rgba('#b9ab94', 0.25))
    for i in range(0, 480, 6):
        fill(c, lambda c, i=i: c.rectangle(30 + i, 40, 1, 460), rgba('#ffffff', 0.12))
    cx, cy = 258, 272
    cv.soft(lambda c: circle(c, cx, cy, 212), 18, rgba('#1b1510', 0.55), dx=12, dy=16)
    fill(c, lambda c: circle(c, cx, cy, 212), rg(cx - 80, cy - 80, 20, cx, cy, 214, [(0, '#3d5c8f'), (1, '#223a63')]))
    c.set_line_width(3)
    c.set_source_rgba(*rgba('#f3ecde', 0.9))
    for k in range(36):
        a = 2 * math.pi * k / 36
        c.new_path()
        c.arc(cx + 200 * math.cos(a), cy + 200 * math.sin(a), 5, 0, 2 * math.pi)
        c.stroke()
    fill(c, lambda c: circle(c, cx, cy, 190), rg(cx - 50, cy - 50, 20, cx, cy, 192, [(0, '#ffffff'), (1, '#e4ddd0')]))
    fill(c, lambda c: circle(c, cx, cy, 172), rg(cx - 30, cy - 30, 20, cx, cy, 172, [(0, '#f6c27d'), (0.8, '#e39446'),
         (1, '#b86a2c')]))
    c.save()
    c.new_path()
    circle(c, cx, cy, 170)
    c.clip()
    # noodles: wavy strands
    for i in range(46):
        y0 = cy - 170 + i * 7.6 + rng.uniform(-3, 3)
        amp, fr, ph = rng.uniform(3, 7), rng.uniform(0.04, 0.07), rng.uniform(0, 6.3)
        pts = [(x, y0 + amp * math.sin(fr * x + ph) + 10 * math.sin(x * 0.012 + i)) for x in range(cx - 190, cx + 200, 12)]
        c.new_path()
        smooth(c, pts)
        c.set_line_width(6.5)
        c.set_source_rgba(*rgba('#c99a4a', 0.9))
        c.stroke()
        c.new_path()
        smooth(c, pts)
        c.set_line_width(4.6)
        c.set_source_rgba(*rgba('#f8dc97'))
        c.stroke()
        c.new_path()
        smooth(c, [(x, y - 1.2) for x, y in pts])
        c.set_line_width(1.4)
        c.set_source_rgba(*rgba('#fff6d8', 0.8))
        c.stroke()
    # broth pooling over the noodles at the rim
    fill(c, lambda c: circle(c, cx, cy, 172), rg(cx, cy, 120, cx, cy, 172, [(0, (0.9, 0.55, 0.25, 0)), (1, (0.8, 0.42, 0.15, 0.85))]))
    # nori
    for x, y, a in [(cx + 40, cy - 150, 0.12), (cx + 92, cy - 136, 0.42)]:
        c.save()
        c.translate(x, y)
        c.rotate(a)
        cv.soft(lambda c, x=x, y=y, a=a: (c.save(), c.translate(x + 4, y + 6), c.rotate(a), c.rectangle(-32, -6, 64, 110),
                                         c.restore()), 4, rgba('#000000', 0.35))
        fill(c, lambda c: c.rectangle(-32, -6, 64, 110), lg(-32, 0, 32, 0, [(0, '#1b2a20'), (0.5, '#2c3e2f'), (1, '#18241b')]))
        c.restore()
    # chashu slices
    for x, y, r in [(cx - 70, cy - 62, 54), (cx - 18, cy - 104, 50)]:
        cv.soft(lambda c, x=x, y=y, r=r: circle(c, x + 4, y + 6, r), 5, rgba('#5a2a10', 0.4))
        fill(c, lambda c, x=x, y=y, r=r: circle(c, x, y, r), rg(x - 10, y - 10, 5, x, y, r, [(0, '#f0b8a0'), (0.75, '#d88e70'),
             (1, '#8a4226')]))
        c.new_path()
        c.move_to(x - r * 0.6, y + r * 0.1)
        c.curve_to(x - r * 0.2, y - r * 0.5, x + r * 0.5, y - r * 0.2, x + r * 0.3, y + r * 0.3)
        c.curve_to(x + r * 0.1, y + r * 0.55, x - r * 0.3, y + r * 0.4, x - r * 0.2, y + r * 0.05)
        c.set_line_width(5)
        c.set_source_rgba(*rgba('#fbe2d2', 0.85))
        c.stroke()
    # soft-boiled egg halves
    for x, y, a in [(cx + 70, cy + 40, 0.4), (cx + 30, cy + 98, -0.3)]:
        c.save()
        c.translate(x, y)
        c.rotate(a)
        cv.soft(lambda c, x=x, y=y, a=a: (c.save(), c.translate(x + 4, y + 6), c.rotate(a), ellipse(c, 0, 0, 48, 36),
                                         c.restore()), 5, rgba('#6a3a10', 0.4))
        fill(c, lambda c: ellipse(c, 0, 0, 48, 36), rg(-14, -10, 4, 0, 0, 50, [(0, '#ffffff'), (1, '#efe8dc')]))
        fill(c, lambda c: ellipse(c, 2, 2, 24, 20), rg(-4, -4, 2, 2, 2, 24, [(0, '#ffc24a'), (0.7, '#f59a1a'), (1, '#e07a10')]))
        c.restore()
    # naruto
    nx, ny = cx - 90, cy + 70
    cv.soft(lambda c: circle(c, nx + 3, ny + 5, 30), 4, rgba('#6a3a10', 0.35))
    fill(c, lambda c: circle(c, nx, ny, 30), '#fffaf6')
    c.new_path()
    for k in range(80):
        t = k / 79
        a = t * 4.2 * math.pi
        r = 3 + 20 * t
        (c.move_to if k == 0 else c.line_to)(nx + r * math.cos(a), ny + r * math.sin(a))
    c.set_line_width(4)
    c.set_source_rgba(*rgba('#f06a8a'))
    c.stroke()
    # spring onion
    for _ in range(38):
        a, d = rng.uniform(0, 6.3), rng.uniform(0, 52)
        x, y = cx + 20 + d * math.cos(a), cy - 4 + d * math.sin(a) * 0.8
        r = rng.uniform(4.5, 7)
        c.new_path()
        c.arc(x, y, r, 0, 2 * math.pi)
        c.set_line_width(2.6)
        c.set_source_rgba(*rgba(rng.choice(['#5fb24a', '#7cc860', '#a5dd7a'])))
        c.stroke()
    # sesame
    for _ in range(30):
        a, d = rng.uniform(0, 6.3), rng.uniform(20, 150)
        x, y = cx + d * math.cos(a), cy + d * math.sin(a)
        c.save()
        c.translate(x, y)
        c.rotate(rng.uniform(0, 3.14))
        fill(c, lambda c: ellipse(c, 0, 0, 2.6, 1.4), '#fff6dc')
        c.restore()
    # broth sheen
    cv.soft(lambda c: ellipse(c, cx - 90, cy - 110, 40, 14), 8, rgba('#ffffff', 0.25))
    c.restore()
    # chopsticks
    for dx in (0, 18):
        cv.soft(lambda c, dx=dx: (c.move_to(360 + dx, 40), c.line_to(520 + dx, 420)), 5, rgba('#000000', 0.45),
                dx=8, dy=8, stroke_width=11)
    for dx in (0, 18):
        c.new_path()
        c.move_to(360 + dx, 40)
        c.line_to(520 + dx, 420)
        c.set_line_width(11)
        c.set_source_rgba(*rgba('#b98955'))
        c.stroke()
        c.move_to(362 + dx, 40)
        c.line_to(522 + dx, 420)
        c.set_line_width(3)
        c.set_source_rgba(*rgba('#e7c79c', 0.8))
        c.stroke()
        c.move_to(360 + dx, 40)
        c.line_to(384 + dx, 97)
        c.set_line_width(11.5)
        c.set_source_rgba(*rgba('#2a1a12'))
        c.stroke()


def flower(c, x, y, r, petals, col1, col2, center, rot=0.0, length=1.0):
    c.save()
    c.translate(x, y)
    c.rotate(rot)
    for k in range(petals):
        c.save()
        c.rotate(2 * math.pi * k / petals)
        c.move_to(0, 0)
        c.curve_to(-r * 0.42, -r * 0.3 * length, -r * 0.34, -r * length, 0, -r * length)
        c.curve_to(r * 0.34, -r * length, r * 0.42, -r * 0.3 * length, 0, 0)
        c.close_path()
        src(c, lg(0, 0, 0, -r * length, [(0, col2), (1, col1)]))
        c.fill()
        c.restore()
    fill(c, lambda c: circle(c, 0, 0, r * 0.26), rg(-r * 0.08, -r * 0.08, 1, 0, 0, r * 0.28, [(0, mix(center, '#ffffff', 0.4)),
         (1, center)]))
    c.restore()


def leaf(c, x, y, l, a, col1='#3f8a4a', col2='#8acb7a'):
    c.save()
    c.translate(x, y)
    c.rotate(a)
    c.move_to(0, 0)
    c.curve_to(l * 0.25, -l * 0.3, l * 0.7, -l * 0.25, l, 0)
    c.curve_to(l * 0.7, l * 0.25, l * 0.25, l * 0.3, 0, 0)
    src(c, lg(0, -l * 0.2, 0, l * 0.2, [(0, col2), (1, col1)]))
    c.fill()
    c.move_to(0, 0)
    c.line_to(l * 0.9, 0)
    c.set_line_width(1.2)
    c.set_source_rgba(1, 1, 1, 0.35)
    c.stroke()
    c.restore()


def flowers(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    fill(c, lambda c: c.rectangle(0, 0, W, H), lg(0, 0, 0, H, [(0, '#f6efe4'), (1, '#eadfcf')]))
    cv.soft(lambda c: circle(c, 120, 120, 160), 80, rgba('#ffffff', 0.6))
    fill(c, lambda c: c.rectangle(0, 600, W, H - 600), lg(0, 600, 0, H, [(0, '#e3c9a8'), (1, '#d4b58e')]))
    fill(c, lambda c: c.rectangle(0, 600, W, 3), rgba('#fff4e2', 0.7))
    # window light falling on the wall
    cv.soft(lambda c: (c.move_to(330, 0), c.line_to(470, 0), c.line_to(540, 120), c.line_to(540, 260), c.close_path()), 20,
            rgba('#ffffff', 0.35))
    vx, vtop, vbot = 262, 420, 640
    stems = []
    heads = [(150, 220, 'cosmos'), (230, 150, 'daisy'), (320, 190, 'tulip'), (380, 290, 'cosmos'), (130, 330, 'tulip'),
             (260, 260, 'daisy'), (200, 110, 'tulip'), (350, 110, 'daisy'), (430, 200, 'tulip')]
    for hx, hy, kind in heads:
        bx = vx + (hx - vx) * 0.12
        stems.append(((bx, vtop + 20), (bx + (hx - bx) * 0.2, vtop - 80), (hx, hy + 60), (hx, hy)))
    # stems and leaves
    for (p0, p1, p2, p3) in stems:
        c.new_path()
        c.move_to(*p0)
        c.curve_to(*p1, *p2, *p3)
        c.set_line_width(4)
        c.set_source_rgba(*rgba('#4f8a45'))
        c.stroke()
    for x, y, l, a in [(200, 380, 70, -2.6), (310, 370, 80, -0.5), (240, 330, 60, -2.0), (350, 300, 60, -0.9),
                       (170, 300, 50, -2.9), (420, 260, 44, -0.3)]:
        leaf(c, x, y, l, a)
    for hx, hy, kind in heads:
        cv.soft(lambda c, hx=hx, hy=hy: circle(c, hx + 6, hy + 8, 36), 10, rgba('#6a5040', 0.18))
        if kind == 'daisy':
            flower(c, hx, hy, 42, 14, '#ffffff', '#efe8e0', '#f6b21a', rng.uniform(0, 1))
        elif kind == 'cosmos':
            flower(c, hx, hy, 44, 8, '#ff9fc0', '#e2558a', '#f8c94a', rng.uniform(0, 1))
        else:
            c.save()
            c.translate(hx, hy)
            c.rotate(rng.uniform(-0.3, 0.3))
            col = rng.choice([('#ff7a5a', '#d8433a'), ('#ffb35a', '#f0803a'), ('#ff8fb0', '#d9557e')])
            fill(c, lambda c: (c.move_to(-26, -30), c.curve_to(-34, 10, -20, 34, 0, 34), c.curve_to(20, 34, 34, 10, 26, -30),
                               c.curve_to(18, -16, 10, -26, 0, -38), c.curve_to(-10, -26, -18, -16, -26, -30), c.close_path()),
                 lg(-30, 0, 30, 0, [(0, col[0]), (1, col[1])]))
            fill(c, lambda c: (c.move_to(-8, -30), c.curve_to(-14, 0, -4, 24, 6, 32), c.curve_to(16, 10, 14, -10, 8, -32),
                               c.close_path()), lg(0, -30, 0, 30, [(0, mix(col[0], '#ffffff', 0.35)), (1, col[0])]))
            c.restore()
    # vase: a round ceramic jar
    def vase(c):
        c.move_to(vx - 34, vtop)
        c.line_to(vx + 34, vtop)
        c.curve_to(vx + 36, vtop + 30, vx + 110, vtop + 60, vx + 108, vtop + 130)
        c.curve_to(vx + 106, vtop + 190, vx + 60, vbot, vx, vbot)
        c.curve_to(vx - 60, vbot, vx - 106, vtop + 190, vx - 108, vtop + 130)
        c.curve_to(vx - 110, vtop + 60, vx - 36, vtop + 30, vx - 34, vtop)
        c.close_path()
    cv.soft(lambda c: ellipse(c, vx + 50, vbot - 4, 130, 16), 12, rgba('#7a5530', 0.45))
    fill(c, vase, lg(vx - 110, 0, vx + 110, 0, [(0, '#8fb3c9'), (0.35, '#c6dce8'), (1, '#5d829b')]))
    c.save()
    c.new_path()
    vase(c)
    c.clip()
    c.set_line_width(3)
    c.set_source_rgba(*rgba('#ffffff', 0.55))
    for y in (vtop + 70, vtop + 80):
        c.new_path()
        ellipse(c, vx, y, 110, 12, 0, math.pi)
        c.stroke()
    cv.soft(lambda c: ellipse(c, vx - 48, vtop + 110, 12, 40), 8, rgba('#ffffff', 0.45))
    c.restore()
    fill(c, lambda c: ellipse(c, vx, vtop, 34, 6), '#4f7088')
    # a fallen petal and a small cup
    flower(c, 110, 660, 16, 8, '#ff9fc0', '#e2558a', '#f8c94a', 0.5)
    cv.soft(lambda c: ellipse(c, 440, 650, 52, 8), 6, rgba('#7a5530', 0.4))
    fill(c, lambda c: (c.move_to(396, 590), c.line_to(484, 590), c.curve_to(482, 630, 470, 650, 440, 650),
                       c.curve_to(410, 650, 398, 630, 396, 590), c.close_path()),
         lg(396, 0, 484, 0, [(0, '#f3ece2'), (0.4, '#ffffff'), (1, '#d8cfc2')]))
    fill(c, lambda c: ellipse(c, 440, 590, 44, 7), '#c9a27a')


def teapot(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    fill(c, lambda c: c.rectangle(0, 0, W, H), lg(0, 0, 0, H, [(0, '#c9d6c2'), (1, '#b3c3aa')]))
    cv.soft(lambda c: circle(c, 420, 140, 180), 90, rgba('#f4f6e8', 0.6))
    ty = 500
    fill(c, lambda c: c.rectangle(0, ty, W, H - ty), lg(0, ty, 0, H, [(0, '#e9dcc6'), (1, '#d7c4a6')]))
    for _ in range(10):
        y = rng.uniform(ty + 8, H)
        fill(c, lambda c, y=y: c.rectangle(0, y, W, 1), rgba('#b89c74', 0.25))
    fill(c, lambda c: c.rectangle(0, ty, W, 2), rgba('#fff6e6', 0.8))
    bx, by, rx, ry = 240, 410, 138, 104
    # shadow
    cv.soft(lambda c: ellipse(c, bx + 30, 514, 170, 18), 14, rgba('#5a4a30', 0.45))
    # steam
    for sx, ph in [(70, 0), (92, 1.5)]:
        pts = [(sx + 12 * math.sin(t * 0.9 + ph), 300 - t * 26) for t in range(8)]
        cv.soft(lambda c, pts=pts: smooth(c, pts), 6, rgba('#ffffff', 0.55), stroke_width=7)
    glaze = lg(bx - rx, by - ry, bx + rx, by + ry, [(0, '#eef5f0'), (0.45, '#bcd6cb'), (1, '#7ea797')])
    # spout
    fill(c, lambda c: (c.move_to(bx - 110, by + 10), c.curve_to(bx - 150, by + 6, bx - 160, by - 60, bx - 188, by - 96),
                       c.curve_to(bx - 192, by - 104, bx - 176, by - 112, bx - 168, by - 102),
                       c.curve_to(bx - 146, by - 70, bx - 120, by - 50, bx - 100, by - 50), c.close_path()), glaze)
    c.save()
    c.translate(bx - 179, by - 105)
    c.rotate(0.75)
    fill(c, lambda c: ellipse(c, 0, 0, 11, 4), '#5f8a7a')
    c.restore()
    # handle
    c.new_path()
    c.move_to(bx + 112, by - 56)
    c.curve_to(bx + 200, by - 90, bx + 220, by + 30, bx + 118, by + 52)
    c.set_line_width(22)
    src(c, lg(bx + 100, 0, bx + 220, 0, [(0, '#a9c8bb'), (1, '#6f9a8a')]))
    c.stroke()
    # body
    fill(c, lambda c: (c.move_to(bx - 70, 508), c.curve_to(bx - 170, 500, bx - rx - 10, by - 40, bx - 80, by - 90),
                       c.curve_to(bx - 40, by - 108, bx + 40, by - 108, bx + 80, by - 90),
                       c.curve_to(bx + rx + 10, by - 40, bx + 170, 500, bx + 70, 508), c.close_path()), glaze)
    fill(c, lambda c: rrect(c, bx - 70, 500, 140, 10, 5), '#7a9d8e')
    # blue band and lid
    c.save()
    c.new_path()
    c.move_to(bx - 70, 508)
    c.curve_to(bx - 170, 500, bx - rx - 10, by - 40, bx - 80, by - 90)
    c.curve_to(bx - 40, by - 108, bx + 40, by - 108, bx + 80, by - 90)
    c.curve_to(bx + rx + 10, by - 40, bx + 170, 500, bx + 70, 508)
    c.close_path()
    c.clip()
    for y, w in [(by + 20, 8), (by + 34, 3)]:
        c.new_path()
        ellipse(c, bx, y - 40, 160, 42, 0.15, math.pi - 0.15)
        c.set_line_width(w)
        c.set_source_rgba(*rgba('#355f86', 0.85))
        c.stroke()
    cv.soft(lambda c: ellipse(c, bx - 70, by - 30, 22, 46), 12, rgba('#ffffff', 0.6))
    c.restore()
    fill(c, lambda c: ellipse(c, bx, by - 96, 70, 14), lg(0, by - 110, 0, by - 82, [(0, '#e8f2ec'), (1, '#9fbfb2')]))
    fill(c, lambda c: (c.move_to(bx - 62, by - 98), c.curve_to(bx - 60, by - 140, bx + 60, by - 140, bx + 62, by - 98), c.close_path()),
         lg(bx - 60, 0, bx + 60, 0, [(0, '#f2f8f4'), (1, '#8fb3a4')]))
    fill(c, lambda c: ellipse(c, bx, by - 134, 16, 10), lg(0, by - 144, 0, by - 124, [(0, '#d8a860'), (1, '#946a30')]))
    # tea cup
    ux, uy = 440, 560
    cv.soft(lambda c: ellipse(c, ux + 10, uy + 40, 80, 12), 8, rgba('#5a4a30', 0.45))
    fill(c, lambda c: ellipse(c, ux, uy + 38, 70, 12), lg(0, uy + 26, 0, uy + 50, [(0, '#f4f8f5'), (1, '#b5cfc3')]))
    fill(c, lambda c: (c.move_to(ux - 52, uy - 14), c.curve_to(ux - 50, uy + 36, ux - 20, uy + 40, ux, uy + 40),
                       c.curve_to(ux + 20, uy + 40, ux + 50, uy + 36, ux + 52, uy - 14), c.close_path()), glaze)
    fill(c, lambda c: ellipse(c, ux, uy - 14, 52, 12), '#e6f0ea')
    fill(c, lambda c: ellipse(c, ux, uy - 12, 46, 9), lg(0, uy - 20, 0, uy - 4, [(0, '#c98a3a'), (1, '#a8651e')]))
    cv.soft(lambda c: ellipse(c, ux - 14, uy - 14, 14, 3), 2, rgba('#ffe0a8', 0.7))


def backpack(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    fill(c, lambda c: c.rectangle(0, 0, W, H), lg(0, 0, 0, H, [(0, '#d6e1ea'), (1, '#b9c8d5')]))
    cv.soft(lambda c: circle(c, 140, 140, 200), 90, rgba('#ffffff', 0.55))
    fill(c, lambda c: c.rectangle(0, 680, W, H - 680), lg(0, 680, 0, H, [(0, '#c3d0db'), (1, '#aebfcd')]))
    cv.soft(lambda c: ellipse(c, 290, 712, 210, 22), 16, rgba('#2f3f50', 0.45))
    main = '#d99a3e'
    dark = '#b87a24'

    def body(c):
        c.move_to(120, 690)
        c.line_to(120, 300)
        c.curve_to(120, 220, 170, 180, 270, 180)
        c.curve_to(370, 180, 420, 220, 420, 300)
        c.line_to(420, 690)
        c.curve_to(420, 706, 410, 712, 396, 712)
        c.line_to(144, 712)
        c.curve_to(130, 712, 120, 706, 120, 690)
        c.close_path()
    # handle loop
    c.new_path()
    c.move_to(232, 190)
    c.curve_to(232, 130, 308, 130, 308, 190)
    c.set_line_width(12)
    c.set_source_rgba(*rgba('#6b4a2a'))
    c.stroke()
    # side pockets
    for s in (-1, 1):
        x = 270 + s * 150
        fill(c, lambda c, x=x: rrect(c, x - 26, 470, 52, 220, 20), lg(x - 26, 0, x + 26, 0, [(0, dark), (1, '#9a6418')]))
    fill(c, body, rg(200, 320, 30, 270, 440, 330, [(0, '#f0b55a'), (0.7, main), (1, dark)]))
    c.save()
    c.new_path()
    body(c)
    c.clip()
    c.set_line_width(1.6)
    c.set_dash([6, 4])
    c.set_source_rgba(*rgba('#fbe2b8', 0.7))
    c.new_path()
    c.move_to(130, 690)
    c.line_to(130, 300)
    c.curve_to(130, 230, 176, 190, 270, 190)
    c.curve_to(364, 190, 410, 230, 410, 300)
    c.line_to(410, 690)
    c.stroke()
    c.set_dash([])
    c.restore()
    # front pocket with a zip
    cv.soft(lambda c: rrect(c, 160, 470, 220, 200, 36), 6, rgba('#6a3e10', 0.35), dy=5)
    fill(c, lambda c: rrect(c, 160, 470, 220, 200, 36), lg(0, 470, 0, 670, [(0, '#e8a84a'), (1, '#c7841e')]))
    c.set_line_width(5)
    c.set_source_rgba(*rgba('#5a3a1a'))
    c.move_to(182, 500)
    c.line_to(358, 500)
    c.stroke()
    c.set_line_width(2)
    c.set_source_rgba(*rgba('#c9a070'))
    for x in range(184, 358, 5):
        c.move_to(x, 497)
        c.line_to(x, 503)
    c.stroke()
    fill(c, lambda c: rrect(c, 330, 494, 14, 26, 4), lg(330, 0, 344, 0, [(0, '#c8ccd0'), (0.5, '#ffffff'), (1, '#9aa0a6')]))
    # flap
    def flap(c):
        c.move_to(120, 300)
        c.curve_to(120, 220, 170, 180, 270, 180)
        c.curve_to(370, 180, 420, 220, 420, 300)
        c.line_to(420, 360)
        c.curve_to(420, 400, 390, 420, 350, 420)
        c.line_to(190, 420)
        c.curve_to(150, 420, 120, 400, 120, 360)
        c.close_path()
    cv.soft(flap, 8, rgba('#6a3e10', 0.4), dy=8)
    fill(c, flap, rg(210, 230, 20, 270, 300, 240, [(0, '#f6c070'), (1, '#c98a2e')]))
    c.set_line_width(1.6)
    c.set_dash([6, 4])
    c.set_source_rgba(*rgba('#fbe2b8', 0.7))
    c.new_path()
    c.move_to(132, 300)
    c.curve_to(132, 230, 176, 192, 270, 192)
    c.curve_to(364, 192, 408, 230, 408, 300)
    c.line_to(408, 360)
    c.curve_to(408, 392, 384, 408, 350, 408)
    c.line_to(190, 408)
    c.curve_to(156, 408, 132, 392, 132, 360)
    c.close_path()
    c.stroke()
    c.set_dash([])
    # leather straps and buckles
    for x in (210, 330):
        cv.soft(lambda c, x=x: rrect(c, x - 14, 330, 28, 150, 6), 4, rgba('#3a2010', 0.4), dy=4)
        fill(c, lambda c, x=x: rrect(c, x - 14, 330, 28, 150, 6), lg(x - 14, 0, x + 14, 0, [(0, '#7a4a28'), (0.5, '#93603a'),
             (1, '#6a3e20')]))
        c.new_path()
        rrect(c, x - 18, 436, 36, 28, 5)
        c.set_line_width(4)
        src(c, lg(x - 18, 436, x + 18, 464, [(0, '#fff0c0'), (0.5, '#c9a050'), (1, '#8a6a28')]))
        c.stroke()
        fill(c, lambda c, x=x: rrect(c, x - 2, 434, 4, 32, 2), '#b08a40')
        c.set_line_width(1.2)
        c.set_dash([4, 3])
        c.set_source_rgba(*rgba('#e8c8a0', 0.7))
        c.move_to(x - 9, 338)
        c.line_to(x - 9, 428)
        c.move_to(x + 9, 338)
        c.line_to(x + 9, 428)
        c.stroke()
        c.set_dash([])
    # a small round patch
    fill(c, lambda c: circle(c, 270, 270, 26), lg(0, 244, 0, 296, [(0, '#fff4e0'), (1, '#e8d4b0')]))
    fill(c, lambda c: (c.move_to(254, 280), c.line_to(264, 262), c.line_to(272, 274), c.line_to(278, 266), c.line_to(288, 280),
                       c.close_path()), '#5e8a6a')


def lamp(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    fill(c, lambda c: c.rectangle(0, 0, W, H), lg(0, 0, 0, H, [(0, '#1d3538'), (0.6, '#264548'), (1, '#1a2e30')]))
    lx, shade_top, shade_bot = 250, 330, 470
    cv.soft(lambda c: circle(c, lx, 420, 330), 120, rgba('#ffc983', 0.45))
    cv.soft(lambda c: (c.move_to(lx - 60, shade_top), c.line_to(lx + 60, shade_top), c.line_to(lx + 200, 60),
                       c.line_to(lx - 200, 60), c.close_path()), 40, rgba('#ffd9a0', 0.25))
    cv.soft(lambda c: (c.move_to(lx - 110, shade_bot), c.line_to(lx + 110, shade_bot), c.line_to(lx + 270, 730),
                       c.line_to(lx - 270, 730), c.close_path()), 50, rgba('#ffd9a0', 0.3))
    # framed picture on the wall
    fx, fy = 370, 150
    cv.soft(lambda c: c.rectangle(fx + 6, fy + 10, 140, 180), 10, rgba('#000000', 0.45))
    fill(c, lambda c: c.rectangle(fx, fy, 140, 180), lg(fx, fy, fx + 140, fy + 180, [(0, '#c8a06a'), (1, '#7a5a30')]))
    fill(c, lambda c: c.rectangle(fx + 12, fy + 12, 116, 156), '#efe6d6')
    fill(c, lambda c: circle(c, fx + 86, fy + 66, 22), '#e08a5a')
    fill(c, lambda c: (c.move_to(fx + 12, fy + 168), c.curve_to(fx + 40, fy + 100, fx + 80, fy + 120, fx + 128, fy + 90),
                       c.line_to(fx + 128, fy + 168), c.close_path()), '#6f9a8a')
    fill(c, lambda c: c.rectangle(fx, fy, 140, 180), lg(fx, 0, fx + 140, 0, [(0, (1, 0.85, 0.6, 0.12)), (1, (0, 0, 0, 0.25))]))
    # side table
    tt = 720
    fill(c, lambda c: c.rectangle(0, tt + 40, W, H - tt - 40), lg(0, tt + 40, 0, H, [(0, '#1c2d2c'), (1, '#132120')]))
    cv.soft(lambda c: ellipse(c, lx + 10, H - 18, 220, 14), 14, rgba('#000000', 0.5))
    for x in (90, 410):
        fill(c, lambda c, x=x: rrect(c, x, tt + 20, 18, H - tt - 30, 6), lg(x, 0, x + 18, 0, [(0, '#6a4026'), (1, '#40261a')]))
    fill(c, lambda c: rrect(c, 60, tt, 400, 30, 8), lg(0, tt, 0, tt + 30, [(0, '#b07a4c'), (1, '#6e4628')]))
    fill(c, lambda c: rrect(c, 60, tt, 400, 6, 3), rgba('#ffd9a0', 0.45))
    fill(c, lambda c: rrect(c, 80, 840, 360, 14, 6), lg(0, 840, 0, 854, [(0, '#8a5a36'), (1, '#5a3820')]))
    # books
    for i, (col, w, h) in enumerate([('#c8553d', 150, 22), ('#2f6f7a', 130, 20), ('#e8c36a', 140, 18)]):
        y = tt - (i + 1) * 21
        x = 320 + [0, 8, 2][i]
        fill(c, lambda c, x=x, y=y, w=w, h=h, col=col: rrect(c, x - w / 2 + 40, y, w, h, 3),
             lg(0, y, 0, y + h, [(0, mix(col, '#ffffff', 0.15)), (1, mix(col, '#000000', 0.25))]))
        fill(c, lambda c, x=x, y=y, w=w, h=h: c.rectangle(x - w / 2 + 44, y + 3, w - 8, 3), rgba('#fff6e0', 0.5))
    # base: a round ceramic jar
    cv.soft(lambda c: ellipse(c, lx + 10, tt + 2, 90, 10), 8, rgba('#000000', 0.5))
    fill(c, lambda c: (c.move_to(lx - 40, tt), c.curve_to(lx - 120, tt - 10, lx - 110, tt - 150, lx - 30, tt - 160),
                       c.line_to(lx + 30, tt - 160), c.curve_to(lx + 110, tt - 150, lx + 120, tt - 10, lx + 40, tt),
                       c.close_path()),
         rg(lx - 30, tt - 110, 10, lx, tt - 80, 120, [(0, '#f4d9a8'), (0.5, '#d8a45c'), (1, '#7a5226')]))
    # stem
    fill(c, lambda c: c.rectangle(lx - 4, shade_bot - 20, 8, tt - 160 - shade_bot + 24), lg(lx - 4, 0, lx + 4, 0,
         [(0, '#8a6a30'), (0.5, '#f6dc98'), (1, '#8a6a30')]))
    fill(c, lambda c: ellipse(c, lx, tt - 162, 20, 6), '#c8a050')
    # bulb glow under the shade
    cv.soft(lambda c: ellipse(c, lx, shade_bot, 100, 14), 10, rgba('#fff2d0', 0.9))
    # shade
    fill(c, lambda c: (c.move_to(lx - 62, shade_top), c.line_to(lx + 62, shade_top), c.line_to(lx + 112, shade_bot),
                       c.line_to(lx - 112, shade_bot), c.close_path()),
         lg(lx - 112, 0, lx + 112, 0, [(0, '#f7e4bf'), (0.4, '#fff3d8'), (1, '#e0c08a')]))
    for k in range(1, 9):
        t = k / 9
        c.new_path()
        c.move_to(lx - 62 + 124 * t, shade_top)
        c.line_to(lx - 112 + 224 * t, shade_bot)
        c.set_line_width(1)
        c.set_source_rgba(*rgba('#c8a070', 0.18))
        c.stroke()
    fill(c, lambda c: ellipse(c, lx, shade_bot, 112, 10), lg(0, shade_bot - 10, 0, shade_bot + 10, [(0, '#fff8e4'), (1, '#ffe2a6')]))
    fill(c, lambda c: ellipse(c, lx, shade_top, 62, 6), '#e8d0a0')
    # pool of light on the table
    cv.soft(lambda c: ellipse(c, lx, tt + 4, 150, 6), 8, rgba('#ffe0a8', 0.35))
    # plant in the corner
    fill(c, lambda c: (c.move_to(40, tt), c.line_to(44, tt - 50), c.line_to(96, tt - 50), c.line_to(100, tt), c.close_path()),
         lg(40, 0, 100, 0, [(0, '#e9e2d6'), (1, '#a8a090')]))
    for a, l in [(-2.2, 60), (-1.8, 70), (-1.4, 66), (-1.0, 56), (-2.6, 50), (-0.7, 44)]:
        leaf(c, 70, tt - 50, l, a, '#2e6a4a', '#6fae7e')


def watch(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    fill(c, lambda c: c.rectangle(0, 0, W, H), rg(W * 0.4, H * 0.35, 30, W / 2, H / 2, 420, [(0, '#efe9e0'), (1, '#cfc4b4')]))
    cx, cy, r = 270, 200, 104
    cv.soft(lambda c: (rrect(c, -20, cy - 44, W + 40, 88, 14), circle(c, cx, cy, r)), 10, rgba('#5a4630', 0.4), dx=8, dy=12)
    # strap
    strap = lg(0, cy - 44, 0, cy + 44, [(0, '#9a6440'), (0.5, '#7c4a2c'), (1, '#5e3620')])
    fill(c, lambda c: rrect(c, -20, cy - 44, W + 40, 88, 14), strap)
    c.set_line_width(1.4)
    c.set_dash([5, 3.5])
    c.set_source_rgba(*rgba('#ecd4b0', 0.85))
    for y in (cy - 36, cy + 36):
        c.move_to(-10, y)
        c.line_to(W + 10, y)
    c.stroke()
    c.set_dash([])
    # keeper loop and holes
    fill(c, lambda c: rrect(c, 60, cy - 48, 24, 96, 6), lg(60, 0, 84, 0, [(0, '#6a3e22'), (0.5, '#8a5634'), (1, '#5a321c')]))
    for x in (440, 468, 496):
        fill(c, lambda c, x=x: ellipse(c, x, cy, 4, 3), '#3a2012')
    # lugs
    for sy in (-1, 1):
        for sx in (-1, 1):
            fill(c, lambda c, sx=sx, sy=sy: rrect(c, cx + sx * 78 - 12, cy + sy * 60 - 14, 24, 28, 8),
                 lg(0, cy - 80, 0, cy + 80, [(0, '#f6e6c4'), (0.5, '#b8925a'), (1, '#f0dcb2')]))
    # crown
    fill(c, lambda c: rrect(c, cx + r - 4, cy - 13, 22, 26, 5), lg(0, cy - 13, 0, cy + 13, [(0, '#f6e6c4'), (0.5, '#a8824a'),
         (1, '#e8d2a4')]))
    for k in range(5):
        fill(c, lambda c, k=k: c.rectangle(cx + r + 2 + k * 3.4, cy - 13, 1.2, 26), rgba('#7a5a2a', 0.6))
    # case
    fill(c, lambda c: circle(c, cx, cy, r), lg(cx - r, cy - r, cx + r, cy + r, [(0, '#fff3d6'), (0.35, '#c9a262'),
         (0.6, '#f5e2b8'), (1, '#8f6a34')]))
    fill(c, lambda c: circle(c, cx, cy, r - 9), lg(cx - r, cy - r, cx + r, cy + r, [(0, '#8f6a34'), (1, '#f5e2b8')]))
    fill(c, lambda c: circle(c, cx, cy, r - 13), rg(cx - 20, cy - 30, 5, cx, cy, r, [(0, '#2e4470'), (0.7, '#1c2a4a'),
         (1, '#121c34')]))
    # markers
    for k in range(60):
        a = 2 * math.pi * k / 60
        c.save()
        c.translate(cx, cy)
        c.rotate(a)
        if k % 5 == 0:
            big = k % 15 == 0
            fill(c, lambda c, big=big: rrect(c, -(3 if big else 2), -(r - 20), 6 if big else 4, 16 if big else 11, 1.5),
                 lg(-3, 0, 3, 0, [(0, '#c9a262'), (0.5, '#fff0c8'), (1, '#a8824a')]))
        else:
            fill(c, lambda c: c.rectangle(-0.6, -(r - 19), 1.2, 4), rgba('#e8ddc8', 0.7))
        c.restore()

    def hand(a, length, width, col):
        c.save()
        c.translate(cx, cy)
        c.rotate(a)
        shape = lambda c: (c.move_to(-width / 2, 10), c.line_to(-width * 0.35, -length), c.line_to(0, -length - width),
                             c.line_to(width * 0.35, -length), c.line_to(width / 2, 10), c.close_path())
        fill(c, shape, col)
        c.restore()
    cv.soft(lambda c: circle(c, cx + 3, cy + 4, 6), 3, rgba('#000000', 0.5))
    hand(math.radians(300), 48, 7, lg(cx - 40, 0, cx + 40, 0, [(0, '#fff0c8'), (1, '#b8925a')]))
    hand(math.radians(60), 72, 5, lg(cx - 40, 0, cx + 40, 0, [(0, '#fff0c8'), (1, '#b8925a')]))
    c.save()
    c.translate(cx, cy)
    c.rotate(math.radians(195))
    c.move_to(0, 18)
    c.line_to(0, -78)
    c.set_line_width(1.6)
    c.set_source_rgba(*rgba('#ff6a3a'))
    c.stroke()
    c.restore()
    fill(c, lambda c: circle(c, cx, cy, 5), '#e8cc8a')
    # crystal reflection
    c.save()
    c.new_path()
    circle(c, cx, cy, r - 13)
    c.clip()
    fill(c, lambda c: (c.arc(cx, cy, r - 13, math.pi * 1.05, math.pi * 1.75), c.curve_to(cx + 20, cy - 40, cx - 40, cy - 20,
                       cx - r + 13, cy - 10), c.close_path()), lg(0, cy - r, 0, cy, [(0, (1, 1, 1, 0.22)), (1, (1, 1, 1, 0.02))]))
    c.restore()


def headphones(cv, rng):
    c, W, H = cv.ctx, cv.w, cv.h
    fill(c, lambda c: c.rectangle(0, 0, W, H), lg(0, 0, W, H, [(0, '#ffd1bd'), (1, '#f59c8a')]))
    cv.soft(lambda c: circle(c, 140, 60, 140), 60, rgba('#fff0e6', 0.6))
    # a round podium
    fill(c, lambda c: ellipse(c, 270, 286, 230, 40), lg(0, 246, 0, 326, [(0, '#fbe3d8'), (1, '#e9b4a4')]))
    fill(c, lambda c: c.rectangle(40, 286, 460, 30), lg(40, 0, 500, 0, [(0, '#e8a898'), (0.4, '#f6cdbf'), (1, '#d88d7c')]))
    fill(c, lambda c: ellipse(c, 270, 286, 230, 40), lg(0, 246, 0, 326, [(0, '#fff1ea'), (1, '#f2c6b8')]))
    cx, cy, R = 270, 196, 118
    cv.soft(lambda c: ellipse(c, cx, 286, 180, 16), 10, rgba('#8a4a3a', 0.5))
    # headband
    cv.soft(lambda c: c.arc(cx, cy, R, math.pi * 1.08, math.pi * 1.92), 6, rgba('#6a2a20', 0.35), dx=4, dy=6, stroke_width=22)
    c.new_path()
    c.arc(cx, cy, R, math.pi * 1.08, math.pi * 1.92)
    c.set_line_width(22)
    src(c, rg(cx, cy, R - 12, cx, cy, R + 12, [(0, '#2f3038'), (0.5, '#4a4c58'), (1, '#26272e')]))
    c.stroke()
    c.new_path()
    c.arc(cx, cy, R - 16, math.pi * 1.14, math.pi * 1.86)
    c.set_line_width(12)
    src(c, rg(cx, cy, R - 22, cx, cy, R - 10, [(0, '#e9e3da'), (1, '#c8bfb2')]))
    c.stroke()
    # sliders and cups
    for s in (-1, 1):
        x = cx + s * (R - 4)
        fill(c, lambda c, x=x: rrect(c, x - 5, cy - 46, 10, 56, 4), lg(x - 5, 0, x + 5, 0, [(0, '#a8adb5'), (0.5, '#f4f6f8'),
             (1, '#8a9099')]))
        ex = cx + s * (R + 4)
        cv.soft(lambda c, ex=ex: ellipse(c, ex + 4, cy + 40, 44, 58), 6, rgba('#6a2a20', 0.4), dy=6)
        fill(c, lambda c, ex=ex: ellipse(c, ex, cy + 36, 44, 58), rg(ex - 12, cy + 10, 6, ex, cy + 36, 62,
             [(0, '#fbf8f3'), (0.8, '#e4ddd2'), (1, '#bdb3a4')]))
        fill(c, lambda c, ex=ex: ellipse(c, ex, cy + 36, 32, 44), lg(ex - 30, 0, ex + 30, 0, [(0, '#d8d0c4'), (1, '#f6f2ec')]))
        fill(c, lambda c, ex=ex: ellipse(c, ex - s * 6, cy + 36, 10, 14), rgba('#c0b6a8', 0.6))
        # the cushion edge on the inner side
        fill(c, lambda c, ex=ex, s=s: ellipse(c, ex - s * 34, cy + 36, 12, 52), lg(0, cy - 20, 0, cy + 90, [(0, '#3a3b44'),
             (1, '#22232a')]))


# ---------------------------------------------------------------------------------------------
# Avatars

FACES = [
    # background, skin, hair, shirt, style
    (('#ffd6a5', '#ffb88a'), '#f5cba7', '#3b2a20', '#6c8ebf', 'bob'),
    (('#b8e0d2', '#8fc9b9'), '#e0ac84', '#1f1a17', '#f08a5d', 'short'),
    (('#d6c8f0', '#b9a6e6'), '#f7d7c0', '#a0522d', '#2f8f83', 'long'),
    (('#fbc4d4', '#f59bb6'), '#c68a62', '#2a1c14', '#fdfdfd', 'bun'),
    (('#c9e4ff', '#9cc9f5'), '#f1c9a5', '#e0b050', '#e84a5f', 'curly'),
    (('#fff1b8', '#ffd966'), '#8d5a3b', '#141414', '#3d5a80', 'cap'),
]


def face(cv, spec, rng):
    (bg1, bg2), skin, hair, shirt, style = spec
    c, W, H = cv.ctx, cv.w, cv.h
    fill(c, lambda c: c.rectangle(0, 0, W, H), lg(0, 0, W, H, [(0, bg1), (1, bg2)]))
    cv.soft(lambda c: circle(c, 30, 24, 40), 20, rgba('#ffffff', 0.35))
    cx, cy = 60, 56
    if style == 'long':
        fill(c, lambda c: (c.move_to(cx - 30, 100), c.curve_to(cx - 36, 60, cx - 34, 26, cx, 24),
                           c.curve_to(cx + 34, 26, cx + 36, 60, cx + 30, 100), c.close_path()), hair)
    if style == 'bob':
        fill(c, lambda c: rrect(c, cx - 31, 26, 62, 62, 26), hair)
    # shoulders and neck
    fill(c, lambda c: ellipse(c, cx, 124, 46, 34), lg(0, 90, 0, 120, [(0, mix(shirt, '#ffffff', 0.1)), (1, mix(shirt, '#000000', 0.15))]))
    fill(c, lambda c: rrect(c, cx - 9, 70, 18, 24, 6), mix(skin, '#000000', 0.12))
    fill(c, lambda c: (c.move_to(cx - 12, 90), c.curve_to(cx - 6, 100, cx + 6, 100, cx + 12, 90), c.close_path()),
         mix(skin, '#000000', 0.12))
    # ears and head
    for s in (-1, 1):
        fill(c, lambda c, s=s: ellipse(c, cx + s * 22, cy + 2, 5, 7), mix(skin, '#000000', 0.06))
    fill(c, lambda c: ellipse(c, cx, cy, 22, 26), rg(cx - 6, cy - 8, 2, cx, cy, 28, [(0, mix(skin, '#ffffff', 0.12)), (1, skin)]))
    # hair on top
    if style == 'bob':
        fill(c, lambda c: (c.move_to(cx - 26, cy - 2), c.curve_to(cx - 30, cy - 40, cx + 30, cy - 44, cx + 26, cy - 2),
                           c.curve_to(cx + 12, cy - 14, cx - 10, cy - 18, cx - 26, cy - 2), c.close_path()), hair)
    elif style == 'short':
        fill(c, lambda c: (c.move_to(cx - 23, cy - 2), c.curve_to(cx - 26, cy - 32, cx + 24, cy - 38, cx + 23, cy - 4),
                           c.curve_to(cx + 14, cy - 14, cx + 4, cy - 22, cx - 8, cy - 16),
                           c.curve_to(cx - 14, cy - 12, cx - 18, cy - 8, cx - 23, cy - 2), c.close_path()), hair)
    elif style == 'long':
        fill(c, lambda c: (c.move_to(cx - 24, cy + 6), c.curve_to(cx - 30, cy - 40, cx + 30, cy - 44, cx + 24, cy + 6),
                           c.curve_to(cx + 16, cy - 12, cx - 4, cy - 18, cx - 24, cy + 6), c.close_path()), hair)
    elif style == 'bun':
        fill(c, lambda c: circle(c, cx, cy - 32, 11), hair)
        fill(c, lambda c: (c.move_to(cx - 22, cy - 4), c.curve_to(cx - 24, cy - 32, cx + 24, cy - 32, cx + 22, cy - 4),
                           c.curve_to(cx + 10, cy - 16, cx - 10, cy - 16, cx - 22, cy - 4), c.close_path()), hair)
    elif style == 'curly':
        for k in range(13):
            a = math.pi * (1.0 + k / 12)
            fill(c, lambda c, a=a: circle(c, cx + 22 * math.cos(a), cy - 6 + 24 * math.sin(a), 8.5), hair)
        fill(c, lambda c: circle(c, cx, cy - 22, 12), hair)
    elif style == 'cap':
        fill(c, lambda c: (c.move_to(cx - 24, cy - 6), c.curve_to(cx - 24, cy - 36, cx + 24, cy - 36, cx + 24, cy - 6),
                           c.close_path()), '#e84a5f')
        fill(c, lambda c: (c.move_to(cx - 24, cy - 8), c.curve_to(cx, cy - 12, cx + 30, cy - 10, cx + 40, cy - 4),
                           c.curve_to(cx + 30, cy - 2, cx, cy - 4, cx - 24, cy - 4), c.close_path()), '#c73a4e')
        fill(c, lambda c: circle(c, cx, cy - 28, 2.5), '#c73a4e')
    # features
    for s in (-1, 1):
        fill(c, lambda c, s=s: ellipse(c, cx + s * 9, cy + 2, 2.2, 2.8), '#2a1f1a')
        fill(c, lambda c, s=s: circle(c, cx + s * 14, cy + 10, 4.5), rgba('#ff7a7a', 0.25))
    c.new_path()
    c.move_to(cx - 6, cy + 13)
    c.curve_to(cx - 3, cy + 17, cx + 3, cy + 17, cx + 6, cy + 13)
    c.set_line_width(1.8)
    c.set_source_rgba(*rgba('#7a3a2a'))
    c.stroke()
    if style == 'short':
        # round glasses
        c.set_line_width(1.6)
        c.set_source_rgba(*rgba('#2a2a2a'))
        for s in (-1, 1):
            c.new_path()
            c.arc(cx + s * 9, cy + 2, 6.5, 0, 2 * math.pi)
            c.stroke()
        c.move_to(cx - 2.5, cy + 1)
        c.line_to(cx + 2.5, cy + 1)
        c.stroke()


# ---------------------------------------------------------------------------------------------

PHOTOS = [
    # name, height (width 540), subject, draw
    ('p01.jpg', 720, 'a sunset over the sea', sunset),          # 3:4
    ('p02.jpg', 675, 'a strawberry layer cake', dessert),       # 4:5
    ('p03.jpg', 540, 'a latte from above', latte),              # 1:1
    ('p04.jpg', 810, 'a strawberry-print dress on a hanger', dress),  # 2:3
    ('p05.jpg', 405, 'a sneaker', sneaker),                     # 4:3
    ('p06.jpg', 304, 'mountains over a lake', mountains),       # 16:9
    ('p07.jpg', 960, 'a city skyline at dusk', skyline),        # 9:16
    ('p08.jpg', 540, 'a bowl of ramen', noodles),               # 1:1
    ('p09.jpg', 720, 'flowers in a vase', flowers),             # 3:4
    ('p10.jpg', 675, 'a teapot and cup', teapot),               # 4:5
    ('p11.jpg', 810, 'a backpack', backpack),                   # 2:3
    ('p12.jpg', 960, 'a table lamp at night', lamp),            # 9:16
    ('p13.jpg', 405, 'a wristwatch', watch),                    # 4:3
    ('p14.jpg', 304, 'headphones', headphones),                 # 16:9
]


def main():
    for i, (name, h, _, draw) in enumerate(PHOTOS):
        cv = Canvas(WIDTH, h)
        draw(cv, random.Random(1000 + i))
        save(cv.image(grain=1.2, seed=i), name)
    for i, spec in enumerate(FACES):
        cv = Canvas(120, 120)
        face(cv, spec, random.Random(2000 + i))
        save(cv.image(), 'face%d.jpg' % (i + 1))


if __name__ == '__main__':
    main()
