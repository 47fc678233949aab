# One image for the API and the worker; docker-compose.yml picks the command.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# python3, make and g++ build better-sqlite3 from source when no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY api ./api
COPY workflows ./workflows
COPY activities ./activities
COPY worker ./worker
COPY core ./core
COPY infra ./infra
COPY widget ./widget
COPY console ./console
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates tini && rm -rf /var/lib/apt/lists/* \
  && useradd --system --create-home --uid 10001 quire && mkdir -p /data && chown quire /data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/infra ./infra
COPY package.json ./
USER quire
ENV NODE_ENV=production HOST=0.0.0.0 QUIRE_DATA_DIR=/data
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/api/server.js"]
