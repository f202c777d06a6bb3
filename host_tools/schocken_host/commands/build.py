"""`schocken build`: the firmware's release artefacts per mpy architecture, for `schocken deploy --from DIR`
(provision/release.py; docs/build.md, "Release artefacts")."""

import os

from schocken_host.errors import FAILED, CommandError
from schocken_host.i18n import tr
from schocken_host.provision import release
from schocken_host.provision.build import ROOT


def add_arguments(p):
    p.add_argument("--out", default=str(ROOT / "build" / "release"),
                   help="folder for the artefacts (default: build/release in the checkout)")
    p.add_argument("--arch", action="append", choices=release.archs(),
                   help="an mpy architecture to build for (repeatable; default: every board's and bytecode)")


def run(args):
    lang = getattr(args, "lang", "de")
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        raise CommandError("build.out_not_folder", path=args.out)
    try:
        manifest = release.build(args.out, args.arch)
    except (RuntimeError, OSError) as e:   # mpy-cross missing or failing, a folder that cannot be written
        raise CommandError("build.failed", status=FAILED, error=" ".join(str(e).split()))
    for arch, entry in manifest["archs"].items():
        sizes = [manifest["files"]["%s/files/%s" % (arch, p)][0] for p in entry["files"]]
        print(tr(lang, "build.arch", arch=arch, n=len(sizes), size=sum(sizes),
                 image=manifest["files"][entry["romfs"]][0]))
    print(tr(lang, "build.done", version=manifest["version"], archs=", ".join(manifest["archs"]),
             path="%s/%s" % (args.out, release.MANIFEST)))
    return 0
