# syntax=docker/dockerfile:1
# Multi-stage: build with dev dependencies, ship production dependencies only.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# postinstall patches a dependency (scripts/patch-dependencies.mjs).
COPY scripts/patch-dependencies.mjs ./scripts/
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/patch-dependencies.mjs ./scripts/
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --chown=node:node package.json mikro-orm.config.ts tsconfig.json ./
COPY --chown=node:node app ./app
COPY --chown=node:node scripts ./scripts
COPY --chown=node:node prisma-free-migrations ./prisma-free-migrations
COPY --chown=node:node public ./public
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# scripts/start.ts applies pending migrations, then serves the build
# (set DATABASE_URL; without it an embedded PostgreSQL starts in /app/.data).
CMD ["node_modules/.bin/tsx", "scripts/start.ts"]
