# Tipcard's production image (docs/decisions/0037-container-image.md): the API server, the worker and the operators'
# commands as built JavaScript run by `node`, with production dependencies only, as a non-root user, on a read-only
# root file system. One image for every role; compose.yaml picks the command.
#
#   docker build -t tipcard .                                 # the official Node.js image
#   podman build --build-arg BASE_IMAGE=localhost/base -t tipcard .   # any Debian bookworm with node >= 20.19 and npm
ARG BASE_IMAGE=node:20-bookworm-slim

# ---- deps: every dependency the build needs (dev ones included), from the lock file only ----
FROM ${BASE_IMAGE} AS deps
WORKDIR /src
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
# The workspaces the image is built from; the root's and the e2e workspace's tools (lint, browsers) are not needed.
RUN npm ci -w @tipcard/shared -w @tipcard/api -w @tipcard/web

# ---- build: the web app (client and server renderer) and the API bundle (apps/api/scripts/build.ts) ----
FROM deps AS build
COPY tsconfig.base.json ./
COPY packages/shared packages/shared
COPY apps/api apps/api
COPY apps/web apps/web
RUN npm run build -w @tipcard/web && npm run build -w @tipcard/api

# ---- production dependencies: what `node apps/api/dist/*.js` and the web server renderer import at run time ----
FROM ${BASE_IMAGE} AS prod-deps
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --omit=dev -w @tipcard/shared -w @tipcard/api -w @tipcard/web && npm cache clean --force

# ---- runtime ----
FROM ${BASE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
# The image's files belong to root and are only read; the app user writes to /data (DATA_DIR: payout files, the
# embedded database when DATABASE_URL is unset) and /tmp, which compose mounts as volumes on a read-only root.
RUN groupadd --system --gid 10001 tipcard \
 && useradd --system --uid 10001 --gid tipcard --home-dir /data --no-create-home --shell /usr/sbin/nologin tipcard \
 && mkdir -p /data && chown tipcard:tipcard /data
COPY --from=prod-deps /app ./
COPY --from=build /src/apps/api/dist apps/api/dist
COPY --from=build /src/apps/web/dist apps/web/dist
COPY --from=build /src/apps/web/dist-server apps/web/dist-server
USER 10001:10001
VOLUME ["/data"]
EXPOSE 3000
# Liveness only (the process answers); readiness (/api/ready) is for the proxy and the orchestrator to route by.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "apps/api/dist/healthcheck.js"]
# Commands of the same image: apps/api/dist/worker.js, migrate.js, payouts.js, ops-create-admin.js, verification-review.js.
CMD ["node", "--enable-source-maps", "apps/api/dist/server.js"]
