#!/usr/bin/env bash
# Makes the Dockerfile's two base images on a machine that reaches no image registry:
#   - a minimal Debian 12 root made with debootstrap (in place of debian:bookworm-slim), and
#   - the same root plus Node.js 22 and npm from the npm registry (in place of node:22-bookworm-slim; the
#     `node-linux-<arch>` platform package carries the same binary and headers as nodejs.org's tarball,
#     laid out under /usr/local as the official image lays them out, with its `node` user, uid 1000).
# Then the Dockerfile builds unchanged on them:
#
#   scripts/container/make-base.sh        # tags localhost/kallo-base:bookworm-slim and :node22-bookworm-slim
#   podman build --build-arg DEBIAN_IMAGE=localhost/kallo-base:bookworm-slim \
#                --build-arg NODE_IMAGE=localhost/kallo-base:node22-bookworm-slim ...
#
# Needs root, debootstrap and podman (or docker). The machine's own extra CA certificates
# (/usr/local/share/ca-certificates, where an egress proxy's CA lives) are trusted by these bases, so
# `npm ci` inside the build reaches the registry through such a proxy: bases made this way are for images
# built on this machine.
set -euo pipefail
repo=${1:-localhost/kallo-base}
node_version=${KALLO_BASE_NODE:-22.23.3}
npm_version=${KALLO_BASE_NPM:-10.9.9}
mirror=${KALLO_BASE_MIRROR:-http://deb.debian.org/debian}
engine=$(command -v podman || command -v docker)

case "$(dpkg --print-architecture)" in
  amd64) node_arch=x64 ;;
  arm64) node_arch=arm64 ;;
  *) echo "make-base: no Node.js platform package for $(dpkg --print-architecture)" >&2; exit 1 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
started=$(date +%s)

import() { # tag, then --change arguments
  local tag=$1
  shift
  tar -C "$root" -c . | "$engine" import "$@" - "$tag" > /dev/null 2> "$work/import.log" \
    || { cat "$work/import.log" >&2; exit 1; }
}

# The Node.js download runs while debootstrap does.
(cd "$work" && npm pack --silent "node-linux-${node_arch}@${node_version}" "npm@${npm_version}" > /dev/null) &
pack=$!
debootstrap --variant=minbase --include=ca-certificates bookworm "$root" "$mirror" > "$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
wait "$pack"
echo "[make-base] debootstrap and the Node.js download: $(( $(date +%s) - started )) s"

if compgen -G "/usr/local/share/ca-certificates/*.crt" > /dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates > /dev/null
fi
# What an image never needs: package lists, caches, documentation, locales other than C.
chroot "$root" apt-get clean
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/log/* \
  "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/*
base_path='ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
import "$repo:bookworm-slim" --change "$base_path" --change 'CMD ["bash"]'

# Node.js and npm, laid out as nodejs.org's tarball lays them out; the official image's node user.
mkdir -p "$work/node" "$root/usr/local/lib/node_modules/npm"
tar xzf "$work/node-linux-${node_arch}-${node_version}.tgz" -C "$work/node"
install -m 0755 "$work/node/package/bin/node" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/include"
cp -r "$work/node/package/include/node" "$root/usr/local/include/"
tar xzf "$work/npm-${npm_version}.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
chroot "$root" node --version > /dev/null
import "$repo:node22-bookworm-slim" --change "$base_path" --change "ENV NODE_VERSION=${node_version}" \
  --change 'CMD ["node"]'
echo "[make-base] $repo:bookworm-slim and $repo:node22-bookworm-slim (Node.js ${node_version}, npm ${npm_version}): $(( $(date +%s) - started )) s"
