-- An operator's acknowledgement of a record loss: why, and how far the episode reached when acknowledged (an
-- episode the sampler extends past that offset is unacknowledged again).
ALTER TABLE "record_loss" ADD COLUMN "acknowledge_reason" TEXT,
ADD COLUMN "acknowledged_to_offset" BIGINT;
