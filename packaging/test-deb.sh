#!/usr/bin/env bash
# Builds the .deb from a configured, built tree, checks its metadata, unpacks it into a scratch
# root as dpkg would install it, and runs the installed gpuplan-cli.
# Usage: packaging/test-deb.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$build" && cpack -G DEB -B "$work/out" > "$work/cpack.log") || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/out/gpuplan_*.deb)
echo "built $(basename "$deb")"

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for needed in libqt6core6 libyaml-cpp0.7 qt6-qpa-plugins; do
  grep -q "$needed" <<<"$depends" || { echo "FAIL: Depends lacks $needed"; exit 1; }
done

root="$work/root"
dpkg-deb -x "$deb" "$root"
for path in usr/bin/gpuplan-cli \
            usr/share/applications/org.gpuplan.planner.desktop \
            usr/share/metainfo/org.gpuplan.planner.metainfo.xml \
            usr/share/icons/hicolor/scalable/apps/org.gpuplan.planner.svg \
            usr/share/icons/hicolor/256x256/apps/org.gpuplan.planner.png \
            usr/share/gpuplan/data/gpus.yaml; do
  [ -e "$root/$path" ] || { echo "FAIL: the package lacks /$path"; exit 1; }
done

desktop-file-validate "$root/usr/share/applications/org.gpuplan.planner.desktop"
appstreamcli validate --no-net --pedantic "$root/usr/share/metainfo/org.gpuplan.planner.metainfo.xml"

plan=$(GPUPLAN_DATA_DIR="$work/empty" "$root/usr/bin/gpuplan-cli" plan --model pythia-1b \
         --budget 40000 --format json)
grep -q '"recommendation_reason": "fastest machine within the $40,000 budget"' <<<"$plan" \
  || { echo "FAIL: installed gpuplan-cli gave no recommendation"; echo "$plan" | head -20; exit 1; }
echo "installed gpuplan-cli plan: ok"
echo "package_deb: 1 passed, 0 failed"
