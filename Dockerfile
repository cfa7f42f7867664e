# syntax=docker/dockerfile:1
# A small production image in two stages (docs/deployment.md): build with dev dependencies, ship only
# the built files (the server bundle carries its packages, so there is no node_modules), run as the
# unprivileged `node` user under tini so SIGTERM reaches Node.

FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-slim
# tini is PID 1: it forwards signals to node and reaps zombies (`docker run --init` works too).
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
# glibc maps blocks of 128 KiB and more on their own and returns them when freed: the memory a
# burst of compressed pages took is given back (docs/deployment.md#compression-memory).
ENV NODE_ENV=production \
    PORT=3000 \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
# Owned by root and only readable by `node`: the process cannot rewrite its own code.
# package.json says the entry, main.js, is an ES module ("type": "module").
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/dist/client ./dist/client
COPY package.json ./
# The one folder the server may write, for an app that keeps files there (the example's SQLite
# database). Mount a volume here to keep it across containers.
RUN install -d -o node -g node data
# Node's compile cache for the server bundle, made by this image's own Node (the build stage's may
# be another 24.x, whose cache Node would not use): fill-compile-cache.js has Node compile the
# bundle, without running any of it, and writes what Node compiled (docs/deployment.md#compile-cache). Node keeps a cache per user id, so
# it is filled as `node`, the user that runs the server, in a folder made for that run; then root
# takes it, like the code it belongs to, and the server only reads it. A bundle that fails to
# load stops the image build here.
RUN rm -rf dist/server/compile-cache && install -d -o node -g node dist/server/compile-cache
USER node
RUN node dist/server/fill-compile-cache.js
USER root
RUN chown -R root:root dist/server/compile-cache && chmod -R a+rX,go-w dist/server/compile-cache
USER node
EXPOSE 3000
# Node itself probes /healthz: no curl in the image.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server/main.js"]
