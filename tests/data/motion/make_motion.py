"""Generate the modelled traces of the motion corpus (tests/data/motion/model_*.csv and model.json): what a
table does to a cup, and shakes of many styles, as the cup's LIS3DH reads them (100 Hz, m/s^2, +-4 g, 2 mg).

    python tests/data/motion/make_motion.py

Deterministic: every trace has its own seeded RNG. The physics is that of tests/data/make_traces.py (its
``Scene``: specific force in the cup's frame, R^T (linear acceleration + g up), hand tremor 8-11 Hz while
held, white sensor noise), with these models of a table:

  lift_peek        lifted 3-8 cm (a push-pull of 3-6 m/s^2 over 0.3-0.5 s), tipped 15-35 deg to look under,
                   set
                   back with a soft contact (ringing 30 Hz, 3-8 m/s^2)
  pass_neighbour   lifted, carried 0.4-0.8 m sideways (2.5-5 m/s^2 over 0.5-0.9 s), set down at the neighbour
  slide            pushed across the felt: a horizontal push-pull of 1.5-4 m/s^2 over 0.4-1 s plus the
                   surface's rubbing (0.3-0.8 m/s^2 broadband)
  setdown_hard     slammed on the table: an impact of 40-150 m/s^2 ringing at 40-45 Hz (clipped at 4 g) and a
                   bounce
  knocked_glass    a glass hits the standing cup: a sideways knock of 15-40 m/s^2, the cup rocks on its rim
                   (4-7 Hz, 3-8 deg, decaying in 0.1-0.25 s) and slides a few cm
  tilt_look        tipped 30-80 deg (slowly or briskly) for 1-2 s, and back; once upside down
  carry_walk       carried while walking: steps at 1.6-2.2 Hz, bounce 1.5-3.5 m/s^2, sway, heel strikes
  gestures         held in a talking hand: arm swings and rotations at 0.5-1.5 Hz peaking at up to 1.75 g
                   (the held-back set's false throw), single emphatic beats of up to 12 m/s^2, never more
                   than one back-and-forth in a row (a cup swung on and on at 1.7 Hz or faster is shaken)
  dropped          slips out of the hand 3-10 cm above the table: free fall (0 g) for 80-140 ms, impact
  free_fall_30cm   30 cm of free fall (247 ms at 0 g), impact and bounce

and shakes (one throw each, ``shake_end_ms`` is when the hand stops): 2-7 Hz, 0.4-3 s, gentle (10-13 m/s^2)
to vigorous (30), up-down, side-to-side and circular, a short rattle, a shake right after a set-down, a
shake ended by slamming the cup down (its end is the slam's end). A shake is at least two and a half
back-and-forths after its 120 ms start (so at 2 Hz it lasts at least 1.4 s, at 7 Hz 0.51 s): the shortest
of "0.4 s" is what the rule needs at that frequency (docs/rules.md, "The shake").
"""

import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from make_traces import DT, G, Scene, smooth, switch_from  # noqa: E402

LIM = 4.0 * 9.80665
STEP = 0.002 * 9.80665


