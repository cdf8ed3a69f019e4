# syntax=docker/dockerfile:1
# Bastion AI security gateway. Build: docker build -t bastion:7.9.0 .
# Both stages use the same Node/Debian base so the native addons (better-sqlite3, re2) compiled in the
# build stage match the runtime's glibc and Node ABI exactly.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS deps
# node-gyp toolchain: only needed when no prebuilt binary matches, and it never reaches the runtime image.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; esbuild compiles src/ in the runtime stage, tsx runs the sources if dist/ is stale.
# onnxruntime-node's installer would fetch a CUDA provider from outside the npm registry (its CPU runtime ships in the
# package): the image's npm 10 does not read package.json's allowScripts, so the installer is told to skip.
ENV ONNXRUNTIME_NODE_INSTALL=skip
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    BASTION_HOST=0.0.0.0
# A fixed numeric uid lets Kubernetes verify runAsNonRoot without reading /etc/passwd.
RUN groupadd --system --gid 10001 bastion \
 && useradd --system --uid 10001 --gid 10001 --home-dir /app --no-create-home --shell /usr/sbin/nologin bastion
WORKDIR /app
# Application files stay root-owned and read-only to the service user; only /app/data is writable.
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY config ./config
# The site pages render the repository's own README and docs (src/site/pages.ts).
COPY README.md ./
COPY docs ./docs
# The semantic and hyperbolic layers import their trained weights from models/ at start-up.
COPY models ./models
# Compiled once, here: no TypeScript loader in the server or its inspection threads (~40 MB less RSS per thread).
# dist/BUILD fingerprints src/, so bin/bastion.js would fall back to the sources rather than run a stale build.
RUN node bin/build.js
RUN mkdir -p /app/data && chown 10001:10001 /app/data
# Default DATABASE_URL is sqlite:./data/bastion.db, i.e. this directory.
VOLUME ["/app/data"]
USER 10001:10001
# 8080 data plane (/filter, /v1/*), 8081 admin API. Keep 8081 off any public Service.
EXPOSE 8080 8081
# Kubernetes uses its own probes; this helps plain `docker run`. fetch is built into Node 20, no curl needed.
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.BASTION_PORT||8080)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# glibc gives each thread that allocates its own malloc arena (up to 8 per core); the inspection threads and V8's
# helpers then hold ~15-20 MB of freed native memory between them. Two arenas keep it near the live size with no
# measurable throughput cost (docs/MEASUREMENTS.md, Memory).
ENV MALLOC_ARENA_MAX=2
# Exec form: node is PID 1 and receives SIGTERM itself, so in-flight requests drain (BASTION_SHUTDOWN_GRACE_MS).
STOPSIGNAL SIGTERM
CMD ["node", "bin/bastion.js", "serve"]
