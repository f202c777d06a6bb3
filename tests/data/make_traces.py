"""Generate the recorded-style sensor traces for the shake detector tests.

Deterministic (every trace has its own seeded RNG); run it from anywhere:
    python tests/data/make_traces.py
It rewrites the CSVs next to this file and traces.json (the manifest: sensor,
expected number of throws, and the times shaking stops).

Physics: the accelerometer measures specific force in the cup's frame:
R(orientation)^T * (linear acceleration + g*up). At rest upright it reads
(0, 0, +9.81). Orientation is roll (about x) then pitch (about y). Noise: white
sensor noise, plus physiological hand tremor (8-11 Hz) while the cup is held.
All times are ms at 100 Hz.

The vibration switch (SW-420 / SW-18010P) is modelled from the same motion: its
contact chatters with a probability that grows with the dynamic acceleration.
"""

import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
G = 9.81
DT = 10  # ms (100 Hz)


def smooth(x):
    """0..1 -> 0..1 raised-cosine ramp (smooth start and stop)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    return 0.5 - 0.5 * math.cos(math.pi * x)


def rotate_to_sensor(f, roll, pitch):
    """World vector -> sensor frame for a cup rolled then pitched."""
    x, y, z = f
    # undo pitch (about y)
    cp, sp = math.cos(pitch), math.sin(pitch)
    x, z = cp * x - sp * z, sp * x + cp * z
    # undo roll (about x)
    cr, sr = math.cos(roll), math.sin(roll)
    y, z = cr * y + sr * z, -sr * y + cr * z
    return x, y, z


class Scene:
    """Sum of motion components over time; renders an accel trace."""

    def __init__(self, seed, dur_ms, noise=0.04):
        self.rng = random.Random(seed)
        self.n = dur_ms // DT
        self.lin = [[0.0, 0.0, 0.0] for _ in range(self.n)]   # world, m/s^2
        self.roll = [0.0] * self.n                              # rad
        self.pitch = [0.0] * self.n
        self.held = [False] * self.n
        self.noise = noise
        self.trem_phase = self.rng.uniform(0, 6.28)

    def idx(self, t_ms):
        return max(0, min(self.n, int(round(t_ms / DT))))

    def hold(self, t0, t1):
        for i in range(self.idx(t0), self.idx(t1)):
            self.held[i] = True

    def orient(self, t0, t1, roll_deg, pitch_deg):
        """Turn smoothly from the current orientation at t0 to the given one."""
        i0, i1 = self.idx(t0), self.idx(t1)
        r0, p0 = self.roll[i0], self.pitch[i0]
        r1, p1 = math.radians(roll_deg), math.radians(pitch_deg)
        for i in range(i0, self.n):
            s = smooth((i - i0) / max(1, i1 - i0))
            self.roll[i] = r0 + (r1 - r0) * s
            self.pitch[i] = p0 + (p1 - p0) * s

    def add(self, i, vec):
        if 0 <= i < self.n:
            for k in range(3):
                self.lin[i][k] += vec[k]

    def stroke(self, t0, dur, vec):
        """One smooth push-pull (accelerate, decelerate): starts and ends at rest."""
        i0, n = self.idx(t0), max(1, dur // DT)
        for j in range(n):
            s = math.sin(2 * math.pi * j / n)
            self.add(i0 + j, [v * s for v in vec])

    def impulse(self, t0_ms, amp, axis_vec, freq=38.0, tau=12.0):
        """A knock: damped ringing, sampled off-grid like a real ADC would."""
        for i in range(self.idx(t0_ms) - 1, self.idx(t0_ms + 8 * tau) + 1):
            dt = i * DT - t0_ms
            if dt < 0:
                continue
            a = amp * math.exp(-dt / tau) * math.cos(2 * math.pi * freq * dt / 1000)
            self.add(i, [a * v for v in axis_vec])

    def shake(self, t_start, t_end, f_hz, amp, seed_dir=(1.0, 0.0, 0.35),
              wobble_deg=15.0, ramp_up=120, ramp_down=60):
        """A vigorous shake: amplitude/frequency jitter cycle to cycle, a second
        axis at twice the frequency (the dice hitting the cup ends), and the
        cup's orientation wobbling with the hand."""
        rng = self.rng
        i0, i1 = self.idx(t_start), self.idx(t_end)
        phase, f, a = 0.0, f_hz, amp
        norm = math.sqrt(sum(v * v for v in seed_dir))
        ux = [v / norm for v in seed_dir]
        for i in range(i0, i1):
            t = i * DT
            env = min(smooth((t - t_start) / ramp_up), smooth((t_end - t) / ramp_down))
            prev = phase
            phase += 2 * math.pi * f * DT / 1000
            if int(prev / math.pi) != int(phase / math.pi):   # new half cycle
                f = min(f_hz * 1.15, max(f_hz * 0.85, f + rng.uniform(-0.3, 0.3)))
                a = amp * rng.uniform(0.85, 1.15)
            s = math.sin(phase)
            s2 = math.sin(2 * phase + 0.7)
            v = [a * env * (s * ux[0]), a * env * 0.25 * s2, a * env * (s * ux[2] + 0.2 * s2)]
            self.add(i, v)
            w = math.radians(wobble_deg) * env * math.sin(phase + 0.5)
            self.roll[i] += w
            self.pitch[i] += 0.4 * w

    def settle_after(self, t_end, amp=0.9, f_hz=4.0, tau=60.0, rattle=3):
        """The hand catching the cup (decaying wobble) and the dice settling."""
        for i in range(self.idx(t_end), self.idx(t_end + 6 * tau)):
            dt = i * DT - t_end
            a = amp * math.exp(-dt / tau) * math.sin(2 * math.pi * f_hz * dt / 1000)
            self.add(i, [a, 0.3 * a, 0.5 * a])
        for _ in range(rattle):
            t = t_end + self.rng.uniform(0, 40)
            self.impulse(t, self.rng.uniform(0.3, 0.6), [0.6, 0.5, 0.6], freq=45, tau=6)

    def walk(self, t0, t1, step_hz=2.0, bounce=2.5, sway=1.4):
        rng = self.rng
        for i in range(self.idx(t0), self.idx(t1)):
            t = (i * DT - t0) / 1000
            env = min(smooth(t / 0.6), smooth((t1 - i * DT) / 600))
            ph = 2 * math.pi * step_hz * t
            self.add(i, [env * sway * math.sin(ph + 0.3),
                         env * 1.0 * math.sin(ph / 2),
                         env * (bounce * math.sin(ph) + 0.8 * math.sin(2 * ph + 1.0))])
            self.roll[i] += math.radians(4) * env * math.sin(ph / 2)
            self.pitch[i] += math.radians(3) * env * math.sin(ph + 1.2)
        t = t0 + 400
        while t < t1 - 400:   # heel strikes: a short jolt each step
            self.impulse(t + rng.uniform(-15, 15), rng.uniform(2.5, 4.0), [0.2, 0.1, 1.0],
                         freq=18, tau=25)
            t += 1000 / step_hz

    def render(self):
        rng = self.rng
        rows = []
        for i in range(self.n):
            t = i * DT
            fw = [self.lin[i][0], self.lin[i][1], self.lin[i][2] + G]
            if self.held[i]:   # physiological tremor, ~0.1 m/s^2
                for k in range(3):
                    fw[k] += 0.08 * math.sin(2 * math.pi * 9.5 * t / 1000 + self.trem_phase + k)
                    fw[k] += rng.gauss(0, 0.03)
            x, y, z = rotate_to_sensor(fw, self.roll[i], self.pitch[i])
            rows.append((t, x + rng.gauss(0, self.noise), y + rng.gauss(0, self.noise),
                         z + rng.gauss(0, self.noise)))
        return rows


