CREATE TABLE "content_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "content_version_singleton_check" CHECK (id = 1)
);
--> statement-breakpoint
INSERT INTO "content_version" ("id", "version") VALUES (1, 0);--> statement-breakpoint
-- The book's content version (issue 20: 7): every row written to chapters or subsections moves it
-- on, in the writing transaction, whichever road the write comes by (the admin panel, the book
-- import, the scheduled publishing job, a restore). A page rendered from the content is kept under
-- the version it was read at (src/server/pages/render-cache.ts): the commit makes the new version
-- and the new content visible together, so no request sees one without the other. The triggers are
-- deferred to the commit: a transaction takes the version's row last, after every row it writes,
-- so two writers never wait on each other in a circle (a deadlock).
CREATE FUNCTION "content_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "content_version" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "chapters_content_version" AFTER INSERT OR UPDATE OR DELETE ON "chapters" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "content_version_bump"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "subsections_content_version" AFTER INSERT OR UPDATE OR DELETE ON "subsections" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "content_version_bump"();
