-- Issue 42: an erased note keeps its row (no IV, no ciphertext) so its version only moves forward;
-- a notebook says whether its recovery key was shown kept (those started before this count as kept).
ALTER TABLE "notes" ALTER COLUMN "iv" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notes" ALTER COLUMN "ciphertext" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notebooks" ADD COLUMN "recovery_kept" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_sealed_check" CHECK (("notes"."iv" IS NULL) = ("notes"."ciphertext" IS NULL));