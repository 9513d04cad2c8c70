#!/usr/bin/env bash
# CI's container step: the Dockerfile built as it is, then its image run through the smoke test
# (scripts/container/smoke.ts). Prints the image's size by layer and each step's time.
#
#   scripts/container/ci.sh [image] [all|build|smoke]
#
# `build` makes the image and keeps its times in .cache/container-times; `smoke` runs the smoke test on
# the image built and prints every step's time; `all` (the default) does both. The build's context is
# KALLO_BUILD_CONTEXT when set (a folder holding the commit's files), else this checkout. .ci/run builds
# beside `npm test`, at the lowest priority, and runs the smoke test after it.
#
# The bases come from the registry when it can be reached (the digests pinned in the Dockerfile); this
# machine reaches only Debian's and npm's, so make-base.sh makes them here first. Podman on hosts with
# hybrid cgroups needs runc and explicit ulimits (scripts/container/engine.ts says why).
set -euo pipefail
cd "$(dirname "$0")/../.."
image=${1:-localhost/kallo:ci}
what=${2:-all}
case "$what" in
  all | build | smoke) ;;
  *)
    echo "ci.sh: build, smoke or all, not \"$what\"" >&2
    exit 2
    ;;
esac
mkdir -p .cache
times_file=.cache/container-times

build() {
  local engine build_flags node_image debian_image step_started base_seconds build_seconds version commit
  engine=${KALLO_ENGINE:-$(command -v podman > /dev/null && echo podman || echo docker)}
  build_flags=()
  if [ "$engine" = podman ] && command -v runc > /dev/null; then
    build_flags+=(--runtime runc --ulimit nofile=20000:20000 --ulimit nproc=32768:32768)
  fi
  # Docker's image format keeps HEALTHCHECK (podman builds OCI images by default, which drop it).
  [ "$engine" = podman ] && build_flags+=(--format docker)
  # The build's RUN steps run in a cgroup of their own, which competes with everything else on the box as
  # one whole whatever the nice value: KALLO_BUILD_CPU_SHARES=2 (.ci/run, beside the tests) makes it yield.
  [ -n "${KALLO_BUILD_CPU_SHARES:-}" ] && build_flags+=(--cpu-shares "$KALLO_BUILD_CPU_SHARES")
  # RUN steps on the host's network: a network of their own adds and removes an interface at each step,
  # which every browser on the box hears as "the network changed" and fails its requests under way
  # (net::ERR_NETWORK_CHANGED in the end-to-end tests beside the build).
  build_flags+=(--network host)

  step_started=$(date +%s)
  node_image=$(sed -n 's/^ARG NODE_IMAGE=//p' Dockerfile)
  debian_image=$(sed -n 's/^ARG DEBIAN_IMAGE=//p' Dockerfile)
  if ! "$engine" pull -q "$node_image" > /dev/null 2>&1 || ! "$engine" pull -q "$debian_image" > /dev/null 2>&1; then
    if [ -n "${KALLO_REMAKE_BASE:-}" ] || ! "$engine" image exists localhost/kallo-base:node22-bookworm-slim 2> /dev/null \
      || ! "$engine" image exists localhost/kallo-base:bookworm-slim 2> /dev/null; then
      echo "[container] no image registry reachable: making the bases on this machine"
      scripts/container/make-base.sh localhost/kallo-base
    else
      echo "[container] no image registry reachable: the bases made on this machine before (KALLO_REMAKE_BASE=1 makes them again)"
    fi
    node_image=localhost/kallo-base:node22-bookworm-slim
    debian_image=localhost/kallo-base:bookworm-slim
    # The bases trust this machine's CA bundle (an egress proxy's CA among them): npm inside the build uses it.
    build_flags+=(--build-arg NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt)
  fi
  base_seconds=$(($(date +%s) - step_started))

  step_started=$(date +%s)
  version=$(node -p 'require("./package.json").version')
  commit=$(git rev-parse --short=12 HEAD)
  "$engine" build "${build_flags[@]}" \
    --build-arg NODE_IMAGE="$node_image" --build-arg DEBIAN_IMAGE="$debian_image" \
    --build-arg KALLO_VERSION="$version" --build-arg KALLO_COMMIT="$commit" \
    -f "$PWD/Dockerfile" -t "$image" "${KALLO_BUILD_CONTEXT:-.}" > .cache/container-build.log 2>&1 \
    || {
      tail -40 .cache/container-build.log
      echo "[container] the image did not build"
      return 1
    }
  build_seconds=$(($(date +%s) - step_started))
  echo "base_seconds=$base_seconds build_seconds=$build_seconds" > "$times_file"

  echo "[container] $image: version $version, commit $commit; layers:"
  "$engine" history --format '{{.Size}}\t{{.CreatedBy}}' "$image" | grep -v '^0 *B' | cut -c1-110 | sed 's/^/    /'
  echo "    healthcheck: $("$engine" image inspect -f '{{json .Config.Healthcheck.Test}}' "$image")"
}

smoke() {
  local step_started smoke_status=0 smoke_seconds base_seconds="?" build_seconds="?"
  # shellcheck disable=SC1090
  [ -f "$times_file" ] && . "$times_file"
  step_started=$(date +%s)
  node --import tsx scripts/container/smoke.ts "$image" || smoke_status=$?
  smoke_seconds=$(($(date +%s) - step_started))

  echo
  echo "| container step | seconds |"
  echo "|---|---|"
  echo "| the bases | $base_seconds |"
  echo "| build | $build_seconds |"
  echo "| smoke test | $smoke_seconds |"
  return "$smoke_status"
}

[ "$what" = smoke ] || build
[ "$what" = build ] || smoke
