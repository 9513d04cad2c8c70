# syntax=docker/dockerfile:1
# Kallo as one container: install from the lockfile, build, then a small runtime image (Node.js, ffmpeg,
# the build and the production dependencies; no compiler, no dev dependencies). CI builds this file and
# runs the image on every run (scripts/container/ci.sh); the README's "Running with Docker" says what each
# layer weighs.
#
# The bases are pinned by digest (Debian 12 "bookworm"; Node.js 22). A machine that reaches no image
# registry makes both itself (scripts/container/make-base.sh) and passes them as build arguments.
ARG NODE_IMAGE=node:22-bookworm-slim@sha256:43ac6c60b8f89723f746e8a92ce91abd5017e627ce1ddfe4238355d3a30b772c
ARG DEBIAN_IMAGE=debian:bookworm-slim@sha256:4b50eb66f977b4062683ff434ef18ac191da862dbe966961bc11990cf5791a8d

FROM ${NODE_IMAGE} AS deps
# better-sqlite3 builds from source where no prebuilt binary can be fetched.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Node's headers live under /usr/local in these images (the project's .npmrc points at /usr for Debian's Node).
ENV npm_config_nodedir=/usr/local
# A registry reached through a proxy with its own CA: pass the CA bundle's path (a base that trusts it).
ARG NODE_EXTRA_CA_CERTS
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund

FROM deps AS build
ARG KALLO_COMMIT
COPY . .
# The build (the server and the operator's commands compiled to JavaScript), then the production
# dependencies only, without what a server never reads: TypeScript (an optional peer of Remix's), type
# declarations and TypeScript sources, source maps, documentation and packages' own tests, better-sqlite3's
# sources and objects (its compiled module stays), and the npm-shipped ffmpeg of 2018 (the image has Debian's).
RUN KALLO_COMMIT="${KALLO_COMMIT}" npm run build \
 && npm prune --omit=dev --omit=peer --no-audit --no-fund \
 && rm -rf node_modules/@ffmpeg-installer node_modules/@ffprobe-installer node_modules/typescript \
 && mv node_modules/better-sqlite3/build/Release/better_sqlite3.node /tmp/ \
 && rm -rf node_modules/better-sqlite3/build node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
 && mkdir -p node_modules/better-sqlite3/build/Release \
 && mv /tmp/better_sqlite3.node node_modules/better-sqlite3/build/Release/ \
 && find node_modules \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.map' -o -name '*.md' \) -type f -delete \
 && find node_modules -depth -type d \( -name test -o -name tests -o -name __tests__ -o -name docs -o -name example -o -name examples \) \
      -exec rm -rf {} + \
 && cp /usr/local/bin/node /tmp/node && strip /tmp/node \
 && mkdir /out \
 && cp -a .builds public drizzle package.json /out/ \
 && ln -s "$(readlink build)" /out/build \
 && install -D -m 0755 scripts/container/kallo /out/bin/kallo

# Debian's ffmpeg and ffprobe with the libraries they load, and nothing else the package pulls in (Mesa,
# LLVM and X11's drivers come with it as dependencies but are never loaded by a command-line ffmpeg). The
# runtime finds them through LD_LIBRARY_PATH, set for ffmpeg alone by its two-line launcher.
FROM ${DEBIAN_IMAGE} AS ffmpeg
RUN dpkg-query -W -f '${Package}\n' | sort > /tmp/base-packages \
 && apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg \
 && mkdir -p /opt/ffmpeg/bin /opt/ffmpeg/lib \
 && cp /usr/bin/ffmpeg /usr/bin/ffprobe /opt/ffmpeg/bin/ \
 && ldd /usr/bin/ffmpeg /usr/bin/ffprobe | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u \
    | while read -r lib; do \
        real=$(readlink -f "$lib"); \
        package=$( (dpkg -S "$real" || dpkg -S "${real#/usr}") 2>/dev/null | head -n1 | cut -d: -f1); \
        [ -n "$package" ] || { echo "no package owns $lib" >&2; exit 1; }; \
        grep -qx "$package" /tmp/base-packages || cp -L "$lib" /opt/ffmpeg/lib/; \
      done

# The runtime's system: Debian with tini, CA certificates and one font, then without Debian's package tools
# (apt, dpkg and their database, debconf, Perl): nothing is installed into a running image, and they weigh
# 22 MB. FROM scratch below makes it one layer.
FROM ${DEBIAN_IMAGE} AS system
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini ca-certificates fonts-dejavu-core fontconfig-config \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/sh --create-home node \
 && apt-get clean \
 && dpkg -L apt libapt-pkg6.0 debconf perl-base gpgv dpkg \
    | while read -r file; do if [ ! -d "$file" ] && { [ -e "$file" ] || [ -L "$file" ]; }; then rm -f "$file"; fi; done \
 && rm -rf /var/lib/apt /var/lib/dpkg /var/cache/* /var/log/* /etc/apt /usr/share/doc/* /usr/share/man/* \
           /usr/share/locale/* /usr/share/info/*

FROM scratch AS runtime
ARG KALLO_VERSION=unknown
ARG KALLO_COMMIT=unknown
LABEL org.opencontainers.image.title="Kallo" \
      org.opencontainers.image.description="Hausa and African films and TV: one container" \
      org.opencontainers.image.version="${KALLO_VERSION}" \
      org.opencontainers.image.revision="${KALLO_COMMIT}" \
      org.opencontainers.image.licenses="UNLICENSED"
COPY --from=system / /
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# Node.js alone (no npm: the operator's commands are `kallo <command>`), without its debug symbols.
COPY --from=build /tmp/node /usr/local/bin/node
COPY --from=ffmpeg /opt/ffmpeg /opt/ffmpeg
RUN for tool in ffmpeg ffprobe; do \
      printf '#!/bin/sh\nLD_LIBRARY_PATH=/opt/ffmpeg/lib exec /opt/ffmpeg/bin/%s "$@"\n' "$tool" > "/usr/local/bin/$tool"; \
      chmod 0755 "/usr/local/bin/$tool"; \
    done \
 && ffmpeg -hide_banner -version > /dev/null && ffprobe -hide_banner -version > /dev/null && node --version
# docker stop (and podman's) waits 10 s before it kills: requests under way get 8 s, then running media
# jobs go back in the queue, the database is closed and the process exits 0 inside the engine's time.
# A longer grace needs a longer stop timeout too (docker run --stop-timeout, compose's stop_grace_period).
ENV NODE_ENV=production \
    PORT=3000 \
    STORAGE_DIR=/app/storage \
    FFMPEG_PATH=/usr/local/bin/ffmpeg \
    FFPROBE_PATH=/usr/local/bin/ffprobe \
    SHUTDOWN_GRACE_SECONDS=8
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /out ./
RUN ln -s /app/bin/kallo /usr/local/bin/kallo && mkdir -p /app/storage && chown node:node /app/storage
USER node
VOLUME ["/app/storage"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
STOPSIGNAL SIGTERM
# tini passes signals on as PID 1 and reaps ffmpeg's children.
ENTRYPOINT ["tini", "--"]
# Applies migrations, creates the first administrator if needed, then serves (scripts/start.ts as
# `npm run build` compiled it: no TypeScript loader in the server processes).
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=32", "build/server/start.js"]
