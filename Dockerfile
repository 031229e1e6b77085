# Red River Referrals: the production server in one node process.
#   docker build -t red-river-referrals .
#   docker run -d -p 3000:3000 -v referrals-data:/data \
#     -e SESSION_SECRET=... -e APP_URL=https://redriverreferrals.com red-river-referrals
# See docs/operator-guide.md ("Docker") for every variable.

# Build stage: every dependency, the build, then the development ones removed.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

# Run stage: production dependencies, the build, and the sources the operator commands
# (npm run staff, import:agents) run from. The build is newer than every source copied,
# so `npm start`'s freshness check never rebuilds here (it could not: Vite is not installed).
FROM node:20-slim
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/app ./app
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/build ./build
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The same entry as `npm start`, run as PID 1 without npm: `docker stop`'s SIGTERM reaches
# the server, which finishes requests in flight and exits within 10 s.
CMD ["node", "scripts/start.mjs"]
