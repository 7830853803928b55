-- CreateTable
CREATE TABLE "sampler_gap" (
    "id" BIGSERIAL NOT NULL,
    "instance_id" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "failed_rounds" INTEGER NOT NULL,
    "last_error" TEXT NOT NULL,

    CONSTRAINT "sampler_gap_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sampler_gap_started_at_idx" ON "sampler_gap"("started_at");
