-- CreateTable
CREATE TABLE "alert" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "condition" TEXT NOT NULL,
    "group_id" TEXT,
    "phase" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "active_since" TIMESTAMPTZ(3) NOT NULL,
    "firing_since" TIMESTAMPTZ(3),
    "resolved_at" TIMESTAMPTZ(3),
    "last_notified_at" TIMESTAMPTZ(3),
    "notification_count" INTEGER NOT NULL DEFAULT 0,
    "acknowledged_by" TEXT,
    "acknowledged_at" TIMESTAMPTZ(3),
    "summary" TEXT NOT NULL,
    "reasons" JSONB NOT NULL,
    "worst_time_lag" JSONB,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "alert_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_notification" (
    "id" BIGSERIAL NOT NULL,
    "alert_id" TEXT NOT NULL,
    "dedupe_key" TEXT NOT NULL,
    "receiver" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "silence_id" BIGINT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "delivered_at" TIMESTAMPTZ(3),
    "last_error" TEXT,

    CONSTRAINT "alert_notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_delivery" (
    "id" BIGSERIAL NOT NULL,
    "notification_id" BIGINT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "outcome" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,

    CONSTRAINT "alert_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_silence" (
    "id" BIGSERIAL NOT NULL,
    "group_id" TEXT,
    "condition" TEXT,
    "reason" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "alert_silence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_acknowledgement" (
    "id" BIGSERIAL NOT NULL,
    "alert_id" TEXT NOT NULL,
    "by" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "comment" TEXT,

    CONSTRAINT "alert_acknowledgement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "worker_heartbeat" (
    "instance_id" TEXT NOT NULL,
    "group_id" TEXT NOT NULL,
    "ready" BOOLEAN NOT NULL,
    "detail" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "reported_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "worker_heartbeat_pkey" PRIMARY KEY ("instance_id")
);

-- CreateIndex
CREATE INDEX "alert_phase_idx" ON "alert"("phase");

-- CreateIndex
CREATE INDEX "alert_group_id_active_since_idx" ON "alert"("group_id", "active_since");

-- CreateIndex
CREATE INDEX "alert_active_since_idx" ON "alert"("active_since");

-- CreateIndex
CREATE INDEX "alert_notification_status_next_attempt_at_idx" ON "alert_notification"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "alert_notification_alert_id_idx" ON "alert_notification"("alert_id");

-- CreateIndex
CREATE UNIQUE INDEX "alert_notification_dedupe_key_receiver_key" ON "alert_notification"("dedupe_key", "receiver");

-- CreateIndex
CREATE INDEX "alert_delivery_notification_id_idx" ON "alert_delivery"("notification_id");

-- CreateIndex
CREATE INDEX "alert_silence_ends_at_idx" ON "alert_silence"("ends_at");

-- CreateIndex
CREATE INDEX "alert_acknowledgement_alert_id_idx" ON "alert_acknowledgement"("alert_id");

-- CreateIndex
CREATE INDEX "worker_heartbeat_group_id_idx" ON "worker_heartbeat"("group_id");

-- AddForeignKey
ALTER TABLE "alert_notification" ADD CONSTRAINT "alert_notification_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "alert"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_delivery" ADD CONSTRAINT "alert_delivery_notification_id_fkey" FOREIGN KEY ("notification_id") REFERENCES "alert_notification"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- At most one open (pending or firing) alert per condition and group: two evaluations that race can never
-- open the same alert twice.
CREATE UNIQUE INDEX "alert_open_key" ON "alert"("key") WHERE "phase" IN ('pending', 'firing');
