-- The overview's row of a group (lib/server/group-summaries.ts), sorted, filtered and paged in SQL.
-- CreateTable
CREATE TABLE "group_summary" (
    "cluster" TEXT NOT NULL,
    "group_id" TEXT NOT NULL,
    "sampled_at" TIMESTAMPTZ(3) NOT NULL,
    "analysis_key" TEXT NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,
    "status" TEXT NOT NULL,
    "status_rank" INTEGER NOT NULL,
    "worst_time_lag_ms" DOUBLE PRECISION NOT NULL,
    "total_lag" DOUBLE PRECISION NOT NULL,
    "quarantined_partitions" INTEGER NOT NULL,
    "last_rebalance_at" TIMESTAMPTZ(3),
    "summary" JSONB NOT NULL,

    CONSTRAINT "group_summary_pkey" PRIMARY KEY ("cluster","group_id")
);

-- CreateIndex
CREATE INDEX "group_summary_sampled_at_idx" ON "group_summary"("sampled_at");