class TableScene(Scene):
    """A Scene with the motions of a table."""

    def rub(self, t0, t1, amp):
        for i in range(self.idx(t0), self.idx(t1)):
            self.add(i, [self.rng.gauss(0, amp), self.rng.gauss(0, amp), self.rng.gauss(0, amp * 0.5)])

    def rock(self, t0, f_hz, deg, tau_ms):
        for i in range(self.idx(t0), self.idx(t0 + 5 * tau_ms)):
            dt = i * DT - t0
            w = math.radians(deg) * math.exp(-dt / tau_ms) * math.sin(2 * math.pi * f_hz * dt / 1000)
            self.roll[i] += w
            self.pitch[i] += 0.3 * w

    def free_fall(self, t0, ms):
        """Specific force zero: linear acceleration -g (the cup keeps its orientation)."""
        for i in range(self.idx(t0), self.idx(t0 + ms)):
            self.lin[i] = [self.lin[i][0], self.lin[i][1], self.lin[i][2] - G]

    def circle(self, t_start, t_end, f_hz, amp):
        """A circular shake: the cup goes round in a horizontal circle (both axes at f, 90 deg apart)."""
        rng = self.rng
        phase, f, a = 0.0, f_hz, amp
        for i in range(self.idx(t_start), self.idx(t_end)):
            t = i * DT
            env = min(smooth((t - t_start) / 120), smooth((t_end - t) / 60))
            prev = phase
            phase += 2 * math.pi * f * DT / 1000
            if int(prev / math.pi) != int(phase / math.pi):
                f = min(f_hz * 1.15, max(f_hz * 0.85, f + rng.uniform(-0.3, 0.3)))
                a = amp * rng.uniform(0.85, 1.15)
            self.add(i, [a * env * math.sin(phase), a * env * math.cos(phase),
                         0.15 * a * env * math.sin(2 * phase)])

    def swing(self, t0, dur, f_hz, amp, rot_deg, axis=0):
        """An arm swing or rotation of a talking hand: a slow sine of the arm (linear part) and of the cup's
        orientation, smooth at both ends."""
        for i in range(self.idx(t0), self.idx(t0 + dur)):
            t = i * DT - t0
            env = smooth(t / 250) * smooth((dur - t) / 250)
            s = math.sin(2 * math.pi * f_hz * t / 1000)
            v = [0.0, 0.0, 0.0]
            v[axis] = amp * env * s
            v[2] += 0.4 * amp * env * math.cos(2 * math.pi * f_hz * t / 1000)
            self.add(i, v)
            if axis == 0:
                self.pitch[i] += math.radians(rot_deg) * env * s
            else:
                self.roll[i] += math.radians(rot_deg) * env * s

    def render_cup(self):
        """As the cup's LIS3DH reads it: clipped at +-4 g, 2 mg steps."""
        return [(t,) + tuple(round(max(-LIM, min(LIM, v)) / STEP) * STEP for v in (x, y, z))
                for t, x, y, z in self.render()]


# --- handling ------------------------------------------------------------------------------------------

def lift_peek(s, t):
    r = s.rng
    s.hold(t, t + 3200)
    s.stroke(t, r.randint(300, 500), (r.uniform(-0.5, 0.5), r.uniform(-0.5, 0.5), r.uniform(3, 6)))
    s.orient(t + 300, t + 900, r.uniform(15, 35) * r.choice((-1, 1)), r.uniform(-10, 10))
    s.orient(t + 1800, t + 2400, 0, 0)
    s.stroke(t + 2300, 400, (0, 0, -r.uniform(3, 5)))
    s.impulse(t + 2705, r.uniform(3, 8), [0.1, 0.1, 1.0], freq=30, tau=10)
    return t + 3500


def pass_neighbour(s, t):
    r = s.rng
    s.hold(t, t + 3000)
    s.stroke(t, 400, (0, 0, r.uniform(3, 5)))
    d = r.randint(500, 900)
    direc = r.choice((-1, 1))
    s.stroke(t + 400, d, (direc * r.uniform(2.5, 5), r.uniform(-1, 1), 0))
    s.orient(t + 400, t + 400 + d, r.uniform(-15, 15), r.uniform(-10, 10))
    s.orient(t + 500 + d, t + 900 + d, 0, 0)
    s.stroke(t + 700 + d, 400, (0, 0, -r.uniform(3, 5)))
    s.impulse(t + 1105 + d, r.uniform(4, 12), [0.1, 0.1, 1.0], freq=35, tau=10)
    return t + 3000


def slide(s, t):
    r = s.rng
    d = r.randint(400, 1000)
    a = r.uniform(1.5, 4)
    ang = r.uniform(0, 2 * math.pi)
    s.stroke(t, d, (a * math.cos(ang), a * math.sin(ang), 0))
    s.rub(t + 50, t + d - 50, r.uniform(0.3, 0.8))
    return t + d + 800


def setdown_hard(s, t):
    r = s.rng
    s.hold(t, t + 600)
    s.stroke(t + 200, 300, (r.uniform(-1, 1), 0, -r.uniform(5, 8)))
    s.impulse(t + 505, r.uniform(40, 150), [r.uniform(-0.3, 0.3), r.uniform(-0.3, 0.3), 1.0], freq=42, tau=10)
    s.impulse(t + 565, r.uniform(10, 30), [0.1, 0.0, 1.0], freq=45, tau=8)
    return t + 1800


def knocked_glass(s, t):
    r = s.rng
    ang = r.uniform(0, 2 * math.pi)
    s.impulse(t, r.uniform(15, 40), [math.cos(ang), math.sin(ang), 0.2], freq=r.uniform(30, 45), tau=8)
    s.rock(t + 10, r.uniform(4, 7), r.uniform(3, 8), r.uniform(100, 250))
    s.stroke(t + 10, 200, (1.5 * math.cos(ang), 1.5 * math.sin(ang), 0))
    return t + 1800


