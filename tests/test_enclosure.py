"""hardware/enclosure/: the printed cup is checked like code. Every part is a closed solid; the board, the
charger and the sensor fit with clearance; every LED sits under its window, every button under its cap, each
USB connector behind its opening; the wall is thick enough; the cup fits a hand; and the windows follow the
board data. Skipped where the CAD kernel (build123d) or trimesh is not installed."""

import functools
import importlib
import importlib.util
import json
import math
import shutil
import sys
from pathlib import Path

import pytest

for _needed, _what in (("build123d", "the CAD kernel of hardware/enclosure"), ("trimesh", "the mesh checks"),
                       ("numpy", "trimesh's arrays"), ("rtree", "trimesh's ray casts and distances")):
    if importlib.util.find_spec(_needed) is None:
        pytest.skip("%s (%s) is not installed: pip install -e '.[dev]'" % (_needed, _what),
                    allow_module_level=True)

import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
ENC = REPO / "hardware" / "enclosure"
if str(ENC) not in sys.path:
    sys.path.insert(0, str(ENC))

import layout  # noqa: E402  (hardware/enclosure/layout.py: the board data, no CAD)


class _OnFirstUse:
    """A module imported when a test first reads from it: every pytest worker collects this file, and only
    the one that runs it should pay the CAD kernel's three seconds of import."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        if attr.startswith("_"):
            # Asked of this object, not of the module (the tests read public names only): pytest's collection
            # looks at every name of a test module (``__wrapped__``, ``_mock_name``, ``__test__``), which
            # imported the kernel in every worker.
            raise AttributeError(attr)
        return getattr(importlib.import_module(self._name), attr)


build = _OnFirstUse("build")  # hardware/enclosure/build.py
model = _OnFirstUse("model")
trimesh = _OnFirstUse("trimesh")

BOARDS, PARTS = layout.load()


@functools.lru_cache(maxsize=None)
def built(name):
    lay, solids = build.build(BOARDS[name], PARTS)
    return lay, solids, {n: build.mesh(s) for n, s in solids.items()}


def up(n):
    return np.tile([0.0, 0.0, 1.0], (n, 1))


def hits(mesh, origins, dirs):
    return mesh.ray.intersects_any(np.asarray(origins, float), np.asarray(dirs, float))


def radial(angle):
    a = math.radians(angle)
    return np.array([math.cos(a), math.sin(a), 0.0])


def box_points(m, x0, x1, y0, y1, z0, z1):
    """Points on the surface of a box in a module's frame (x from its USB edge, y across)."""
    pts = []
    for x in np.linspace(x0, x1, 25):
        for y in np.linspace(y0, y1, 9):
            for z in (z0, z1):
                pts.append((*m["world"](x, y), z))
        for y in (y0, y1):
            for z in np.linspace(z0, z1, 5):
                pts.append((*m["world"](x, y), z))
    return np.array(pts)


