"""Replay a recorded sensor trace (CSV) through ShakeDetector.

Runs under MicroPython and CPython. The CSV holds m/s^2 floats; they become
int mm/s^2 HERE, outside the detector, exactly as the board's read_accel()
delivers them. Headers: "t_ms,ax,ay,az" (accel) or "t_ms,level" (switch).

As a program (what `schocken shake-replay` runs under MicroPython):
    micropython -m cup.replay TRACE.csv [accel|switch|-] [SENSITIVITY]
prints one JSON line {"t_ms": N} per throw; bad input -> one line on stderr,
exit code 2, nothing on stdout.
"""

import sys

from cup.shake import ShakeDetector

HEADERS = {"t_ms,ax,ay,az": "accel", "t_ms,level": "switch"}


class TraceError(ValueError):
    pass


def sensor_of_header(line):
    h = line.strip().replace(" ", "")
    if h.startswith("\ufeff"):
        h = h[1:]
    s = HEADERS.get(h)
    if s is None:
        raise TraceError("bad header %r (want 't_ms,ax,ay,az' or 't_ms,level')"
                         % line.strip())
    return s


def _float(text, lineno):
    try:
        v = float(text)
    except ValueError:
        raise TraceError("line %d: bad number %r" % (lineno, text.strip()))
    if v != v or v > 1e6 or v < -1e6:   # NaN, inf, absurd
        raise TraceError("line %d: bad number %r" % (lineno, text.strip()))
    return v


def replay(lines_iter, sensor=None, sensitivity="normal"):
    """Feed CSV lines (header first) to a detector; return throw times (t_ms).

    sensor: "accel", "switch" or None (taken from the header). Raises
    TraceError (a ValueError) with the line number on bad input.
    """
    lineno = 0
    det = None
    throws = []
    last_t = None
    for line in lines_iter:
        lineno += 1
        if det is None:
            s = sensor_of_header(line)
            if sensor is not None and sensor != s:
                raise TraceError("header is for %s, not %s" % (s, sensor))
            sensor = s
            det = ShakeDetector(sensor, sensitivity)
            ncol = 4 if sensor == "accel" else 2
            continue
        line = line.strip()
        if not line:
            continue
        f = line.split(",")
        if len(f) != ncol:
            raise TraceError("line %d: want %d columns, got %d" % (lineno, ncol, len(f)))
        tf = _float(f[0], lineno)
        t = int(tf)
        if t != tf or t < 0:
            raise TraceError("line %d: bad t_ms %r" % (lineno, f[0].strip()))
        if last_t is not None and t < last_t:
            raise TraceError("line %d: t_ms goes backwards" % lineno)
        last_t = t
        if ncol == 4:
            hit = det.feed_accel(t, int(round(_float(f[1], lineno) * 1000)),
                                 int(round(_float(f[2], lineno) * 1000)),
                                 int(round(_float(f[3], lineno) * 1000)))
        else:
            lv = _float(f[1], lineno)
            if lv != 0 and lv != 1:
                raise TraceError("line %d: level must be 0 or 1" % lineno)
            hit = det.feed_switch(t, int(lv))
        if hit:
            throws.append(t)
    if det is None:
        raise TraceError("empty trace (no header)")
    return throws


def main(argv):
    # argv: [TRACE], [TRACE, SENSOR] or [TRACE, SENSOR, SENSITIVITY]; SENSOR "-": from the header;
    # SENSITIVITY: low, normal, high or a calibration as JSON ("[8000, 6000, 3]")
    if len(argv) < 1 or len(argv) > 3:
        print("usage: cup.replay TRACE.csv [accel|switch|-] [SENSITIVITY]", file=sys.stderr)
        return 2
    sensor = argv[1] if len(argv) >= 2 and argv[1] != "-" else None
    sensitivity = "normal"
    if len(argv) == 3:
        import json
        try:
            sensitivity = json.loads(argv[2]) if argv[2][:1] == "[" else argv[2]
        except ValueError:
            print("error: bad sensitivity %r" % argv[2], file=sys.stderr)
            return 2
    if sensor is not None and sensor not in ("accel", "switch"):
        print("error: sensor must be accel or switch", file=sys.stderr)
        return 2
    try:
        f = open(argv[0])
    except OSError as e:
        print("error: cannot open %s: %s" % (argv[0], e), file=sys.stderr)
        return 2
    try:
        try:
            throws = replay(f, sensor, sensitivity)
        finally:
            f.close()
    except (ValueError, UnicodeError) as e:
        print("error: %s: %s" % (argv[0], e), file=sys.stderr)
        return 2
    for t in throws:       # only after the whole trace parsed: all or nothing
        print('{"t_ms": %d}' % t)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
