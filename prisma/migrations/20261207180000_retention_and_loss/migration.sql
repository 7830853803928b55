-- CreateTable
CREATE TABLE "topic_retention" (
    "cluster" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "cleanup_policy" TEXT,
    "retention_ms" BIGINT,
    "retention_bytes" BIGINT,
    "segment_ms" BIGINT,
    "segment_bytes" BIGINT,
    "check_interval_ms" BIGINT,
    "read_error" TEXT,
    "record_bytes" DOUBLE PRECISION,
    "read_at" TIMESTAMPTZ(3) NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "topic_retention_pkey" PRIMARY KEY ("cluster","topic")
);

-- CreateTable
CREATE TABLE "record_loss" (
    "id" BIGSERIAL NOT NULL,
    "cluster" TEXT NOT NULL,
    "group_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "partition" INTEGER NOT NULL,
    "from_offset" BIGINT NOT NULL,
    "to_offset" BIGINT NOT NULL,
    "count" BIGINT NOT NULL,
    "basis" TEXT NOT NULL,
    "detected_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "acknowledged_at" TIMESTAMPTZ(3),
    "acknowledged_by" TEXT,

    CONSTRAINT "record_loss_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "record_loss_cluster_group_id_detected_at_idx" ON "record_loss"("cluster", "group_id", "detected_at");

-- CreateIndex
CREATE INDEX "record_loss_acknowledged_at_idx" ON "record_loss"("acknowledged_at");