def module_points(m):
    """The PCB with what stands on it, and the USB connector where it overhangs the edge."""
    length, width, thick = m["size"]
    pts = [box_points(m, 0, length, 0, width, m["z"], m["top"] + m["above"])]
    usb = m.get("usb")
    if usb and usb["overhang_mm"]:
        y = usb["y_mm"]
        pts.append(box_points(m, -usb["overhang_mm"], 0, y - usb["width_mm"] / 2, y + usb["width_mm"] / 2,
                              m["top"], m["top"] + usb["height_mm"]))
    return np.concatenate(pts)


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_part_builds_as_a_closed_manifold_solid(name):
    _, solids, meshes = built(name)
    assert set(solids) == {"body", "lid", "deck", "led_carrier", "light_grid", "diffuser", "cap_die1",
                           "cap_die2", "cap_die3", "cap_main"}
    for part, m in meshes.items():
        assert solids[part].is_valid, part
        assert m.is_watertight and m.is_volume, part


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_the_cup_fits_a_hand(name):
    lay, _, meshes = built(name)
    lo = np.min([m.bounds[0] for m in meshes.values()], axis=0)
    hi = np.max([m.bounds[1] for m in meshes.values()], axis=0)
    lim = lay["limits"]
    # The caps stand out of the wall: the hand closes around them too.
    assert max(hi[0] - lo[0], hi[1] - lo[1]) <= lim["outer_d"] + 2 * lay["button_spec"]["proud"]
    assert 2 * lay["r_out"] <= lim["outer_d"]
    assert hi[2] - lo[2] <= lim["height"] and lo[2] >= 0


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_board_charger_and_sensor_fit_with_clearance(name):
    lay, _, meshes = built(name)
    need = lay["limits"]["clearance_min"]
    b, c, s = lay["board"], lay["charger"], lay["sensor"]
    for m in (b, c, s):
        pts = module_points(m)
        for part in ("body", "lid"):
            # signed_distance: negative outside the solid; the modules must stay clear of the shell.
            d = trimesh.proximity.signed_distance(meshes[part], pts)
            assert d.max() <= -need, (part, m["angle"], d.max())
    # The board's holes sit on the deck's standoffs (or, without holes, the board on its posts).
    deck = meshes["deck"]
    for x, y in b["holes"]:
        loc, _, _ = deck.ray.intersects_location([(x + 2.2, y, b["z"] + 1)], [(0, 0, -1)],
                                                 multiple_hits=False)
        assert len(loc) == 1 and loc[0][2] == pytest.approx(b["z"], abs=0.01)    # a standoff under each hole


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_led_sits_under_its_window(name):
    lay, _, meshes = built(name)
    assert len(lay["leds"]) == BOARDS[name]["leds"] == 22
    z = lay["z_carrier"] + lay["carrier"] + 0.3
    inset = lay["window_d"] / 2 - 0.4
    for x, y in lay["leds"]:
        rays = [(x, y, z)] + [(x + dx, y + dy, z)
                              for dx, dy in ((inset, 0), (-inset, 0), (0, inset), (0, -inset))]
        assert not hits(meshes["light_grid"], rays, up(5)).any(), (x, y)
        assert not hits(meshes["body"], rays, up(5)).any(), (x, y)   # the lip leaves every window open
        assert hits(meshes["diffuser"], rays[:1], up(1)).all()
        # ...and the grid is solid beside the window: light stays in its pip.
        side = lay["window_d"] / 2 + 0.6
        assert hits(meshes["light_grid"], [(x + side, y, z)], up(1)).all()


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_button_sits_under_its_cap(name):
    lay, _, meshes = built(name)
    bs = lay["button_spec"]
    for b in lay["buttons"]:
        cap = meshes["cap_" + b["role"].replace("button_", "")]
        u = radial(b["angle"])
        t = np.array([-u[1], u[0], 0.0])
        inside = u * (lay["r_in"] - bs["switch"][2]) + np.array([0, 0, b["z"]])   # the switch's plunger axis
        # The cap's axis is the switch's: the centre ray outward hits the cap and nothing of the body.
        assert hits(cap, [inside], [u]).all(), b["role"]
        assert np.allclose(np.cross(cap.centroid - [0, 0, b["z"]], u)[2], 0, atol=0.05)
        assert abs(cap.centroid[2] - b["z"]) < 0.05
        room = b["cap_d"] / 2 + bs["hole_play"] / 2 - 0.1
        for off in (t * room, -t * room, [0, 0, room], [0, 0, -room]):
            assert not hits(meshes["body"], [inside + off], [u]).any(), b["role"]
        # The cap stands out of the wall by `proud` and its flange cannot pass the hole.
        assert (cap.vertices @ u).max() == pytest.approx(lay["r_out"] + bs["proud"], abs=0.05)


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_usb_openings_line_up_with_the_connectors(name):
    lay, _, meshes = built(name)
    for m in (lay["board"], lay["charger"]):
        usb = m["usb"]
        u = radial(m["angle"])
        t = np.array([-u[1], u[0], 0.0])
        face = np.array([*usb["centre"], usb["z"]])
        assert np.linalg.norm(face[:2]) == pytest.approx(usb["r"])
        pts = [face] + [face + t * dy + np.array([0, 0, dz])
                        for dy in (-usb["width_mm"] / 2 + 0.2, usb["width_mm"] / 2 - 0.2)
                        for dz in (-usb["height_mm"] / 2 + 0.2, usb["height_mm"] / 2 - 0.2)]
        assert not hits(meshes["body"], pts, np.tile(u, (len(pts), 1))).any(), m["angle"]
        # A plug reaches it: the connector's face is at most 3 mm behind the wall's inside.
        assert lay["r_in"] - usb["r"] <= 3.0


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_walls_are_thick_enough(name):
    """Points on the outside of the body, the lid and the diffuser (cylinder, top and bottom faces), a ray
    inward along the surface normal: where it leaves the material through a facing surface, that is at least
    the minimum wall away."""
    lay, _, meshes = built(name)
    need = lay["limits"]["wall_min"]
    for part in ("body", "lid", "diffuser"):
        m = meshes[part]
        pts, faces = trimesh.sample.sample_surface_even(m, 1500, seed=1)
        normals = m.face_normals[faces]
        r = np.hypot(pts[:, 0], pts[:, 1])
        outside = (r > lay["r_out"] - 0.05) | (normals[:, 2] > 0.99) | (normals[:, 2] < -0.99)
        pts, normals = pts[outside], normals[outside]
        locs, idx, tri = m.ray.intersects_location(pts - normals * 1e-3, -normals, multiple_hits=False)
        # A ray that leaves through a face nearly along it grazed the rim of a hole (a corner, not a thin
        # wall): only exits through a face that faces back (more than 60 degrees from grazing) count.
        facing = np.abs(np.einsum("ij,ij->i", m.face_normals[tri], normals[idx])) > 0.5
        depth = np.full(len(pts), np.inf)
        depth[idx[facing]] = np.linalg.norm(locs[facing] - pts[idx[facing]], axis=1)
        assert len(pts) > 200
        assert depth.min() >= need - 0.05, (part, depth.min(), pts[depth.argmin()])


