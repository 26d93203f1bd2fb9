CREATE TABLE "notebooks" (
	"access_code_id" integer PRIMARY KEY NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"salt" text NOT NULL,
	"iterations" integer NOT NULL,
	"by_passphrase" text NOT NULL,
	"by_recovery" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notebooks_iterations_check" CHECK ("notebooks"."iterations" >= 600000)
);
--> statement-breakpoint
CREATE TABLE "notes" (
	"access_code_id" integer NOT NULL,
	"subsection_id" integer NOT NULL,
	"version" integer NOT NULL,
	"iv" text NOT NULL,
	"ciphertext" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notes_access_code_id_subsection_id_pk" PRIMARY KEY("access_code_id","subsection_id"),
	CONSTRAINT "notes_version_check" CHECK ("notes"."version" >= 1)
);
--> statement-breakpoint
ALTER TABLE "access_codes" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notebooks" ADD CONSTRAINT "notebooks_access_code_id_access_codes_id_fk" FOREIGN KEY ("access_code_id") REFERENCES "public"."access_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_access_code_id_notebooks_access_code_id_fk" FOREIGN KEY ("access_code_id") REFERENCES "public"."notebooks"("access_code_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Codes already ended count from now: their notebooks (none yet) would be kept 30 days from here.
UPDATE "access_codes" SET "deactivated_at" = now() WHERE "is_active" = 'false';