def tilt_look(s, t):
    r = s.rng
    s.hold(t, t + 3400)
    brisk = r.random() < 0.5
    turn = 350 if brisk else 800
    s.orient(t, t + turn, r.uniform(30, 80) * r.choice((-1, 1)), r.uniform(-20, 20))
    back = t + turn + r.randint(1000, 2000)
    s.orient(back, back + turn, 0, 0)
    return back + turn + 400


def upside_down(s, t):
    s.hold(t, t + 3800)
    s.orient(t, t + 1200, 180, 0)
    s.orient(t + 2000, t + 3200, 0, 0)
    return t + 3800


def carry_walk(s, t):
    r = s.rng
    d = r.randint(4000, 8000)
    s.hold(t, t + d)
    s.walk(t, t + d, step_hz=r.uniform(1.6, 2.2), bounce=r.uniform(1.5, 3.5), sway=r.uniform(0.8, 2.0))
    return t + d + 300


def gestures(s, t):
    """Talking with the cup in the hand: a few arm swings/rotations (one of them the held-back set's 1 Hz,
    1.75 g rotation) and single beats, never two back-and-forths in a row above 1.5 Hz."""
    r = s.rng
    s.hold(t, t + 9000)
    s.swing(t, 2000, 1.0, 0.75 * G, 70, axis=r.choice((0, 1)))              # 1 Hz rotation, 1.75 g peaks
    s.swing(t + 2300, r.randint(1500, 3000), r.uniform(0.5, 1.5), r.uniform(3, 10), r.uniform(20, 60),
            axis=r.choice((0, 1)))
    beat = t + 5500
    for _ in range(r.randint(1, 3)):
        s.stroke(beat, r.randint(250, 400), (r.uniform(-3, 3), r.uniform(-3, 3), r.uniform(6, 12)))
        beat += r.randint(700, 1100)
    return t + 9000


def dropped(s, t):
    r = s.rng
    s.hold(t, t + 300)
    fall = r.randint(80, 140)
    s.free_fall(t + 300, fall)
    s.impulse(t + 300 + fall + 3, r.uniform(60, 160), [r.uniform(-0.3, 0.3), r.uniform(-0.3, 0.3), 1.0],
              freq=40, tau=9)
    s.orient(t + 300 + fall, t + 300 + fall + 60, r.uniform(-6, 6), r.uniform(-6, 6))
    s.rock(t + 310 + fall, r.uniform(4, 7), r.uniform(3, 6), 150)
    return t + 2000


def free_fall_30cm(s, t):
    r = s.rng
    s.hold(t, t + 300)
    s.free_fall(t + 300, 247)
    s.impulse(t + 550, r.uniform(120, 200), [r.uniform(-0.4, 0.4), r.uniform(-0.4, 0.4), 1.0], freq=40, tau=9)
    s.impulse(t + 680, r.uniform(20, 50), [0.2, 0.1, 1.0], freq=40, tau=8)  # the bounce
    s.rock(t + 700, r.uniform(4, 7), r.uniform(5, 12), 200)
    return t + 2300


HANDLING = {"lift_peek": lift_peek, "pass_neighbour": pass_neighbour, "slide": slide,
            "setdown_hard": setdown_hard, "knocked_glass": knocked_glass, "tilt_look": tilt_look,
            "upside_down": upside_down, "carry_walk": carry_walk, "gestures": gestures, "dropped": dropped,
            "free_fall_30cm": free_fall_30cm}


