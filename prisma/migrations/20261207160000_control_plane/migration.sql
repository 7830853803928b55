-- AlterTable
ALTER TABLE "operator_action" ADD COLUMN     "command_id" UUID NOT NULL DEFAULT gen_random_uuid(),
ADD COLUMN     "expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "relayed_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "partition_quarantine" ADD COLUMN     "held_by" TEXT;

-- AlterTable
ALTER TABLE "rebalance_event" ADD COLUMN     "reported_by" TEXT;

-- CreateTable
CREATE TABLE "consumer_instance" (
    "cluster" TEXT NOT NULL,
    "group_id" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "package_version" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "reported_at" TIMESTAMPTZ(3) NOT NULL,
    "state_interval_ms" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "ready" BOOLEAN NOT NULL,
    "readiness_detail" TEXT NOT NULL,
    "assignment" JSONB NOT NULL,
    "refused_commands" INTEGER NOT NULL DEFAULT 0,
    "last_refusal" TEXT,

    CONSTRAINT "consumer_instance_pkey" PRIMARY KEY ("cluster","group_id","instance_id")
);

-- CreateIndex
CREATE INDEX "consumer_instance_reported_at_idx" ON "consumer_instance"("reported_at");

-- CreateIndex
CREATE UNIQUE INDEX "operator_action_command_id_key" ON "operator_action"("command_id");

-- CreateIndex
CREATE INDEX "operator_action_status_relayed_at_idx" ON "operator_action"("status", "relayed_at");

-- CreateIndex
CREATE UNIQUE INDEX "rebalance_event_cluster_group_id_reported_by_started_at_key" ON "rebalance_event"("cluster", "group_id", "reported_by", "started_at");
