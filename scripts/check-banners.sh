#!/usr/bin/env bash
# check-banners.sh - every source file opens with its purpose line: C++ files with
# "// NAME - purpose" naming the file itself (a banner copied from another file or left behind
# by a rename fails), Python and shell files with a comment or docstring. Run by ctest (banners).
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
while IFS= read -r f; do
  first=$(head -n 1 "$f")
  case "$f" in
    *.cpp|*.h|*.inc)
      [[ "$first" == "// $(basename "$f") - "?* ]] || { echo "$f:1: the first line must be '// $(basename "$f") - <purpose>', got: ${first:0:80}"; bad=1; } ;;
    *.py)
      # Kernels kept as test inputs may open with their imports; tools and tests say what they are.
      [[ "$first" == "#"* || "$first" == '"""'* ]] || { echo "$f:1: the first line must be a comment or docstring saying what the file is"; bad=1; } ;;
    *.sh)
      second=$(sed -n 2p "$f")
      [[ "$second" == "#"?* ]] || { echo "$f:2: the line after the shebang must say what the script does"; bad=1; } ;;
  esac
done < <(git ls-files '*.cpp' '*.h' '*.inc' '*.sh' 'python/*.py' 'scripts/*.py' 'bench/*.py' 'test/python/*.py' 'test/python/gpu/*.py' 2>/dev/null || find . -name '*.cpp')
[ "$bad" = 0 ] && echo "banners: every file opens with its purpose"
exit $bad
