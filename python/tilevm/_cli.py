"""The `tilevm` command of a pip-installed tilevm: runs the C++ CLI that setup.py put in the
package (tilevm/_bin/tilevm), with the same arguments and exit code."""
import os
import sys


def main():
    cli = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "tilevm")
    if not os.access(cli, os.X_OK):
        print(f"tilevm: {cli} is missing: this tilevm package was not installed by pip (in a build tree the CLI is "
              "build/tools/tilevm)", file=sys.stderr)
        sys.exit(2)
    os.execv(cli, [cli] + sys.argv[1:])