def test_changing_the_board_files_led_layout_moves_the_windows(tmp_path):
    shutil.copytree(REPO / "hardware" / "boards", tmp_path / "boards")
    shutil.copy(REPO / "hardware" / "parts.json", tmp_path / "parts.json")
    f = tmp_path / "boards" / "pico_w.json"
    spec = json.loads(f.read_text())
    spec["mechanical"]["pips"] = {"dice_y": PARTS["enclosure"]["pips"]["dice_y"] + 4.0}
    f.write_text(json.dumps(spec))
    boards, parts = layout.load(tmp_path)
    old = layout.layout(BOARDS["pico_w"], PARTS)
    new = layout.layout(boards["pico_w"], parts)
    grid = build.mesh(model.light_grid(new))
    z = new["z_carrier"] + new["carrier"] + 0.3
    moved = [(a, b) for a, b in zip(old["leds"], new["leds"]) if a != b]
    assert len(moved) == 21                                    # every pip moved, the status pixel did not
    assert not hits(grid, [(*b, z) for _, b in moved], up(21)).any()
    assert hits(grid, [(*a, z) for a, _ in moved], up(21)).all()


def test_build_writes_stl_and_step_per_part(tmp_path):
    assert build.main(["--board", "pico_w", "--out", str(tmp_path)]) == 0
    out = tmp_path / "pico_w"
    names = set(built("pico_w")[1])
    assert {p.stem for p in out.glob("*.stl")} == names == {p.stem for p in out.glob("*.step")}
    body = trimesh.load(out / "body.stl")
    assert body.is_watertight and body.bounds[0][2] == pytest.approx(0, abs=1e-6)


def test_board_files_say_where_their_dimensions_come_from():
    for name, spec in BOARDS.items():
        mech = spec["mechanical"]
        assert mech["source"] and len(mech["pcb_mm"]) == 3, name
        assert all(0 < x < mech["pcb_mm"][0] and 0 < y < mech["pcb_mm"][1] for x, y in mech["holes_mm"])
        assert (mech["hole_d_mm"] > 0) == bool(mech["holes_mm"])
        assert 0 <= mech["usb"]["y_mm"] <= mech["pcb_mm"][1]
