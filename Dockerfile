# syntax=docker/dockerfile:1
# Multi-stage: build with dev dependencies, ship production dependencies and JavaScript only
# (no TypeScript runner, no sources, no tests). See docs/operations-several-instances.md.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# postinstall patches a dependency (scripts/patch-dependencies.mjs).
COPY scripts/patch-dependencies.mjs ./scripts/
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
# The Remix build (build/server, build/client), then start/migrate/user-admin and the
# migrations compiled to plain JavaScript (build/scripts, build/migrations).
RUN npm run build && npm run build:scripts

FROM node:20-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/patch-dependencies.mjs ./scripts/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
# Everything the app runs is owned by root and read-only for the app's user.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build/server ./build/server
COPY --from=build /app/build/client ./build/client
COPY --from=build /app/build/scripts ./build/scripts
# The migrator loads migrations from ./prisma-free-migrations: here the compiled ones only.
COPY --from=build /app/build/migrations ./prisma-free-migrations
COPY package.json ./
# DATA_DIR, empty: written to only by the embedded fallbacks (no DATABASE_URL, no S3_BUCKET, no SMTP,
# secrets not set). With everything configured (deploy/compose.yaml) nothing is written here.
RUN mkdir .data && chown node:node .data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s --start-period=60s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Applies pending migrations (one instance at a time: a PostgreSQL advisory lock), then serves the
# build with WEB_CONCURRENCY workers. Set DATABASE_URL; without it an embedded PostgreSQL starts in
# /app/.data (mount a volume there to keep it).
CMD ["node", "build/scripts/start.js"]
