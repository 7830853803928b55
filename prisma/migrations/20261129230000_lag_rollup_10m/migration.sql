-- CreateTable
CREATE TABLE "lag_rollup_10m" (
    "group_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "partition" INTEGER NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "last_minute" TIMESTAMPTZ(3) NOT NULL,
    "max_lag" BIGINT,
    "avg_lag" DOUBLE PRECISION,
    "max_time_lag_ms" BIGINT,
    "last_committed" BIGINT,
    "last_log_end" BIGINT NOT NULL,
    "samples" INTEGER NOT NULL,

    CONSTRAINT "lag_rollup_10m_pkey" PRIMARY KEY ("group_id","topic","partition","bucket")
);

-- CreateIndex
CREATE INDEX "lag_rollup_10m_group_id_bucket_idx" ON "lag_rollup_10m"("group_id", "bucket");

-- CreateIndex
CREATE INDEX "lag_rollup_10m_bucket_idx" ON "lag_rollup_10m"("bucket");

-- CreateIndex
CREATE INDEX "lag_rollup_group_id_bucket_idx" ON "lag_rollup"("group_id", "bucket");


-- Backfill: the ten-minute rollups of the one-minute rollups already kept (as worker/sampler/retention.ts
-- rollUpTenMinutes computes them), so long chart ranges read the new table at once.
INSERT INTO "lag_rollup_10m" ("group_id", "topic", "partition", "bucket", "last_minute", "max_lag", "avg_lag", "max_time_lag_ms", "last_committed", "last_log_end", "samples")
SELECT "group_id", "topic", "partition",
       date_bin('10 minutes', "bucket", TIMESTAMPTZ '1970-01-01 00:00:00+00'),
       max("bucket"),
       max("max_lag"),
       (sum("avg_lag" * "samples") / NULLIF(sum("samples") FILTER (WHERE "avg_lag" IS NOT NULL), 0))::float8,
       max("max_time_lag_ms"),
       (array_agg("last_committed" ORDER BY "bucket" DESC))[1],
       (array_agg("last_log_end" ORDER BY "bucket" DESC))[1],
       sum("samples")::int
FROM "lag_rollup"
GROUP BY 1, 2, 3, 4;
