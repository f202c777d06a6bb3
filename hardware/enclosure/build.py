"""Build the printable cup for each board: STL and STEP of every part, a preview picture, and a check.

    python hardware/enclosure/build.py                 # every board in hardware/boards/
    python hardware/enclosure/build.py --board pico_w  # one board (repeatable)
    python hardware/enclosure/build.py --data DIR      # boards/ and parts.json from DIR instead
    python hardware/enclosure/build.py --preview       # also write docs/enclosure_<board>.png

Writes build/enclosure/<board>/<part>.stl and .step (git-ignored), each part turned the way it prints best
(PRINT_POSE), and a preview of the closed cup and its parts (matplotlib, no display needed). `make enclosure`
runs it. Needs build123d, trimesh and matplotlib (pyproject.toml's dev extra).
"""

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import layout as layout_mod  # noqa: E402

# How each part goes on the print bed (about the x axis, in degrees): the body prints upside down, the lip
# on the bed, so the tube needs no support; the caps stand on their flanges.
PRINT_POSE = {"body": 180.0}
TOLERANCE = 0.05            # mm: the STL's chord error, fine enough for a 0.3 mm fit


def build(spec, parts):
    """(layout, {name: build123d solid in the assembled position})."""
    import model
    lay = layout_mod.layout(spec, parts)
    return lay, model.parts(lay)


def mesh(solid, tolerance=TOLERANCE):
    """A build123d solid -> trimesh.Trimesh (through the same tessellation an STL export uses)."""
    import numpy as np
    import trimesh
    verts, tris = solid.tessellate(tolerance, 0.2)
    return trimesh.Trimesh(np.array([tuple(v) for v in verts]), np.array(tris), process=True)


def print_pose(name, solid):
    """The part as it lies on the bed: turned per PRINT_POSE and set on z = 0."""
    from build123d import Pos, Rot
    if name.startswith("cap_"):
        shape = solid   # caps are exported from their own frame, see cap_for_print
    else:
        shape = Rot(PRINT_POSE.get(name, 0.0), 0, 0) * solid
    bb = shape.bounding_box()
    return Pos(-bb.center().X, -bb.center().Y, -bb.min.Z) * shape


def export(lay, solids, out_dir):
    from build123d import export_step, export_stl
    out_dir.mkdir(parents=True, exist_ok=True)
    import model
    written = []
    for name, solid in solids.items():
        if name.startswith("cap_"):
            button = next(b for b in lay["buttons"] if b["role"] == "button_" + name[4:])
            solid = model.cap_for_print(lay, button)
        shape = print_pose(name, solid)
        for ext, fn in (("stl", lambda s, p: export_stl(s, p, tolerance=TOLERANCE)), ("step", export_step)):
            path = out_dir / ("%s.%s" % (name, ext))
            fn(shape, str(path))
            written.append(path)
    return written


# Pips lit in the preview (faces 4, 5, 6; pip numbers as in firmware/cup/leds.py).
SHOWN = ({0, 1, 5, 6}, {0, 1, 3, 5, 6}, {0, 1, 2, 4, 5, 6})
COLORS = {"body": "#c9a27a", "lid": "#8a6a4a", "deck": "#6f8fb0", "led_carrier": "#4a7a4a",
          "light_grid": "#303030", "diffuser": "#f4f4f4"}


def preview(lay, solids, path):
    """Two views side by side: the closed cup from the player's side, and the parts pulled apart."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection
    fig = plt.figure(figsize=(7.2, 4.2), dpi=80)
    views = (("closed cup", {}), ("parts, pulled apart", {"lid": -30, "deck": -12, "led_carrier": 30,
                                                         "light_grid": 50, "diffuser": 70, "body": 0}))
    for i, (title, lift) in enumerate(views):
        ax = fig.add_subplot(1, 2, i + 1, projection="3d")
        tris, cols = [], []
        for name, solid in solids.items():
            if i == 1 and name == "body":
                continue                          # the exploded view shows the insides
            # Small triangles: matplotlib sorts whole triangles by depth, long ones come out in front.
            m = mesh(solid, 0.4).subdivide_to_size(max_edge=6.0)
            tri = m.vertices[m.faces].copy()
            tri[:, :, 2] += lift.get(name, 0)
            light = 0.55 + 0.45 * abs(m.face_normals @ [0.3, -0.5, 0.8])
            base = matplotlib.colors.to_rgb(COLORS.get(name, "#d04040"))
            tris.append(tri)
            cols += [(base[0] * s, base[1] * s, base[2] * s) for s in light]
        # The pips seen through the diffuser, showing a throw of 4, 5, 6 and the blue status pixel.
        top = lay["z_diffuser"] + lay["diffuser"] + 0.3 + lift.get("diffuser", 0)
        for k, (x, y) in enumerate(lay["leds"]):
            lit = k == 21 or k % 7 in SHOWN[k // 7]
            ring = [(x + 2.4 * np.cos(a), y + 2.4 * np.sin(a), top) for a in np.linspace(0, 2 * np.pi, 9)]
            tris.append(np.array([[(x, y, top), ring[j], ring[j + 1]] for j in range(8)]))
            cols += [("#3070ff" if k == 21 else "#fff6c0") if lit else "#9a9a9a"] * 8
        ax.add_collection3d(Poly3DCollection(np.concatenate(tris), facecolors=cols, linewidths=0))
        r = lay["r_out"]
        ax.set_xlim(-r, r)
        ax.set_ylim(-r, r)
        ax.set_zlim(-35 if i else 0, lay["height"] + (75 if i else 0))
        ax.set_box_aspect((1, 1, (lay["height"] + (110 if i else 0)) / (2 * r)))
        ax.view_init(elev=38, azim=-80)
        ax.set_axis_off()
        ax.set_title(title, fontsize=9)
    fig.suptitle("Schocken cup for %s (hardware/enclosure)" % lay["board_name"], fontsize=10)
    fig.subplots_adjust(left=0, right=1, bottom=0, top=0.9, wspace=0)
    fig.savefig(path, dpi=80)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--board", action="append", help="board name (default: all)")
    ap.add_argument("--data", default=str(layout_mod.HW), help="folder with boards/ and parts.json")
    ap.add_argument("--out", default=str(ROOT / "build" / "enclosure"))
    ap.add_argument("--preview", action="store_true", help="write docs/enclosure_<board>.png")
    args = ap.parse_args(argv)
    boards, parts = layout_mod.load(args.data)
    names = args.board or sorted(boards)
    for name in names:
        if name not in boards:
            ap.error("no board %r (known: %s)" % (name, ", ".join(sorted(boards))))
        lay, solids = build(boards[name], parts)
        for p in export(lay, solids, Path(args.out) / name):
            print("wrote %s" % p)
        if args.preview:
            png = ROOT / "docs" / ("enclosure_%s.png" % name)
            preview(lay, solids, png)
            print("wrote %s" % png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
