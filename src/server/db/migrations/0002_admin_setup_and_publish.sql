CREATE TABLE "admin_setup_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publish_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"state" text DEFAULT 'live' NOT NULL,
	"requested_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"last_published_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "publish_state_singleton_check" CHECK (id = 1),
	CONSTRAINT "publish_state_state_check" CHECK (state IN ('live', 'publishing', 'failed'))
);
