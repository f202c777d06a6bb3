"""How rare a player's luck is: the chance that fair dice, thrown in the situations of his throws, give at
least as much luck as his (when he was lucky) or at least as much bad luck (when not).

Each throw's luck is a variable of its own with known outcomes (game.py ``luck_outcomes``, mean 0); a
player's luck is their sum. For a few throws (at most ``EXACT_COMBINATIONS`` combinations of their outcomes)
the sum's distribution is listed and the tail is exact. Beyond that it has far too many points to list (up to
56 outcomes a throw), so the tail is taken by the saddlepoint approximation of Lugannani and Rice (1980), from
the exact cumulant generating function of the sum, K(θ) = Σ log E[e^(θX)]:

    P(S ≥ s) ≈ 1 − Φ(w) + φ(w) (1/u − 1/w),   K'(θ̂) = s,  w = sign(θ̂) √(2(θ̂s − K(θ̂))),  u = θ̂ √K''(θ̂)

Unlike the normal approximation it follows the skewed tails a single Schock-Aus makes; near the mean (|z| <
0.1, where it divides 0 by 0) the normal one is used. tests/test_luck.py holds it against the exact
enumeration of small sums.
"""

import math

EXACT_COMBINATIONS = 50_000    # listed exactly up to this many combinations of the throws' outcomes (~0.1 s)


def _tilted(outcomes, theta):
    """(log E[e^(θX)], E_θ[X], Var_θ[X]) of one throw's outcomes ((x, p), ...), tilted by θ."""
    top = max(theta * x for x, _ in outcomes)
    weights = [(x, p * math.exp(theta * x - top)) for x, p in outcomes]
    total = sum(w for _, w in weights)
    mean = sum(x * w for x, w in weights) / total
    var = sum((x - mean) ** 2 * w for x, w in weights) / total
    return math.log(total) + top, mean, var


def _cumulants(spreads, theta):
    k = k1 = k2 = 0.0
    for outcomes, n in spreads.items():
        log_m, mean, var = _tilted(outcomes, theta)
        k += n * log_m
        k1 += n * mean
        k2 += n * var
    return k, k1, k2


def variance(spreads):
    """The variance of the sum (the outcomes' means are 0)."""
    return sum(n * sum(p * x * x for x, p in outcomes) for outcomes, n in spreads.items())


def _normal_upper(z):
    return 0.5 * math.erfc(z / math.sqrt(2))


def exact(spreads):
    """Whether ``tail`` lists the sum's distribution (else it approximates)."""
    return math.prod(len(outcomes) ** n for outcomes, n in spreads.items()) <= EXACT_COMBINATIONS


def _listed(spreads, s):
    sums = {0.0: 1.0}
    for outcomes, n in spreads.items():
        for _ in range(n):
            grown: dict[float, float] = {}
            for total, p in sums.items():
                for x, q in outcomes:
                    key = round(total + x, 9)
                    grown[key] = grown.get(key, 0.0) + p * q
            sums = grown
    return sum(p for total, p in sums.items() if total >= s - 1e-9)


def tail(spreads, s):
    """The smaller tail at the sum ``s``: P(S ≥ s) for s ≥ 0, P(S ≤ s) for s < 0 (0.5 and more near 0)."""
    if s < 0:
        return tail({tuple((-x, p) for x, p in reversed(o)): n for o, n in spreads.items()}, -s)
    if exact(spreads):
        return min(1.0, _listed(spreads, s))
    var = variance(spreads)
    if var <= 0:
        return 1.0
    if s < 0.1 * math.sqrt(var):
        return _normal_upper(s / math.sqrt(var))
    highest = sum(n * outcomes[-1][0] for outcomes, n in spreads.items())
    if s >= highest - 1e-9:   # only every throw at its best reaches it
        return math.prod(outcomes[-1][1] ** n for outcomes, n in spreads.items()) if s <= highest + 1e-9 \
            else 0.0
    # K'(θ) rises from 0 (θ = 0) towards the highest sum: bracket the root, then bisect with Newton's steps.
    low, high = 0.0, 1.0
    while _cumulants(spreads, high)[1] < s:
        low, high = high, high * 2
        if high > 1e6:
            return 0.0
    theta = (low + high) / 2
    for _ in range(100):
        _, k1, k2 = _cumulants(spreads, theta)
        if abs(k1 - s) < 1e-10 * max(1.0, s):
            break
        if k1 < s:
            low = theta
        else:
            high = theta
        step = theta - (k1 - s) / k2 if k2 > 0 else None
        theta = step if step is not None and low < step < high else (low + high) / 2
    k, _, k2 = _cumulants(spreads, theta)
    w = math.sqrt(max(0.0, 2 * (theta * s - k)))
    u = theta * math.sqrt(k2)
    if w <= 0 or u <= 0:
        return _normal_upper(s / math.sqrt(var))
    phi = math.exp(-w * w / 2) / math.sqrt(2 * math.pi)
    return min(1.0, max(0.0, _normal_upper(w) + phi * (1 / u - 1 / w)))


def _binomial(n, p):
    """(first k, [P(k), ...]) of Binomial(n, p), left out where below 1e-18 of its largest."""
    q = 1.0 - p
    mode = min(n, int((n + 1) * p))
    log_mode = (math.lgamma(n + 1) - math.lgamma(mode + 1) - math.lgamma(n - mode + 1)
                + (mode * math.log(p) if mode else 0.0) + ((n - mode) * math.log(q) if n - mode else 0.0))
    top = math.exp(log_mode)
    up, k, value = [top], mode, top
    while k < n and value > 1e-18 * top:
        value *= (n - k) / (k + 1) * p / q
        k += 1
        up.append(value)
    down, k, value = [], mode, top
    while k > 0 and value > 1e-18 * top:
        value *= k / (n - k + 1) * q / p
        k -= 1
        down.append(value)
    return mode - len(down), down[::-1] + up


def count_tail(chances, thrown):
    """The smaller tail of how many throws end in a class, at ``thrown``: P(C ≥ thrown) when that is at least
    the expected count, else P(C ≤ thrown). ``chances``: {a throw's chance of the class: how many throws had
    that chance}. Exact: C is a sum of binomials, convolved (each cut where it is below 1e-18 of its peak)."""
    first, pmf = 0, [1.0]
    for p, n in chances.items():
        if p <= 0:
            continue
        if p >= 1:
            first += n
            continue
        start, terms = _binomial(n, p)
        grown = [0.0] * (len(pmf) + len(terms) - 1)
        for i, a in enumerate(pmf):
            if a:
                for j, b in enumerate(terms):
                    grown[i + j] += a * b
        first, pmf = first + start, grown
    expected = sum(p * n for p, n in chances.items())
    if thrown >= expected:
        share = sum(v for k, v in enumerate(pmf) if first + k >= thrown)
    else:
        share = sum(v for k, v in enumerate(pmf) if first + k <= thrown)
    return min(1.0, share)
