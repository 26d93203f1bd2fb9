ALTER TABLE "cache_purges" ADD COLUMN "done_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cache_purges" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "cache_purges" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "cache_purges" ADD COLUMN "last_error" text;--> statement-breakpoint
-- Every purge is a job from now on (issue 21: 3): a row is written before the purge is tried and
-- stays open (done_at null) until a purge of its tags succeeds. The rows written so far were the
-- local host's record of purges it had already made: done when written.
UPDATE "cache_purges" SET "done_at" = "created_at", "attempts" = 1;--> statement-breakpoint
CREATE INDEX "cache_purges_open_idx" ON "cache_purges" USING btree ("next_attempt_at") WHERE "cache_purges"."done_at" IS NULL;
