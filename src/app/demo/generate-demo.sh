#!/bin/sh
# generate-demo.sh TRESS_CLI FORMAT OUTPUT
#
# Writes the demo file of FORMAT with `tress-cli generate-demo`. When that
# format has no generator in this build, OUTPUT is left empty (the application
# then lists no demo for it) and the build says so; any other failure of a
# generator that exists fails the build.
cli=$1
format=$2
output=$3

rm -f "$output"
status=0
"$cli" generate-demo "$format" -o "$output" 2>"$output.log" || status=$?
if [ "$status" -eq 0 ]; then
  rm -f "$output.log"
  if [ ! -s "$output" ]; then
    echo "generate-demo $format wrote nothing" >&2
    exit 1
  fi
  exit 0
fi
if [ "$status" -eq 2 ] && [ ! -e "$output" ] && grep -q "no demo generator" "$output.log"; then
  echo "warning: no demo for '$format' (tress-cli generate-demo $format is not available):" >&2
  sed 's/^/  /' "$output.log" >&2
  rm -f "$output.log"
  : >"$output"
  exit 0
fi
cat "$output.log" >&2
rm -f "$output.log" "$output"
exit "$status"