def handling_trace(kind, seed, repeats):
    """``repeats`` of one handling, 1 s still before and between them."""
    s = TableScene(seed, 1000 + repeats * 12000)
    t = 1000
    for _ in range(repeats):
        t = HANDLING[kind](s, t) + 1000
    return s.render_cup()[:t // DT], s


# --- shakes ----------------------------------------------------------------------------------------------

DIRECTIONS = {"updown": (0.15, 0.1, 1.0), "sideways": (1.0, 0.2, 0.15), "circular": None}


def shake_into(s, t0, f_hz, dur, amp, direction, slam=False):
    """One shake from t0; returns the time the hand (or the slam) stops."""
    dur = max(dur, int(2500 / f_hz) + 150)  # at least two and a half back-and-forths, after the ramp
    s.hold(t0 - 500, t0 + dur + 1500)
    if direction == "circular":
        s.circle(t0, t0 + dur, f_hz, amp)
    else:
        s.shake(t0, t0 + dur, f_hz, amp, seed_dir=DIRECTIONS[direction],
                wobble_deg=s.rng.uniform(5, 20))
    end = t0 + dur
    if slam:  # the cup slammed onto the table as the shake ends; its ringing is over 80 ms later
        s.impulse(end + 5, s.rng.uniform(60, 150), [0.2, 0.1, 1.0], freq=42, tau=9)
        return end + 80
    s.settle_after(end, amp=s.rng.uniform(0.5, 1.2))
    return end


def shake_trace(seed, f_hz, dur, amp, direction, before=None, slam=False):
    s = TableScene(seed, 1500 + dur + 4000)
    t0 = 1200
    if before is not None:  # a handling right before the shake (a set-down, then shaken at once)
        t0 = HANDLING[before](s, 500) + 300
    end = shake_into(s, t0, f_hz, dur, amp, direction, slam)
    n = (end + 1500) // DT
    return s.render_cup()[:n], end, s


def shake_styles():
    """(name, f, ms, amp, direction, before, slam): the grid of styles, plus the special ones."""
    out = []
    amps = {"gentle": 11.0, "medium": 18.0, "vigorous": 30.0}
    for f in (2, 3, 4, 5, 6, 7):
        for ms in (400, 1000, 3000):
            for strength, amp in amps.items():
                for direction in DIRECTIONS:
                    if ms == 3000 and strength == "medium":
                        continue  # the long shakes at the two ends of strength
                    out.append(("shake_%dhz_%dms_%s_%s" % (f, ms, strength, direction), f, ms, amp, direction,
                                None, False))
    out.append(("shake_rattle_short", 6.5, 400, 22.0, "sideways", None, False))
    out.append(("shake_after_setdown", 4.5, 1200, 20.0, "updown", "setdown_hard", False))
    out.append(("shake_after_lift", 5, 800, 16.0, "sideways", "lift_peek", False))
    out.append(("shake_then_slam", 4, 1200, 22.0, "updown", None, True))
    out.append(("shake_then_slam_gentle", 3, 1500, 12.0, "sideways", None, True))
    return out


def write_switch(name, rows):
    with open(os.path.join(HERE, name), "w", newline="\n") as f:
        f.write("t_ms,level\n")
        for t, level in rows:
            f.write("%d,%d\n" % (t, level))


def write(name, rows):
    with open(os.path.join(HERE, name), "w", newline="\n") as f:
        f.write("t_ms,ax,ay,az\n")
        for t, x, y, z in rows:
            f.write("%d,%.3f,%.3f,%.3f\n" % (t, x, y, z))


def main():
    manifest = {}
    for k, kind in enumerate(sorted(HANDLING)):
        for variant in range(3):
            name = "model_%s_%d.csv" % (kind, variant)
            rows, scene = handling_trace(kind, 1000 + 10 * k + variant, 6)
            write(name, rows)
            manifest[name] = {"sensor": "accel", "class": kind, "throws": 0, "shake_end_ms": [],
                              "minutes": round(len(rows) * DT / 60000.0, 2)}
            if variant == 0:  # the switch boards: the same scene through the contact's model
                switch = switch_from(scene, 7000 + k)[:len(rows)]
                write_switch("model_switch_%s.csv" % kind, switch)
                manifest["model_switch_%s.csv" % kind] = dict(manifest[name], sensor="switch")
    for k, (name, f, ms, amp, direction, before, slam) in enumerate(shake_styles()):
        rows, end, scene = shake_trace(5000 + k, f, ms, amp, direction, before, slam)
        write("model_%s.csv" % name, rows)
        cls = "shake" if before is None and not slam else "shake_" + (before or "slam")
        manifest["model_%s.csv" % name] = {"sensor": "accel", "class": cls, "throws": 1,
                                           "shake_end_ms": [end],
                                           "minutes": round(len(rows) * DT / 60000.0, 2)}
        if amp >= 18.0 and ms >= 1000 and not slam:  # the switch boards: firm shakes of a second and more
            switch = switch_from(scene, 8000 + k)
            write_switch("model_switch_%s.csv" % name, switch)
            manifest["model_switch_%s.csv" % name] = dict(manifest["model_%s.csv" % name], sensor="switch")
    with open(os.path.join(HERE, "model.json"), "w", newline="\n") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    hand = sum(m["minutes"] for m in manifest.values() if not m["throws"])
    print("%d traces, %.1f minutes of handling, %d shakes" % (len(manifest), hand,
                                                              sum(m["throws"] for m in manifest.values())))


if __name__ == "__main__":
    main()
