CREATE TABLE "session_endings" (
	"sid_hash" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"ended_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_endings_reason_check" CHECK ("session_endings"."reason" in ('replaced'))
);
--> statement-breakpoint
CREATE INDEX "session_endings_ended_at_idx" ON "session_endings" USING btree ("ended_at");--> statement-breakpoint
-- The cap on a code's sessions (migration 0008) now also says why each session it ends ended
-- (issue 22: 8): the reader is told on /resume that their code signed in on another device. The
-- sid is kept only as its SHA-256 (hex), as src/server/auth/session-endings.ts computes it.
CREATE OR REPLACE FUNCTION "sessions_cap"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cap integer;
BEGIN
  SELECT "max_sessions" INTO cap FROM "access_codes" WHERE "id" = NEW."access_code_id" FOR NO KEY UPDATE;
  WITH "ended" AS (
    DELETE FROM "sessions"
     WHERE "access_code_id" = NEW."access_code_id"
       AND "sid" <> NEW."sid"
       AND "sid" NOT IN (
         SELECT "sid" FROM "sessions"
          WHERE "access_code_id" = NEW."access_code_id" AND "sid" <> NEW."sid" AND "expire" > now()
          ORDER BY "created_at" DESC, "sid" DESC
          LIMIT greatest(coalesce(cap, 1) - 1, 0))
    RETURNING "sid", "expire")
  INSERT INTO "session_endings" ("sid_hash", "reason")
    SELECT encode(sha256(convert_to("sid", 'UTF8')), 'hex'), 'replaced' FROM "ended" WHERE "expire" > now()
    ON CONFLICT ("sid_hash") DO NOTHING;
  RETURN NULL;
END
$$;
