#!/usr/bin/env bash
# Installs everything gpuplan needs to build, test and run on Debian 12 (bookworm).
# Used by both commands at the top of README.md and by CI, so a fresh machine and CI agree.
set -euo pipefail

packages=(
  # toolchain
  g++ cmake ninja-build pkg-config git
  # the format check of tests/run-all.sh (the version that formatted the tree)
  clang-format
  # fuzz/run-fuzzers.sh: Debian's clang 14 and its libFuzzer / sanitizer runtimes
  clang libclang-rt-14-dev
  # planner: Qt 6 (Widgets, Charts, Svg, Test) and yaml-cpp
  qt6-base-dev qt6-base-dev-tools qt6-qpa-plugins libqt6charts6-dev libqt6opengl6-dev libqt6svg6-dev
  libqt6svg6 libgl-dev libyaml-cpp-dev
  # benchmark core: LibTorch (CPU) with Gloo, and an optimised BLAS: Debian's libtorch otherwise
  # runs on the reference BLAS, 30x slower (design.md)
  libtorch-dev libgloo-dev libopenblas0-pthread python3-torch
  # headless GUI tests, screenshots and report checks
  xvfb xauth poppler-utils fonts-dejavu-core
  # the justification test unzips the .odt it writes
  zlib1g-dev
  # packaging checks
  dpkg-dev file desktop-file-utils appstream shared-mime-info
)

run_as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

export DEBIAN_FRONTEND=noninteractive
run_as_root apt-get update -q
run_as_root apt-get install -y -q --no-install-recommends "${packages[@]}"
