#!/usr/bin/env bash
# roundtrip.sh TILEVM REPO - every valid .tile in the repository: print(text) must equal
# print(read(write(text))), i.e. text -> bytecode -> text loses nothing. Files under a folder
# named `invalid` are deliberately broken and skipped; all others must verify.
set -euo pipefail
tilevm=$1
repo=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count=0
while IFS= read -r -d '' f; do
  case "$f" in */invalid/*) continue ;; esac
  "$tilevm" dis "$f" > "$tmp/text.txt"
  "$tilevm" asm "$f" -o "$tmp/m.tbc"
  "$tilevm" dis "$tmp/m.tbc" > "$tmp/bytecode.txt"
  if ! diff -u "$tmp/text.txt" "$tmp/bytecode.txt"; then
    echo "round trip FAILED: $f" >&2
    exit 1
  fi
  count=$((count + 1))
done < <(find "$repo" -name '*.tile' -not -path '*/build*' -not -path '*/.git/*' -print0 | sort -z)
if [ "$count" -eq 0 ]; then
  echo "no .tile files found under $repo" >&2
  exit 1
fi
echo "round-tripped $count .tile files"
