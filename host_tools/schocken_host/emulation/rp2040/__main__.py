import sys

from schocken_host.emulation.rp2040.harness import main

sys.exit(main())
