# The Warden image: one image for the dashboard (default command) and the worker (`npm run worker`).
# Untested here (no Docker engine on the development machine); see docs/operating/deploy.md.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY . .
# postinstall runs `prisma generate` (offline, through the pg driver adapter); the build needs a syntactically
# valid DATABASE_URL only, it connects to nothing.
RUN DATABASE_URL=postgresql://build@127.0.0.1:5432/build npm ci \
 && DATABASE_URL=postgresql://build@127.0.0.1:5432/build npx next build
ENV NODE_ENV=production WORKER_HOST=0.0.0.0
EXPOSE 3000 9464
CMD ["npx", "next", "start", "--hostname", "0.0.0.0", "--port", "3000"]