def dyn_magnitude(scene):
    return [math.sqrt(sum(v * v for v in scene.lin[i])) for i in range(scene.n)]


def switch_from(scene, seed, p_max=0.85, a0=3.0, a_span=12.0, extra=()):
    """Chattering contact: toggle probability grows with |linear acceleration|."""
    rng = random.Random(seed)
    mag = dyn_magnitude(scene)
    level, rows = 1, []
    for i in range(scene.n):
        p = min(p_max, max(0.0, (mag[i] - a0) / a_span))
        if rng.random() < p:
            level ^= 1
        rows.append((i * DT, level))
    return rows


def write_accel(name, rows):
    with open(os.path.join(HERE, name), "w", newline="\n") as f:
        f.write("t_ms,ax,ay,az\n")
        for t, x, y, z in rows:
            f.write("%d,%.3f,%.3f,%.3f\n" % (t, x, y, z))


def write_switch(name, rows):
    with open(os.path.join(HERE, name), "w", newline="\n") as f:
        f.write("t_ms,level\n")
        for t, lv in rows:
            f.write("%d,%d\n" % (t, lv))


def check_switch_shake(rows, t_start, t_end):
    """Sanity of the model: chatter without long gaps until the hand stops."""
    toggles = [rows[i][0] for i in range(1, len(rows)) if rows[i][1] != rows[i - 1][1]]
    inside = [t for t in toggles if t_start + 150 <= t <= t_end]
    gaps = [b - a for a, b in zip(inside, inside[1:])]
    assert inside and max(gaps) <= 60, max(gaps)
    assert t_end - inside[-1] <= 60, (t_end, inside[-1])


