import sys
raise SystemExit('generator: cannot make input for ' + sys.argv[1])
