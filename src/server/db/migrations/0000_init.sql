CREATE TABLE "access_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"login" text NOT NULL,
	"password" text NOT NULL,
	"level" text NOT NULL,
	"is_active" text DEFAULT 'true' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone,
	"user_id" integer,
	CONSTRAINT "access_codes_login_unique" UNIQUE("login"),
	CONSTRAINT "access_codes_level_check" CHECK (level IS NULL OR level IN ('Operator', 'Architect', 'Mastermind')),
	CONSTRAINT "access_codes_is_active_check" CHECK (is_active IN ('true', 'false'))
);
--> statement-breakpoint
CREATE TABLE "admin_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone,
	CONSTRAINT "admin_accounts_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "assessment_responses" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"question_number" integer NOT NULL,
	"answer" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assessment_responses_question_check" CHECK ("assessment_responses"."question_number" BETWEEN 1 AND 15),
	CONSTRAINT "assessment_responses_answer_check" CHECK ("assessment_responses"."answer" IN ('A', 'B', 'C', 'D'))
);
--> statement-breakpoint
CREATE TABLE "assessment_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer,
	"name" text,
	"email" text,
	"completed" text DEFAULT 'false' NOT NULL,
	"score" integer,
	"score_breakdown" jsonb,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "assessment_sessions_completed_check" CHECK (completed IN ('true', 'false'))
);
--> statement-breakpoint
CREATE TABLE "chapters" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"reading_time" integer DEFAULT 5 NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"level" text DEFAULT 'Operator',
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chapters_slug_unique" UNIQUE("slug"),
	CONSTRAINT "chapters_level_check" CHECK (level IS NULL OR level IN ('Operator', 'Architect', 'Mastermind')),
	CONSTRAINT "chapters_reading_time_check" CHECK ("chapters"."reading_time" >= 0),
	CONSTRAINT "chapters_order_check" CHECK ("chapters"."order" >= 0)
);
--> statement-breakpoint
CREATE TABLE "rate_limit_hits" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket" text NOT NULL,
	"key" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"sid" text PRIMARY KEY NOT NULL,
	"sess" jsonb NOT NULL,
	"expire" timestamp with time zone NOT NULL,
	"access_code_id" integer,
	"admin_id" integer
);
--> statement-breakpoint
CREATE TABLE "subsections" (
	"id" serial PRIMARY KEY NOT NULL,
	"chapter_id" integer NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"photo" text,
	"photo_alt" text,
	"order" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subsections_order_check" CHECK ("subsections"."order" >= 0)
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"profile_image_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
ALTER TABLE "access_codes" ADD CONSTRAINT "access_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_responses" ADD CONSTRAINT "assessment_responses_session_id_assessment_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."assessment_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_sessions" ADD CONSTRAINT "assessment_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_access_code_id_access_codes_id_fk" FOREIGN KEY ("access_code_id") REFERENCES "public"."access_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_admin_id_admin_accounts_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admin_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subsections" ADD CONSTRAINT "subsections_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_codes_user_id_idx" ON "access_codes" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "assessment_responses_session_question_idx" ON "assessment_responses" USING btree ("session_id","question_number");--> statement-breakpoint
CREATE INDEX "assessment_sessions_started_at_idx" ON "assessment_sessions" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "chapters_live_order_idx" ON "chapters" USING btree ("level","order") WHERE "chapters"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "chapters_deleted_at_idx" ON "chapters" USING btree ("deleted_at") WHERE "chapters"."deleted_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "rate_limit_hits_lookup_idx" ON "rate_limit_hits" USING btree ("bucket","key","at");--> statement-breakpoint
CREATE INDEX "sessions_expire_idx" ON "sessions" USING btree ("expire");--> statement-breakpoint
CREATE INDEX "sessions_access_code_id_idx" ON "sessions" USING btree ("access_code_id");--> statement-breakpoint
CREATE INDEX "sessions_admin_id_idx" ON "sessions" USING btree ("admin_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subsections_chapter_slug_idx" ON "subsections" USING btree ("chapter_id","slug");--> statement-breakpoint
CREATE INDEX "subsections_live_order_idx" ON "subsections" USING btree ("chapter_id","order") WHERE "subsections"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "subsections_deleted_at_idx" ON "subsections" USING btree ("deleted_at") WHERE "subsections"."deleted_at" IS NOT NULL;