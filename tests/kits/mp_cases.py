"""Runs every shared rule case on the interpreter that executes this file (the MicroPython unix port in
the suite; CPython works too). Prints one line per failing case, then "N passed, M failed".

    MICROPYPATH=firmware/lib:tests/kits:.frozen micropython tests/kits/mp_cases.py tests/cases/*.json
"""

import sys

import casekit


def main(paths):
    passed = failed = 0
    for path in paths:
        for case in casekit.load(path):
            try:
                problem = casekit.run_case(case)
            except Exception as e:  # a crash in a case is a failure of that case, not of the run
                problem = "crashed: %s: %s" % (type(e).__name__, e)
            if problem is None:
                passed += 1
            else:
                failed += 1
                print("FAIL %s: %s" % (case.get("id"), problem))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


sys.exit(main(sys.argv[1:]))