def main():
    manifest = {}

    # One shake: held still, ~1.1 s shake at 4 Hz / 22 m/s^2, held at a new angle.
    s = Scene(101, 4000)
    s.hold(0, 4000)
    s.orient(0, 10, 5, -3)
    s.orient(1250, 2300, 12, 6)
    s.shake(1200, 2330, 4.0, 22.0)
    s.settle_after(2330)
    write_accel("shake_accel.csv", s.render())
    manifest["shake_accel.csv"] = {"sensor": "accel", "throws": 1, "shake_end_ms": [2330]}

    # Two shakes: a gentle-end one (3 Hz, 16 m/s^2) and a hard one (4.5 Hz, 27).
    s = Scene(102, 6000)
    s.hold(0, 6000)
    s.shake(800, 1850, 3.0, 16.0, seed_dir=(0.3, 0.0, 1.0), wobble_deg=10)
    s.settle_after(1850)
    s.orient(2300, 2900, -10, 15)
    s.shake(3400, 4470, 4.5, 27.0, seed_dir=(1.0, 0.6, 0.2), wobble_deg=20)
    s.settle_after(4470, amp=1.2)
    write_accel("shake_twice_accel.csv", s.render())
    manifest["shake_twice_accel.csv"] = {"sensor": "accel", "throws": 2,
                                         "shake_end_ms": [1850, 4470]}

    # Pick up from the table, look into the cup, put it back gently.
    s = Scene(103, 5000)
    s.hold(1000, 4000)
    s.stroke(1000, 500, (0.5, 0.0, 5.0))           # lift: up then brake
    s.orient(1100, 1800, 30, -10)
    s.orient(2800, 3400, 0, 0)
    s.stroke(3300, 450, (0.0, 0.4, -4.0))          # lower: down then brake
    s.impulse(3755, 3.0, [0.1, 0.1, 1.0], freq=30, tau=10)   # gentle contact
    write_accel("pickup_accel.csv", s.render())
    manifest["pickup_accel.csv"] = {"sensor": "accel", "throws": 0, "shake_end_ms": []}

    # Tilting: slow, brisk, and a full upside-down turn and back.
    s = Scene(104, 9000)
    s.hold(0, 9000)
    s.orient(500, 1300, 70, 0)
    s.orient(1800, 2400, 0, 0)
    s.orient(2900, 3350, 0, -60)                   # brisk wrist turn
    s.orient(3700, 4150, 0, 0)
    s.orient(4800, 6300, 180, 0)                   # upside down
    s.orient(6800, 8300, 0, 0)
    write_accel("tilt_accel.csv", s.render())
    manifest["tilt_accel.csv"] = {"sensor": "accel", "throws": 0, "shake_end_ms": []}

    # Carrying: walk 6 s with the cup (2 Hz bounce, sway, heel strikes).
    s = Scene(105, 8000)
    s.hold(0, 8000)
    s.walk(800, 7000)
    write_accel("carry_accel.csv", s.render())
    manifest["carry_accel.csv"] = {"sensor": "accel", "throws": 0, "shake_end_ms": []}

    # Taps on the table / cup: single, double, a triple knock, side knocks, and
    # fingers drumming on the table for half a second (9 Hz).
    s = Scene(106, 7500)
    taps = [(1003, 15, [0.1, 0.1, 1]), (2007, 28, [0.2, 0, 1]),
            (3001, 30, [0, 0.2, 1]), (3153, 25, [0, 0.2, 1]),
            (4004, 40, [0.1, 0, 1]), (4126, 35, [0.1, 0, 1]), (4248, 38, [0.1, 0, 1]),
            (5002, 22, [1, 0.2, 0.3]), (5105, 20, [-1, 0.1, 0.3])]
    taps += [(5800 + 110 * k + (k * 7) % 5, 30 + (k * 5) % 9, [0.1, 0.1, 1]) for k in range(6)]
    for t, a, v in taps:
        s.impulse(t, a, v)
    write_accel("tap_accel.csv", s.render())
    manifest["tap_accel.csv"] = {"sensor": "accel", "throws": 0, "shake_end_ms": []}

    # Hard set-downs: lower, slam (big spike + bounce), pick up, slam again.
    s = Scene(107, 7000)
    s.hold(0, 1500)
    s.hold(2600, 4700)
    s.stroke(1100, 300, (0.0, 0.0, -6.0))
    s.impulse(1405, 90.0, [0.15, 0.1, 1.0], freq=42, tau=10)
    s.impulse(1470, 25.0, [0.1, 0.0, 1.0], freq=42, tau=8)   # bounce
    s.stroke(2600, 500, (0.0, 0.0, 4.0))
    s.orient(2700, 3300, 20, 10)
    s.orient(3800, 4300, 0, 0)
    s.stroke(4300, 250, (0.8, 0.0, -7.0))
    s.impulse(4553, 130.0, [0.3, -0.2, 1.0], freq=45, tau=9)
    s.impulse(4610, 30.0, [0.2, 0.0, 1.0], freq=45, tau=8)
    write_accel("setdown_hard_accel.csv", s.render())
    manifest["setdown_hard_accel.csv"] = {"sensor": "accel", "throws": 0, "shake_end_ms": []}

    # Switch: one shake (3.5 Hz, 20 m/s^2), chatter ends with the motion.
    s = Scene(201, 3500)
    s.shake(900, 2010, 3.5, 20.0)
    rows = switch_from(s, 202)
    check_switch_shake(rows, 900, 2010)
    write_switch("shake_switch.csv", rows)
    manifest["shake_switch.csv"] = {"sensor": "switch", "throws": 1, "shake_end_ms": [2010]}

    # Switch: the taps from above (a few toggles each).
    s = Scene(203, 7500)
    for t, a, v in taps:
        s.impulse(t, a, v)
    write_switch("tap_switch.csv", switch_from(s, 204, a0=2.0, a_span=8.0))
    manifest["tap_switch.csv"] = {"sensor": "switch", "throws": 0, "shake_end_ms": []}

    # Switch: carried while walking (each heel strike rattles the contact).
    s = Scene(205, 8000)
    s.walk(800, 7000, bounce=3.0)
    write_switch("carry_switch.csv", switch_from(s, 206, a0=2.5, a_span=4.0))
    manifest["carry_switch.csv"] = {"sensor": "switch", "throws": 0, "shake_end_ms": []}

    with open(os.path.join(HERE, "traces.json"), "w", newline="\n") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
