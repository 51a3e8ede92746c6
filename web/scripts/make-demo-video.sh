#!/usr/bin/env bash
# Makes the landing page's demo: web/public/demo_video.mp4 (looping, silent, < 3 MB) and demo_poster.jpg.
# Each clip shows a damaged sample from the restoration benchmark next to the product's OWN restoration of
# it, made here by the engine's CLI (engine/bin/folio-restore.js). Needs ffmpeg (Debian package).
#   usage: web/scripts/make-demo-video.sh            (OUT_DIR and EVAL_DIR may be overridden)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
EVAL_DIR="${EVAL_DIR:-$ROOT/../shared/eval/public}"
OUT_DIR="${OUT_DIR:-$ROOT/web/public}"
CLI="$ROOT/engine/bin/folio-restore.js"
SAMPLES=(doc_004 doc_029 doc_007 doc_006)
FONT="/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
SECONDS_PER_CLIP=3
FADE=0.5

command -v ffmpeg >/dev/null || { echo "ffmpeg is missing: apt-get install -y ffmpeg" >&2; exit 1; }
[ -f "$CLI" ] || { echo "engine CLI not found at $CLI" >&2; exit 1; }
[ -f "$FONT" ] || { echo "font $FONT is missing: apt-get install -y fonts-dejavu-core" >&2; exit 1; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# One side of a frame: 620x680. Documents show a zoomed top-left region so the text is readable;
# photos are fitted whole.
side_filter() {
  local kind="$1"
  if [ "$kind" = doc ]; then
    echo "crop=trunc(iw*0.62):trunc(iw*0.62*680/620):trunc(iw*0.06):trunc(ih*0.05),scale=620:680"
  else
    echo "scale=620:680:force_original_aspect_ratio=decrease,pad=620:680:(ow-iw)/2:(oh-ih)/2:color=0x0f172a"
  fi
}

label() {
  echo "drawtext=fontfile=$FONT:text='$1':x=20:y=20:fontsize=28:fontcolor=white:box=1:boxcolor=0x4f46e5@0.9:boxborderw=10"
}

clips=()
for sample in "${SAMPLES[@]}"; do
  degraded="$(ls "$EVAL_DIR/$sample"/degraded.* | head -n 1)"
  restored="$WORK/$sample-restored.png"
  echo "restoring $sample with the engine CLI" >&2
  node "$CLI" "$degraded" -o "$restored"
  kind="${sample%%_*}"
  filter="$(side_filter "$kind")"
  clip="$WORK/$sample.mp4"
  ffmpeg -hide_banner -loglevel error -y -loop 1 -t "$SECONDS_PER_CLIP" -i "$degraded" -loop 1 -t "$SECONDS_PER_CLIP" -i "$restored" \
    -filter_complex "[0:v]$filter,$(label Before)[a];[1:v]$filter,$(label 'After (Folio AI)')[b];[a][b]hstack,pad=1280:720:(ow-iw)/2:(oh-ih)/2:color=0x0f172a,format=yuv420p,fps=24[v]" \
    -map "[v]" -c:v libx264 -preset slow -crf 26 "$clip"
  clips+=("$clip")
done

# Cross-fade the clips into one loop.
inputs=()
for clip in "${clips[@]}"; do inputs+=(-i "$clip"); done
chain="[0:v]"
offset=0
for ((i = 1; i < ${#clips[@]}; i++)); do
  offset=$(awk "BEGIN { print $offset + $SECONDS_PER_CLIP - $FADE }")
  chain+="[$i:v]xfade=transition=fade:duration=$FADE:offset=$offset"
  if ((i < ${#clips[@]} - 1)); then chain+="[x$i];[x$i]"; fi
done
mkdir -p "$OUT_DIR"
ffmpeg -hide_banner -loglevel error -y "${inputs[@]}" -filter_complex "$chain,format=yuv420p[v]" -map "[v]" \
  -c:v libx264 -preset slow -crf 27 -movflags +faststart -an "$OUT_DIR/demo_video.mp4"
ffmpeg -hide_banner -loglevel error -y -i "$OUT_DIR/demo_video.mp4" -frames:v 1 -q:v 4 "$OUT_DIR/demo_poster.jpg"

size=$(stat -c %s "$OUT_DIR/demo_video.mp4")
echo "demo_video.mp4: $size bytes; demo_poster.jpg: $(stat -c %s "$OUT_DIR/demo_poster.jpg") bytes" >&2
[ "$size" -lt 3000000 ] || { echo "demo video is over 3 MB" >&2; exit 1; }
