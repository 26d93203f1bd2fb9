CREATE TABLE "reading_days" (
	"access_code_id" integer NOT NULL,
	"chapter_id" integer NOT NULL,
	"day" date NOT NULL,
	"seconds" integer DEFAULT 0 NOT NULL,
	"finished" boolean DEFAULT false NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reading_days_access_code_id_chapter_id_day_pk" PRIMARY KEY("access_code_id","chapter_id","day"),
	CONSTRAINT "reading_days_seconds_check" CHECK ("reading_days"."seconds" >= 0)
);
--> statement-breakpoint
CREATE TABLE "reading_places" (
	"access_code_id" integer PRIMARY KEY NOT NULL,
	"chapter_id" integer NOT NULL,
	"subsection_id" integer,
	"updated_at" timestamp with time zone NOT NULL,
	"counted_at" timestamp with time zone NOT NULL,
	"counted" boolean NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reading_days" ADD CONSTRAINT "reading_days_access_code_id_access_codes_id_fk" FOREIGN KEY ("access_code_id") REFERENCES "public"."access_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_days" ADD CONSTRAINT "reading_days_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_places" ADD CONSTRAINT "reading_places_access_code_id_access_codes_id_fk" FOREIGN KEY ("access_code_id") REFERENCES "public"."access_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_places" ADD CONSTRAINT "reading_places_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_places" ADD CONSTRAINT "reading_places_subsection_id_subsections_id_fk" FOREIGN KEY ("subsection_id") REFERENCES "public"."subsections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reading_days_chapter_idx" ON "reading_days" USING btree ("chapter_id");--> statement-breakpoint
CREATE INDEX "reading_days_day_idx" ON "reading_days" USING btree ("day");--> statement-breakpoint
-- Members' reading (issue 23): the reading recorded so far is folded into daily totals, each
-- session counted on the UTC day it started, and each code's place is the chapter of its latest
-- session, so the profile's streak and the Readers tab start from what was already read.
INSERT INTO "reading_days" ("access_code_id", "chapter_id", "day", "seconds", "last_at")
  SELECT "access_code_id", "chapter_id", ("started_at" AT TIME ZONE 'UTC')::date, sum("seconds"), max("last_seen_at")
    FROM "reading_sessions" WHERE "chapter_id" IS NOT NULL
   GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "reading_places" ("access_code_id", "chapter_id", "updated_at", "counted_at", "counted")
  SELECT DISTINCT ON ("access_code_id") "access_code_id", "chapter_id", "last_seen_at", "last_seen_at", true
    FROM "reading_sessions" WHERE "chapter_id" IS NOT NULL
   ORDER BY "access_code_id", "last_seen_at" DESC;
