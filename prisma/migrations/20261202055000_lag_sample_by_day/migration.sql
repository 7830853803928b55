-- lag_sample becomes a table partitioned by day on sampled_at, so raw retention drops whole days instead of
-- deleting rows (worker/sampler/sample-partitions.ts creates the days ahead and drops the expired ones). The
-- surrogate id goes: the key is the sample's own identity, and the (group, topic, partition, time) index it
-- replaced is that key. The sampled_at btree becomes a BRIN index (rows arrive in time order). Rows of a day
-- without its own partition land in lag_sample_default.
-- `cluster` is added when an earlier migration has not added it yet, and is part of the key.

ALTER TABLE "lag_sample" ADD COLUMN IF NOT EXISTS "cluster" TEXT NOT NULL DEFAULT 'default';

CREATE TABLE "lag_sample_by_day" (
    "cluster" TEXT NOT NULL DEFAULT 'default',
    "sampled_at" TIMESTAMPTZ(3) NOT NULL,
    "group_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "partition" INTEGER NOT NULL,
    "committed_offset" BIGINT,
    "log_start_offset" BIGINT NOT NULL,
    "log_end_offset" BIGINT NOT NULL,
    "lag" BIGINT,
    "group_state" TEXT NOT NULL,
    "member_id" TEXT,
    "member_client_id" TEXT,
    "member_host" TEXT,
    "group_protocol" TEXT,
    "time_lag_ms" BIGINT,
    "time_lag_kind" TEXT,
    "exact_time_lag_ms" BIGINT,
    "arrival_rate_per_sec" DOUBLE PRECISION,
    "consumption_rate_per_sec" DOUBLE PRECISION,
    CONSTRAINT "lag_sample_by_day_pkey" PRIMARY KEY ("group_id", "topic", "partition", "sampled_at", "cluster")
) PARTITION BY RANGE ("sampled_at");

CREATE INDEX "lag_sample_by_day_group_idx" ON "lag_sample_by_day"("group_id", "sampled_at");
CREATE INDEX "lag_sample_by_day_sampled_at_brin" ON "lag_sample_by_day" USING BRIN ("sampled_at");

CREATE TABLE "lag_sample_default" PARTITION OF "lag_sample_by_day" DEFAULT;

-- The existing rows go to the default partition, and the sampler's next maintenance creates the days of the raw
-- retention and moves their rows into them (worker/sampler/sample-partitions.ts). A duplicate key is kept once.
-- (No DO block and no semicolon in a comment: the migration runner splits statements on semicolons.)
INSERT INTO "lag_sample_by_day" (
    "cluster", "sampled_at", "group_id", "topic", "partition", "committed_offset", "log_start_offset", "log_end_offset",
    "lag", "group_state", "member_id", "member_client_id", "member_host", "group_protocol", "time_lag_ms",
    "time_lag_kind", "exact_time_lag_ms", "arrival_rate_per_sec", "consumption_rate_per_sec")
SELECT "cluster", "sampled_at", "group_id", "topic", "partition", "committed_offset", "log_start_offset", "log_end_offset",
    "lag", "group_state", "member_id", "member_client_id", "member_host", "group_protocol", "time_lag_ms",
    "time_lag_kind", "exact_time_lag_ms", "arrival_rate_per_sec", "consumption_rate_per_sec"
FROM "lag_sample"
ON CONFLICT DO NOTHING;

DROP TABLE "lag_sample";
ALTER TABLE "lag_sample_by_day" RENAME TO "lag_sample";
