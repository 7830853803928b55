-- CreateTable
CREATE TABLE "dashboard_session" (
    "id_hash" TEXT NOT NULL,
    "user_name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "credential_stamp" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "idle_expires_at" TIMESTAMPTZ(3) NOT NULL,
    "client_address" TEXT NOT NULL,
    "user_agent" TEXT NOT NULL,

    CONSTRAINT "dashboard_session_pkey" PRIMARY KEY ("id_hash")
);

-- CreateTable
CREATE TABLE "access_event" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "user_name" TEXT NOT NULL,
    "client_address" TEXT NOT NULL,
    "user_agent" TEXT NOT NULL,
    "detail" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "access_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "dashboard_session_user_name_idx" ON "dashboard_session"("user_name");

-- CreateIndex
CREATE INDEX "dashboard_session_expires_at_idx" ON "dashboard_session"("expires_at");

-- CreateIndex
CREATE INDEX "access_event_at_idx" ON "access_event"("at");

-- CreateIndex
CREATE INDEX "access_event_kind_at_idx" ON "access_event"("kind", "at");
