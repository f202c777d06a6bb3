import sys

from testbed.rp2040.harness import main

sys.exit(main())
