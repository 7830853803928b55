-- The overview's stored rows (lib/server/stored-group-summaries.ts), written by the worker's evaluation.
CREATE TABLE "group_summary" (
    "cluster" TEXT NOT NULL,
    "group_id" TEXT NOT NULL,
    "sampled_at" TIMESTAMPTZ(3) NOT NULL,
    "status" TEXT NOT NULL,
    "status_rank" INTEGER NOT NULL,
    "worst_time_lag_ms" DOUBLE PRECISION NOT NULL,
    "total_lag" DOUBLE PRECISION NOT NULL,
    "quarantined_partitions" INTEGER NOT NULL,
    "last_rebalance_at" TIMESTAMPTZ(3),
    "summary" JSONB NOT NULL,

    CONSTRAINT "group_summary_pkey" PRIMARY KEY ("cluster","group_id")
);

CREATE TABLE "group_summary_round" (
    "cluster" TEXT NOT NULL,
    "evaluated_at" TIMESTAMPTZ(3) NOT NULL,
    "summarized_at" TIMESTAMPTZ(3) NOT NULL,
    "groups" INTEGER NOT NULL,

    CONSTRAINT "group_summary_round_pkey" PRIMARY KEY ("cluster")
);
