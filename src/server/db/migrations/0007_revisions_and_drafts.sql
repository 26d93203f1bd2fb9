CREATE TABLE "content_revisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"chapter_id" integer,
	"subsection_id" integer,
	"fields" jsonb NOT NULL,
	"saved_at" timestamp with time zone NOT NULL,
	"saved_by" text,
	"replaced_at" timestamp with time zone NOT NULL,
	"replaced_by" text,
	CONSTRAINT "content_revisions_item_check" CHECK (num_nonnulls(chapter_id, subsection_id) = 1)
);
--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "draft" jsonb;--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "draft_saved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "draft_saved_by" text;--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "publish_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subsections" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "subsections" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "subsections" ADD COLUMN "draft" jsonb;--> statement-breakpoint
ALTER TABLE "subsections" ADD COLUMN "draft_saved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subsections" ADD COLUMN "draft_saved_by" text;--> statement-breakpoint
ALTER TABLE "subsections" ADD COLUMN "publish_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_subsection_id_subsections_id_fk" FOREIGN KEY ("subsection_id") REFERENCES "public"."subsections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_revisions_chapter_idx" ON "content_revisions" USING btree ("chapter_id","replaced_at");--> statement-breakpoint
CREATE INDEX "content_revisions_subsection_idx" ON "content_revisions" USING btree ("subsection_id","replaced_at");--> statement-breakpoint
CREATE INDEX "content_revisions_replaced_at_idx" ON "content_revisions" USING btree ("replaced_at");--> statement-breakpoint
CREATE INDEX "chapters_publish_at_idx" ON "chapters" USING btree ("publish_at") WHERE "chapters"."publish_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "subsections_publish_at_idx" ON "subsections" USING btree ("publish_at") WHERE "subsections"."publish_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "chapters" ADD CONSTRAINT "chapters_status_check" CHECK (status IN ('published', 'draft'));--> statement-breakpoint
ALTER TABLE "subsections" ADD CONSTRAINT "subsections_status_check" CHECK (status IN ('published', 'draft'));