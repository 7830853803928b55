-- CreateTable
CREATE TABLE "commit_observation" (
    "id" BIGSERIAL NOT NULL,
    "group_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "partition" INTEGER NOT NULL,
    "committed_offset" BIGINT NOT NULL,
    "committed_at" TIMESTAMPTZ(3) NOT NULL,
    "source_partition" INTEGER NOT NULL,
    "source_offset" BIGINT NOT NULL,

    CONSTRAINT "commit_observation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "commit_observation_group_id_topic_partition_committed_at_idx" ON "commit_observation"("group_id", "topic", "partition", "committed_at");

-- CreateIndex
CREATE UNIQUE INDEX "commit_observation_source_partition_source_offset_key" ON "commit_observation"("source_partition", "source_offset");
