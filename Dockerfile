# syntax=docker/dockerfile:1
# Paddock: one image for the aggregated API server and the reconciler (`--mode`).

# ---- build: compile TypeScript with the full toolchain (npm install keeps the locked versions) ----
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# ---- deps: production dependencies only ----
FROM node:24-bookworm-slim AS deps
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
RUN npm install --omit=dev --no-audit --no-fund

# ---- runtime: distroless Node.js, non-root, no shell, no package manager ----
FROM gcr.io/distroless/nodejs24-debian12:nonroot
WORKDIR /app
COPY --from=deps /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY package.json ./
USER 65532:65532
EXPOSE 8443
ENTRYPOINT ["/nodejs/bin/node", "dist/main.js"]
