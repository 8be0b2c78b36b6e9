#!/usr/bin/env bash
# Builds the .deb from a configured, built tree, checks its metadata, unpacks it into a scratch
# root as dpkg would install it, and runs the installed programs.
# Usage: packaging/test-deb.sh BUILD_DIR [PROGRAM...]
#   PROGRAM: the programs this build packages (gpuplan, gpuplan-cli, gpuplan-bench); each must
#   be in /usr/bin with its libraries in Depends. Default: gpuplan-cli.
set -euo pipefail
build=$(cd "$1" && pwd)
source_dir=$(cd "$(dirname "$0")/.." && pwd)
shift
programs=("$@")
[ ${#programs[@]} -gt 0 ] || programs=(gpuplan-cli)
packages() { local p; for p in "${programs[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$build" && cpack -G DEB -B "$work/out" > "$work/cpack.log") || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/out/gpuplan_*.deb)
echo "built $(basename "$deb")"

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
needed=(libqt6core6 libyaml-cpp0.7 qt6-qpa-plugins)
packages gpuplan && needed+=(libqt6widgets6)
packages gpuplan-bench && needed+=(libtorch)
for lib in "${needed[@]}"; do
  grep -q "$lib" <<<"$depends" || { echo "FAIL: Depends lacks $lib"; exit 1; }
done

root="$work/root"
dpkg-deb -x "$deb" "$root"
for program in "${programs[@]}"; do
  [ -x "$root/usr/bin/$program" ] || { echo "FAIL: the package lacks /usr/bin/$program"; exit 1; }
done
for path in usr/bin/gpuplan-cli \
            usr/share/applications/org.gpuplan.planner.desktop \
            usr/share/metainfo/org.gpuplan.planner.metainfo.xml \
            usr/share/mime/packages/org.gpuplan.planner.xml \
            usr/share/icons/hicolor/scalable/apps/org.gpuplan.planner.svg \
            usr/share/icons/hicolor/256x256/apps/org.gpuplan.planner.png \
            usr/share/gpuplan/data/gpus.yaml \
            usr/share/gpuplan/data/price-sets/current/cloud.yaml \
            usr/share/gpuplan/data/price-sets/paper/cloud.yaml \
            usr/share/doc/gpuplan/benchmark-view.md; do
  [ -e "$root/$path" ] || { echo "FAIL: the package lacks /$path"; exit 1; }
done

# Each price set's tables as shipped, not one set's copies over the other's.
for table in gpu-prices.yaml cloud.yaml; do
  for set in current paper; do
    cmp -s "$root/usr/share/gpuplan/data/price-sets/$set/$table" \
           "$source_dir/pricing/data/price-sets/$set/$table" \
      || { echo "FAIL: /usr/share/gpuplan/data/price-sets/$set/$table is not the shipped one"; exit 1; }
  done
done

desktop-file-validate "$root/usr/share/applications/org.gpuplan.planner.desktop"
appstreamcli validate --no-net --pedantic "$root/usr/share/metainfo/org.gpuplan.planner.metainfo.xml"
# The scenario file type the desktop entry opens: shared-mime-info must accept its definition.
update-mime-database "$root/usr/share/mime" 2>/dev/null
[ -e "$root/usr/share/mime/application/x-gpuplan-scenario.xml" ] \
  || { echo "FAIL: update-mime-database did not register application/x-gpuplan-scenario"; exit 1; }

plan=$(GPUPLAN_DATA_DIR="$work/empty" "$root/usr/bin/gpuplan-cli" plan --model pythia-1b \
         --budget 40000 --format json)
grep -q '"recommendation_reason": "fastest machine within the $40,000 budget"' <<<"$plan" \
  || { echo "FAIL: installed gpuplan-cli gave no recommendation"; echo "$plan" | head -20; exit 1; }
echo "installed gpuplan-cli plan: ok"

if packages gpuplan-bench; then
  # What the GUI's Benchmark view runs first: the device list, as JSON on stdout.
  devices=$("$root/usr/bin/gpuplan-bench" devices --format json 2>"$work/bench.err") \
    || { echo "FAIL: installed gpuplan-bench devices failed"; cat "$work/bench.err"; exit 1; }
  grep -q '"kind": "cpu"' <<<"$devices" \
    || { echo "FAIL: installed gpuplan-bench devices gave no device list"; echo "$devices" | head -5; exit 1; }
  echo "installed gpuplan-bench devices: ok"
fi
if packages gpuplan; then
  # The installed desktop app starts: its libraries resolve from the package's Depends and it
  # reaches its event loop with the shipped data (offscreen: CI has no display).
  missing=$(ldd "$root/usr/bin/gpuplan" | grep "not found" || true)
  [ -z "$missing" ] || { echo "FAIL: installed gpuplan lacks libraries: $missing"; exit 1; }
  mkdir -p "$work/home"
  HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" GPUPLAN_DATA_DIR="$work/empty" \
    QT_QPA_PLATFORM=offscreen "$root/usr/bin/gpuplan" > "$work/gui.log" 2>&1 &
  gui=$!
  sleep 5
  if ! kill -0 "$gui" 2>/dev/null; then
    wait "$gui" && status=0 || status=$?
    echo "FAIL: installed gpuplan exited within 5 s (status $status)"; cat "$work/gui.log"; exit 1
  fi
  kill "$gui"; wait "$gui" 2>/dev/null || true
  echo "installed gpuplan starts: ok"
fi
echo "package_deb: 1 passed, 0 failed"
