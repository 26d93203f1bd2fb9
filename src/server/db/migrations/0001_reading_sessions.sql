CREATE TABLE "reading_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"access_code_id" integer NOT NULL,
	"chapter_id" integer,
	"started_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"seconds" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "reading_sessions_seconds_check" CHECK ("reading_sessions"."seconds" >= 0)
);
--> statement-breakpoint
ALTER TABLE "reading_sessions" ADD CONSTRAINT "reading_sessions_access_code_id_access_codes_id_fk" FOREIGN KEY ("access_code_id") REFERENCES "public"."access_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_sessions" ADD CONSTRAINT "reading_sessions_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reading_sessions_code_seen_idx" ON "reading_sessions" USING btree ("access_code_id","last_seen_at");