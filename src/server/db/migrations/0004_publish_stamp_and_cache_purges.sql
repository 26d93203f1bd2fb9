CREATE TABLE "cache_purges" (
	"id" serial PRIMARY KEY NOT NULL,
	"tags" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_identity" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"production_database" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_identity_singleton_check" CHECK (id = 1)
);
--> statement-breakpoint
ALTER TABLE "publish_state" ADD COLUMN "site_stamp" text;--> statement-breakpoint
CREATE INDEX "cache_purges_created_idx" ON "cache_purges" USING btree ("created_at");