-- AlterTable
ALTER TABLE "partition_quarantine" ADD COLUMN     "held_since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "failures" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "resumed_at" TIMESTAMPTZ(3),
ADD COLUMN     "resume_action_id" BIGINT;

-- Existing holds began at their stored time.
UPDATE "partition_quarantine" SET "held_since" = "since";

-- CreateIndex
CREATE INDEX "operator_action_group_id_topic_partition_quarantine_offset_idx" ON "operator_action"("group_id", "topic", "partition", "quarantine_offset");
