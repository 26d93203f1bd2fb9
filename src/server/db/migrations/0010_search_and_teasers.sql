ALTER TABLE "chapters" ADD COLUMN "teaser" text;--> statement-breakpoint
CREATE INDEX "chapters_search_idx" ON "chapters" USING gin (to_tsvector('english', "title" || ' ' || "content"));--> statement-breakpoint
CREATE INDEX "subsections_search_idx" ON "subsections" USING gin (to_tsvector('english', "title" || ' ' || "content"));--> statement-breakpoint
ALTER TABLE "chapters" ADD CONSTRAINT "chapters_teaser_length_check" CHECK (char_length("chapters"."teaser") <= 300);