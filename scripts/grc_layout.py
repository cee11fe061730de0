#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""
Lays out each GRC example as GNU Radio Companion 3.10 draws it (GRC's own canvas code:
block sizes from their labels, parameters and ports, comments under the blocks), then
  check:       fails when two blocks or comments overlap or a wire runs right to left
               (a source port to the right of the sink port it feeds);
  screenshot:  writes each example as PNG, as GRC's File > Screen Capture does;
  arrange:     rewrites the coordinates in FILE.grc: variables and parameters in rows at
               the top, the other blocks in columns by their distance from a source, so
               every wire runs left to right and nothing overlaps.
Needs a display: scripts/grc_screenshots.sh and the ctest run it under Xvfb.
  grc_layout.py check FILE.grc...
  grc_layout.py screenshot OUTDIR FILE.grc...
  grc_layout.py arrange FILE.grc...
The GRC block path: GRC_BLOCKS_PATH (the module's grc/ when not installed).
"""

import os
import sys

import gi

gi.require_version('Gtk', '3.0')
gi.require_version('PangoCairo', '1.0')
from gi.repository import Gio, Gtk  # noqa: E402

from gnuradio import gr  # noqa: E402
from gnuradio.grc.gui.Platform import Platform  # noqa: E402  (first: GRC's import order)
from gnuradio.grc.gui import Actions, Utils  # noqa: E402
from gnuradio.grc.gui.canvas import flowgraph as canvas_flowgraph  # noqa: E402


def make_platform():
    platform = Platform(version=gr.version(),
                        version_parts=(gr.major_version(), gr.api_version(),
                                       gr.minor_version()),
                        prefs=gr.prefs(), install_prefix=gr.prefix())
    platform.build_library()
    return platform


def load(platform, path):
    """The flowgraph with every block sized as GRC draws it."""
    fg = platform.make_flow_graph(path)
    fg.rewrite()
    fg.validate()
    fg.update_elements_to_draw()
    fg.create_labels()
    fg.create_shapes()
    return fg


def boxes(fg):
    """(what, x0, y0, x1, y1) of each block and of each block's comment."""
    out = []
    for block in fg.blocks:
        if not block.enabled and block.state != 'bypassed':
            continue
        out.append(('block ' + block.name,) + tuple(block.get_extents()))
        x0, y0, x1, y1 = block.get_extents_comment()
        if x1 > x0 and y1 > y0:
            out.append(('comment of ' + block.name, x0, y0, x1, y1))
    return out


def overlaps(a, b):
    return a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]


def check(fg, path):
    problems = []
    items = boxes(fg)
    for i, a in enumerate(items):
        for b in items[i + 1:]:
            if overlaps(a, b):
                problems.append('{}: {} ({:.0f},{:.0f})-({:.0f},{:.0f}) overlaps {} '
                                '({:.0f},{:.0f})-({:.0f},{:.0f})'.format(
                                    path, a[0], *a[1:], b[0], *b[1:]))
    for c in fg.connections:
        if not c.enabled:
            continue
        src, snk = c.source_port, c.sink_port
        sx = src.parent_block.coordinate[0] + src.coordinate[0]
        dx = snk.parent_block.coordinate[0] + snk.coordinate[0]
        if sx > dx:
            problems.append('{}: wire {} -> {} runs right to left (x {:.0f} -> {:.0f})'.format(
                path, src.parent_block.name, snk.parent_block.name, sx, dx))
    return problems


GRID = 8
GAP_X = 64   # between columns: room for the wires
GAP_Y = 24   # between a block (with its comment) and the next
ROW_WIDTH = 1400


