-- AlterTable
ALTER TABLE "stored_document" ADD COLUMN     "first_store_seq" BIGSERIAL NOT NULL;
