-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "lag_sample" (
    "id" BIGSERIAL NOT NULL,
    "sampled_at" TIMESTAMPTZ(3) NOT NULL,
    "group_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "partition" INTEGER NOT NULL,
    "committed_offset" BIGINT,
    "log_start_offset" BIGINT NOT NULL,
    "log_end_offset" BIGINT NOT NULL,
    "lag" BIGINT,
    "group_state" TEXT NOT NULL,
    "member_client_id" TEXT,
    "member_host" TEXT,

    CONSTRAINT "lag_sample_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stored_document" (
    "business_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "source_topic" TEXT NOT NULL,
    "source_partition" INTEGER NOT NULL,
    "source_offset" BIGINT NOT NULL,
    "write_count" INTEGER NOT NULL DEFAULT 1,
    "first_stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stored_document_pkey" PRIMARY KEY ("business_id")
);

-- CreateTable
CREATE TABLE "partition_quarantine" (
    "group_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "partition" INTEGER NOT NULL,
    "offset" BIGINT NOT NULL,
    "reason" TEXT NOT NULL,
    "error_class" TEXT NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL,
    "record_key" TEXT,
    "record_preview" TEXT,
    "record_headers" JSONB NOT NULL,
    "record_timestamp" TIMESTAMPTZ(3),

    CONSTRAINT "partition_quarantine_pkey" PRIMARY KEY ("group_id","topic","partition")
);

-- CreateIndex
CREATE INDEX "lag_sample_group_id_sampled_at_idx" ON "lag_sample"("group_id", "sampled_at");

-- CreateIndex
CREATE INDEX "lag_sample_sampled_at_idx" ON "lag_sample"("sampled_at");
