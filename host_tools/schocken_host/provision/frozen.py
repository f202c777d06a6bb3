"""A MicroPython image with the cup frozen in (docs/build.md, "Firmware with the cup frozen in"): `schocken
deploy` asks the board whether its image holds the firmware before it copies any.

On a board ``sys.path`` is ``['', '.frozen', '/rom', '/rom/lib', '/lib']``: files in ``/`` come before the
frozen modules (their bytecode would fill the heap again) and a ROMFS comes after them (it would never run).
So on a frozen image deploy writes only what the filesystem still needs (``main.py``, ``board.json``,
``cup.json`` and the manifest) and removes the modules of an earlier deploy; ``--files`` puts this checkout's
firmware over the frozen one (the files win), which deploy then says.
"""

from schocken_host.i18n import Message

# The probe imports one small frozen module of the firmware with ".frozen" alone on sys.path, then puts
# sys.path and sys.modules back as they were (a cup stopped for the deploy may have its "cup" package loaded
# from the filesystem or the ROM). "cup.texts" is a tuple of strings: nothing runs, little is allocated.
MODULE = "cup.texts"
PROBE = """\
import sys, json
_p = sys.path[:]
_k = {}
for _n in list(sys.modules):
    if _n == %(package)r or _n.startswith(%(package)r + '.'):
        _k[_n] = sys.modules.pop(_n)
sys.path[:] = ['.frozen']
try:
    __import__(%(module)r)
    _f = True
except ImportError:
    _f = False
except Exception:  # found, but it failed: still the image's
    _f = True
sys.path[:] = _p
for _n in list(sys.modules):
    if _n == %(package)r or _n.startswith(%(package)r + '.'):
        del sys.modules[_n]
sys.modules.update(_k)
print(json.dumps(_f))
del _p, _k, _f
"""


def probe(module=None):
    """The script that prints whether ``module`` (default MODULE) is frozen into the image: true or false."""
    module = module or MODULE
    return PROBE % {"module": module, "package": module.split(".")[0]}


def is_frozen(dev, module=None):
    return dev.json(probe(module)) is True


def choose(frozen, want):
    """On a frozen image: (write only the configuration?, the line that says why); None where not frozen.
    ``want``: deploy's ``romfs`` (False: --files, the firmware as files over the frozen one)."""
    if not frozen:
        return None
    if want is False:
        return False, Message("deploy.frozen_shadowed")
    return True, Message("deploy.frozen_config_only")
