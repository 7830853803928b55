-- AlterTable
ALTER TABLE "lag_sample" ADD COLUMN     "arrival_rate_per_sec" DOUBLE PRECISION,
ADD COLUMN     "consumption_rate_per_sec" DOUBLE PRECISION,
ADD COLUMN     "exact_time_lag_ms" BIGINT,
ADD COLUMN     "group_protocol" TEXT,
ADD COLUMN     "time_lag_kind" TEXT,
ADD COLUMN     "time_lag_ms" BIGINT;

-- CreateTable
CREATE TABLE "log_end_point" (
    "id" BIGSERIAL NOT NULL,
    "topic" TEXT NOT NULL,
    "partition" INTEGER NOT NULL,
    "offset" BIGINT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "log_end_point_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lag_rollup" (
    "group_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "partition" INTEGER NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "max_lag" BIGINT,
    "avg_lag" DOUBLE PRECISION,
    "max_time_lag_ms" BIGINT,
    "last_committed" BIGINT,
    "last_log_end" BIGINT NOT NULL,
    "samples" INTEGER NOT NULL,

    CONSTRAINT "lag_rollup_pkey" PRIMARY KEY ("group_id","topic","partition","bucket")
);

-- CreateTable
CREATE TABLE "consumer_partition_state" (
    "group_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "partition" INTEGER NOT NULL,
    "instance_id" TEXT NOT NULL,
    "sampled_at" TIMESTAMPTZ(3) NOT NULL,
    "watermark" BIGINT,
    "highest_completed" BIGINT,
    "in_flight" INTEGER NOT NULL,
    "completed_uncommitted" INTEGER NOT NULL,
    "buffered" INTEGER NOT NULL,
    "buffered_bytes" INTEGER NOT NULL,
    "oldest_unfinished_offset" BIGINT,
    "oldest_unfinished_age_ms" INTEGER,
    "paused" BOOLEAN NOT NULL,

    CONSTRAINT "consumer_partition_state_pkey" PRIMARY KEY ("group_id","topic","partition")
);

-- CreateTable
CREATE TABLE "rebalance_event" (
    "id" BIGSERIAL NOT NULL,
    "group_id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "duration_ms" INTEGER,
    "duration_is_bound" BOOLEAN NOT NULL DEFAULT false,
    "members_before" JSONB NOT NULL,
    "members_after" JSONB NOT NULL,
    "partitions_moved" INTEGER NOT NULL DEFAULT 0,
    "trigger" TEXT NOT NULL,

    CONSTRAINT "rebalance_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operator_action" (
    "id" BIGSERIAL NOT NULL,
    "group_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "partition" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "seek_offset" BIGINT,
    "seek_timestamp" TIMESTAMPTZ(3),
    "reason" TEXT NOT NULL,
    "requested_by" TEXT NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "outcome" TEXT,
    "executed_by" TEXT,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "operator_action_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "log_end_point_topic_partition_at_idx" ON "log_end_point"("topic", "partition", "at");

-- CreateIndex
CREATE INDEX "lag_rollup_bucket_idx" ON "lag_rollup"("bucket");

-- CreateIndex
CREATE INDEX "rebalance_event_group_id_started_at_idx" ON "rebalance_event"("group_id", "started_at");

-- CreateIndex
CREATE INDEX "rebalance_event_started_at_idx" ON "rebalance_event"("started_at");

-- CreateIndex
CREATE INDEX "operator_action_status_group_id_idx" ON "operator_action"("status", "group_id");

-- CreateIndex
CREATE INDEX "operator_action_requested_at_idx" ON "operator_action"("requested_at");

-- CreateIndex
CREATE INDEX "lag_sample_group_id_topic_partition_sampled_at_idx" ON "lag_sample"("group_id", "topic", "partition", "sampled_at");
