# syntax=docker/dockerfile:1
# Kallo as one container: the same steps CI proves (install, build, migrate, start).

FROM node:22-bookworm-slim AS deps
# better-sqlite3 and sharp fall back to building from source when no prebuilt binary fits.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Node's headers live under /usr/local in this image (the project .npmrc points at /usr for Debian's Node).
ENV npm_config_nodedir=/usr/local
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm install --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg fonts-dejavu-core tini ca-certificates \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=3000 \
    STORAGE_DIR=/app/storage \
    FFMPEG_PATH=/usr/bin/ffmpeg \
    FFPROBE_PATH=/usr/bin/ffprobe
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/.builds ./.builds
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/app ./app
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/package.json /app/tsconfig.json ./
RUN mkdir -p /app/storage && chown -R node:node /app/storage
USER node
VOLUME ["/app/storage"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# docker stop sends SIGTERM: requests under way get SHUTDOWN_GRACE_SECONDS (10) to finish, running
# media jobs go back in the queue, the database is closed, exit 0. tini passes the signal on as PID 1.
STOPSIGNAL SIGTERM
ENTRYPOINT ["tini", "--"]
# Applies migrations, creates the first administrator if needed, then serves (scripts/start.ts as
# `npm run build` compiled it: no TypeScript loader in the server processes).
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=32", "build/server/start.js"]
