ALTER TABLE "access_codes" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "access_codes" ADD COLUMN "max_sessions" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL;--> statement-breakpoint
ALTER TABLE "access_codes" ADD CONSTRAINT "access_codes_max_sessions_check" CHECK ("access_codes"."max_sessions" BETWEEN 1 AND 100);--> statement-breakpoint
-- The cap on a code's sessions (issue 14: 6), kept by the database on every insert: a new reader
-- session ends the oldest sessions of its code beyond max_sessions. Sign-ins of one code take turns
-- on the code's row (FOR NO KEY UPDATE: it does not block the foreign-key checks of other inserts),
-- and each statement of a plpgsql function takes a fresh snapshot, so the DELETE sees every session
-- the sign-ins before it committed: ten sign-ins sent at once leave exactly max_sessions.
CREATE FUNCTION "sessions_cap"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cap integer;
BEGIN
  SELECT "max_sessions" INTO cap FROM "access_codes" WHERE "id" = NEW."access_code_id" FOR NO KEY UPDATE;
  DELETE FROM "sessions"
   WHERE "access_code_id" = NEW."access_code_id"
     AND "sid" <> NEW."sid"
     AND "sid" NOT IN (
       SELECT "sid" FROM "sessions"
        WHERE "access_code_id" = NEW."access_code_id" AND "sid" <> NEW."sid" AND "expire" > now()
        ORDER BY "created_at" DESC, "sid" DESC
        LIMIT greatest(coalesce(cap, 1) - 1, 0));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sessions_cap" AFTER INSERT ON "sessions" FOR EACH ROW WHEN (NEW."access_code_id" IS NOT NULL) EXECUTE FUNCTION "sessions_cap"();
