-- AlterTable
ALTER TABLE "lag_sample" ADD COLUMN     "member_id" TEXT;

-- CreateIndex
CREATE INDEX "rebalance_event_group_id_ended_at_idx" ON "rebalance_event"("group_id", "ended_at");

-- CreateIndex
CREATE INDEX "rebalance_event_ended_at_idx" ON "rebalance_event"("ended_at");
