#!/usr/bin/env bash
# Screenshot of Debian's XBoard playing a bundled variant against Varia, for docs/play.md.
# Runs XBoard on a virtual display (Xvfb), Varia as both engines (`varia xboard`), waits while
# they play, and saves the window. Needs: apt-get install xboard xvfb imagemagick.
# Usage: tools/xboard-screenshot.sh [VARIA_BIN] [VARIANT] [SECONDS] [OUT.png]
set -euo pipefail
BIN=$(realpath "${1:-target/debug/varia}")
VARIANT=${2:-capablanca}
WAIT=${3:-25}
OUT=${4:-docs/web/xboard-$VARIANT.png}
DISPLAY_NUM=:$((90 + RANDOM % 9))
Xvfb "$DISPLAY_NUM" -screen 0 1024x768x24 >/dev/null 2>&1 &
XVFB=$!
trap 'kill $XBOARD $XVFB 2>/dev/null || true' EXIT
sleep 1
DISPLAY=$DISPLAY_NUM /usr/games/xboard -fcp "$BIN xboard" -scp "$BIN xboard" -variant "$VARIANT" \
  -mode TwoMachines -tc 0:40 -inc 0 -size medium -popupExitMessage false -showCoords true \
  -debug -nameOfDebugFile "${TMPDIR:-/tmp}/xboard-$VARIANT.debug" >/dev/null 2>&1 &
XBOARD=$!
sleep "$WAIT"
DISPLAY=$DISPLAY_NUM import -window root "$OUT"
# Crop to the XBoard window (the rest of the virtual screen is black).
convert "$OUT" -trim +repage "$OUT"
echo "saved $OUT; XBoard's log: ${TMPDIR:-/tmp}/xboard-$VARIANT.debug"
