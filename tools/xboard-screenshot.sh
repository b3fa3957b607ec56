#!/usr/bin/env bash
# A game of Debian's XBoard between two Varia engines, and a screenshot of its end, for
# docs/play.md. Runs XBoard on a virtual display (Xvfb), Varia as both engines (`varia xboard`),
# stops when XBoard has saved the finished game (or after SECONDS), and saves the window and
# the game. Needs: apt-get install xboard xvfb imagemagick.
# Usage: tools/xboard-screenshot.sh [VARIA_BIN] [VARIANT] [SECONDS] [OUT.png]
set -euo pipefail
BIN=$(realpath "${1:-target/debug/varia}")
VARIANT=${2:-capablanca}
WAIT=${3:-300}
OUT=${4:-docs/web/xboard-$VARIANT.png}
TMP=${TMPDIR:-/tmp}
PGN=$TMP/xboard-$VARIANT.pgn
rm -f "$PGN"
DISPLAY_NUM=:$((90 + RANDOM % 9))
Xvfb "$DISPLAY_NUM" -screen 0 1024x768x24 >/dev/null 2>&1 &
XVFB=$!
XBOARD=
trap 'kill $XBOARD $XVFB 2>/dev/null || true' EXIT
sleep 1
DISPLAY=$DISPLAY_NUM /usr/games/xboard -fcp "$BIN xboard" -scp "$BIN xboard" -variant "$VARIANT" \
  -mode TwoMachines -tc 0:20 -inc 0 -size medium -popupExitMessage false -showCoords true \
  -saveGameFile "$PGN" -autoSaveGames true \
  -debug -nameOfDebugFile "$TMP/xboard-$VARIANT.debug" >/dev/null 2>&1 &
XBOARD=$!
for _ in $(seq "$WAIT"); do
  sleep 1
  if [ -s "$PGN" ] && grep -q '^\[Result "[^*]' "$PGN"; then break; fi
done
sleep 1
DISPLAY=$DISPLAY_NUM import -window root "$OUT"
# Crop to the XBoard window (the rest of the virtual screen is black).
convert "$OUT" -trim +repage "$OUT"
echo "saved $OUT; the game: $PGN; XBoard's log: $TMP/xboard-$VARIANT.debug"
grep -h '^\[Result' "$PGN" 2>/dev/null || echo "no finished game within $WAIT s"
