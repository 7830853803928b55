-- CreateTable
CREATE TABLE "advice_prediction" (
    "id" BIGSERIAL NOT NULL,
    "group_id" TEXT NOT NULL,
    "predicted_at" TIMESTAMPTZ(3) NOT NULL,
    "consumers_then" INTEGER NOT NULL,
    "predicted_consumers" INTEGER NOT NULL,
    "predicted_catch_up_sec" DOUBLE PRECISION,
    "backlog" BIGINT NOT NULL,
    "threshold_lag" BIGINT NOT NULL,
    "caught_up_at" TIMESTAMPTZ(3),
    "plan_followed" BOOLEAN,

    CONSTRAINT "advice_prediction_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "advice_prediction_group_id_predicted_at_key" ON "advice_prediction"("group_id", "predicted_at");
