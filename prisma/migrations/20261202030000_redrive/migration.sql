-- CreateTable
CREATE TABLE "redrive_job" (
    "id" BIGSERIAL NOT NULL,
    "cluster" TEXT NOT NULL DEFAULT 'default',
    "dlq_topic" TEXT NOT NULL,
    "selection" JSONB NOT NULL,
    "end_offsets" JSONB NOT NULL,
    "target_topic" TEXT,
    "reason" TEXT NOT NULL,
    "requested_by" TEXT NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "force" BOOLEAN NOT NULL DEFAULT false,
    "rate_per_sec" DOUBLE PRECISION NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "total" INTEGER NOT NULL,
    "sent" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "position" JSONB NOT NULL DEFAULT '{}',
    "outcome" TEXT,
    "executed_by" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "redrive_job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "redriven_record" (
    "cluster" TEXT NOT NULL DEFAULT 'default',
    "job_id" BIGINT NOT NULL,
    "dlq_topic" TEXT NOT NULL,
    "dlq_partition" INTEGER NOT NULL,
    "dlq_offset" BIGINT NOT NULL,
    "target_topic" TEXT NOT NULL,
    "target_partition" INTEGER NOT NULL,
    "search_from" BIGINT NOT NULL,
    "state" TEXT NOT NULL,
    "target_offset" BIGINT,
    "redriven_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "redriven_record_pkey" PRIMARY KEY ("job_id","dlq_topic","dlq_partition","dlq_offset")
);

-- CreateIndex
CREATE INDEX "redrive_job_status_idx" ON "redrive_job"("status");

-- CreateIndex
CREATE INDEX "redrive_job_requested_at_idx" ON "redrive_job"("requested_at");

-- CreateIndex
CREATE INDEX "redriven_record_cluster_dlq_topic_dlq_partition_dlq_offset_idx" ON "redriven_record"("cluster", "dlq_topic", "dlq_partition", "dlq_offset");

-- AddForeignKey
ALTER TABLE "redriven_record" ADD CONSTRAINT "redriven_record_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "redrive_job"("id") ON DELETE CASCADE ON UPDATE CASCADE;
