-- Every row of a watched cluster carries its name (lib/kafka/cluster-settings.ts), rows from before are 'default'.
-- DropIndex
DROP INDEX "advice_prediction_group_id_predicted_at_key";

-- DropIndex
DROP INDEX "alert_group_id_active_since_idx";

-- DropIndex
DROP INDEX "commit_observation_group_id_topic_partition_committed_at_idx";

-- DropIndex
DROP INDEX "commit_observation_source_partition_source_offset_key";

-- DropIndex
DROP INDEX "lag_rollup_group_id_bucket_idx";

-- DropIndex
DROP INDEX "lag_rollup_10m_group_id_bucket_idx";

-- DropIndex
DROP INDEX "lag_sample_group_id_sampled_at_idx";

-- DropIndex
DROP INDEX "lag_sample_group_id_topic_partition_sampled_at_idx";

-- DropIndex
DROP INDEX "log_end_point_topic_partition_at_idx";

-- DropIndex
DROP INDEX "operator_action_group_id_topic_partition_quarantine_offset_idx";

-- DropIndex
DROP INDEX "operator_action_status_group_id_idx";

-- DropIndex
DROP INDEX "rebalance_event_group_id_ended_at_idx";

-- DropIndex
DROP INDEX "rebalance_event_group_id_started_at_idx";

-- AlterTable
ALTER TABLE "advice_prediction" ADD COLUMN     "cluster" TEXT NOT NULL DEFAULT 'default';

-- AlterTable
ALTER TABLE "alert" ADD COLUMN     "cluster" TEXT NOT NULL DEFAULT 'default';

-- AlterTable
ALTER TABLE "alert_silence" ADD COLUMN     "cluster" TEXT NOT NULL DEFAULT 'default';

-- AlterTable
ALTER TABLE "commit_observation" ADD COLUMN     "cluster" TEXT NOT NULL DEFAULT 'default';

-- AlterTable
ALTER TABLE "consumer_partition_state" DROP CONSTRAINT "consumer_partition_state_pkey",
ADD COLUMN     "cluster" TEXT NOT NULL DEFAULT 'default',
ADD CONSTRAINT "consumer_partition_state_pkey" PRIMARY KEY ("cluster", "group_id", "topic", "partition");

-- AlterTable
ALTER TABLE "lag_rollup" DROP CONSTRAINT "lag_rollup_pkey",
ADD COLUMN     "cluster" TEXT NOT NULL DEFAULT 'default',
ADD CONSTRAINT "lag_rollup_pkey" PRIMARY KEY ("cluster", "group_id", "topic", "partition", "bucket");

-- AlterTable
ALTER TABLE "lag_rollup_10m" DROP CONSTRAINT "lag_rollup_10m_pkey",
ADD COLUMN     "cluster" TEXT NOT NULL DEFAULT 'default',
ADD CONSTRAINT "lag_rollup_10m_pkey" PRIMARY KEY ("cluster", "group_id", "topic", "partition", "bucket");

-- AlterTable
ALTER TABLE "lag_sample" ADD COLUMN     "cluster" TEXT NOT NULL DEFAULT 'default';

-- AlterTable
ALTER TABLE "log_end_point" ADD COLUMN     "cluster" TEXT NOT NULL DEFAULT 'default';

-- AlterTable
ALTER TABLE "operator_action" ADD COLUMN     "cluster" TEXT NOT NULL DEFAULT 'default';

-- AlterTable
ALTER TABLE "partition_quarantine" DROP CONSTRAINT "partition_quarantine_pkey",
ADD COLUMN     "cluster" TEXT NOT NULL DEFAULT 'default',
ADD CONSTRAINT "partition_quarantine_pkey" PRIMARY KEY ("cluster", "group_id", "topic", "partition");

-- AlterTable
ALTER TABLE "rebalance_event" ADD COLUMN     "cluster" TEXT NOT NULL DEFAULT 'default';

-- AlterTable
ALTER TABLE "sampler_gap" ADD COLUMN     "cluster" TEXT NOT NULL DEFAULT 'default';

-- CreateIndex
CREATE UNIQUE INDEX "advice_prediction_cluster_group_id_predicted_at_key" ON "advice_prediction"("cluster", "group_id", "predicted_at");

-- CreateIndex
CREATE INDEX "alert_cluster_group_id_active_since_idx" ON "alert"("cluster", "group_id", "active_since");

-- CreateIndex
CREATE INDEX "commit_observation_cluster_group_id_topic_partition_committ_idx" ON "commit_observation"("cluster", "group_id", "topic", "partition", "committed_at");

-- CreateIndex
CREATE UNIQUE INDEX "commit_observation_cluster_source_partition_source_offset_key" ON "commit_observation"("cluster", "source_partition", "source_offset");

-- CreateIndex
CREATE INDEX "lag_rollup_cluster_group_id_bucket_idx" ON "lag_rollup"("cluster", "group_id", "bucket");

-- CreateIndex
CREATE INDEX "lag_rollup_10m_cluster_group_id_bucket_idx" ON "lag_rollup_10m"("cluster", "group_id", "bucket");

-- CreateIndex
CREATE INDEX "lag_sample_cluster_group_id_sampled_at_idx" ON "lag_sample"("cluster", "group_id", "sampled_at");

-- CreateIndex
CREATE INDEX "lag_sample_cluster_group_id_topic_partition_sampled_at_idx" ON "lag_sample"("cluster", "group_id", "topic", "partition", "sampled_at");

-- CreateIndex
CREATE INDEX "log_end_point_cluster_topic_partition_at_idx" ON "log_end_point"("cluster", "topic", "partition", "at");

-- CreateIndex
CREATE INDEX "operator_action_status_cluster_group_id_idx" ON "operator_action"("status", "cluster", "group_id");

-- CreateIndex
CREATE INDEX "operator_action_cluster_group_id_topic_partition_quarantine_idx" ON "operator_action"("cluster", "group_id", "topic", "partition", "quarantine_offset");

-- CreateIndex
CREATE INDEX "rebalance_event_cluster_group_id_started_at_idx" ON "rebalance_event"("cluster", "group_id", "started_at");

-- CreateIndex
CREATE INDEX "rebalance_event_cluster_group_id_ended_at_idx" ON "rebalance_event"("cluster", "group_id", "ended_at");

-- CreateIndex
CREATE INDEX "sampler_gap_cluster_started_at_idx" ON "sampler_gap"("cluster", "started_at");

-- At most one open alert per cluster and key (the key names the condition and group, not the cluster).
DROP INDEX "alert_open_key";
CREATE UNIQUE INDEX "alert_open_key" ON "alert"("cluster", "key") WHERE "phase" IN ('pending', 'firing');