def snap(v):
    return int(-(-v // GRID) * GRID)


def footprint(block):
    """(left, top, right, bottom) of the block, its ports and its comment, relative to its
    coordinate."""
    x, y = block.coordinate
    x0, y0, x1, y1 = block.get_extents()
    cx0, cy0, cx1, cy1 = block.get_extents_comment()
    if cx1 > cx0:
        x0, y0, x1, y1 = min(x0, cx0), min(y0, cy0), max(x1, cx1), max(y1, cy1)
    return x0 - x, y0 - y, x1 - x, y1 - y


def arrange(fg):
    """{block name: (x, y)}."""
    place = {}
    options = [b for b in fg.blocks if b.key == 'options']
    free = [b for b in fg.blocks if b.key != 'options' and not b.sinks and not b.sources]
    wired = [b for b in fg.blocks if b.key != 'options' and (b.sinks or b.sources)]
    # Rows at the top: Options, then the variables, parameters and imports in file order.
    x, y, row_h = 8, 8, 0
    for b in options + free:
        l, t, r, btm = footprint(b)
        if x > 8 and x + r - l > ROW_WIDTH:
            x, y, row_h = 8, y + row_h + GAP_Y, 0
        place[b.name] = (snap(x - l), snap(y - t))
        x = snap(x + r - l + GAP_Y)
        row_h = max(row_h, btm - t)
    top = snap(y + row_h + 2 * GAP_Y)
    # Columns: each block one to the right of the furthest block feeding it.
    preds = {b.name: set() for b in wired}
    for c in fg.connections:
        a, z = c.source_port.parent_block.name, c.sink_port.parent_block.name
        if a in preds and z in preds and a != z:
            preds[z].add(a)
    depth = {}

    def depth_of(name, seen=()):
        if name not in depth:
            depth[name] = 1 + max((depth_of(p, seen + (name,)) for p in preds[name]
                                   if p not in seen), default=-1)
        return depth[name]

    columns = {}
    for b in wired:
        columns.setdefault(depth_of(b.name), []).append(b)
    x = 16
    for d in sorted(columns):
        col = sorted(columns[d], key=lambda b: b.coordinate[1])
        left = min(footprint(b)[0] for b in col)
        width = max(footprint(b)[2] - left for b in col)
        y = top
        for b in col:
            l, t, r, btm = footprint(b)
            place[b.name] = (snap(x - left), snap(y - t))
            y += btm - t + GAP_Y
        x += width + GAP_X
    return place


def rewrite_coordinates(path, place):
    """Replaces each block's coordinate line in the .grc text, nothing else."""
    lines = open(path).read().split('\n')
    name = 'options'
    for i, line in enumerate(lines):
        if line.startswith('- name: '):
            name = line[len('- name: '):].strip()
        elif line.strip().startswith('coordinate: [') and name in place:
            indent = line[:len(line) - len(line.lstrip())]
            lines[i] = '{}coordinate: [{}, {}]'.format(indent, *place[name])
    open(path, 'w').write('\n'.join(lines))


def main(argv):
    if len(argv) < 3 or argv[1] not in ('check', 'screenshot', 'arrange'):
        sys.exit(__doc__)
    # GRC's canvas looks for its application's main window to attach a context menu to:
    # an application without a window, and no menu.
    canvas_flowgraph._ContextMenu = lambda main_window: None
    app = Gtk.Application(application_id='org.gnuradio.gpuofdm.layout',
                          flags=Gio.ApplicationFlags.NON_UNIQUE)
    app.register(None)
    Gio.Application.set_default(app)
    # GRC's default view: comments shown, variables and disabled blocks too, no block ids.
    Actions.TOGGLE_SHOW_BLOCK_COMMENTS.set_active(True)
    Actions.TOGGLE_HIDE_VARIABLES.set_active(False)
    Actions.TOGGLE_HIDE_DISABLED_BLOCKS.set_active(False)
    Actions.TOGGLE_SHOW_BLOCK_IDS.set_active(False)
    Actions.TOGGLE_SHOW_FLOWGRAPH_COMPLEXITY.set_active(False)
    platform = make_platform()
    if argv[1] == 'check':
        problems = []
        for path in argv[2:]:
            problems += check(load(platform, path), path)
            print('{}: {} blocks and comments'.format(
                path, len(boxes(load(platform, path)))))
        for p in problems:
            print(p)
        print('FAIL: {} problems'.format(len(problems)) if problems else
              'PASS: no overlaps, every wire left to right')
        return 1 if problems else 0
    if argv[1] == 'arrange':
        for path in argv[2:]:
            fg = load(platform, path)
            rewrite_coordinates(path, arrange(fg))
            print('arranged', path)
        return 0
    outdir = argv[2]
    os.makedirs(outdir, exist_ok=True)
    for path in argv[3:]:
        png = os.path.join(outdir, os.path.splitext(os.path.basename(path))[0] + '.png')
        Utils.make_screenshot(load(platform, path), png)
        print('wrote', png)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
