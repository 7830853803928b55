-- AlterTable
ALTER TABLE "operator_action" ADD COLUMN     "quarantine_offset" BIGINT;
