-- Issue 44: 5. Search forgives accents: "jeza" finds "jeża", "zazolc" finds "Zażółć". fold_accents
-- writes each Latin letter of a fixed list without its diacritics, one letter for one; the list is
-- src/lib/accent-folding.ts's (tests/api/search.test.ts checks that this function and foldAccents,
-- the browser's folding, fold it alike). Plain SQL, no extension (unaccent is not on every host:
-- PGlite would need its contrib package), and IMMUTABLE, so the GIN indexes of the locked levels'
-- search (src/server/search/locked-search.ts) hold the very expression the query matches.
CREATE FUNCTION "fold_accents"(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT translate($1,
    'ąćęłńóśźżàáâãäåçèéêëìíîïñòôõöøùúûüýÿčďěňřšťůžőűĺľŕășțşţđāēīōūėįųğĄĆĘŁŃÓŚŹŻÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÔÕÖØÙÚÛÜÝŸČĎĚŇŘŠŤŮŽŐŰĹĽŔĂȘȚŞŢĐĀĒĪŌŪĖĮŲĞ',
    'acelnoszzaaaaaaceeeeiiiinooooouuuuyycdenrstuzoullraststdaeioueiugACELNOSZZAAAAAACEEEEIIIINOOOOOUUUUYYCDENRSTUZOULLRASTSTDAEIOUEIUG')
$$;--> statement-breakpoint
DROP INDEX "chapters_search_idx";--> statement-breakpoint
DROP INDEX "subsections_search_idx";--> statement-breakpoint
CREATE INDEX "chapters_search_idx" ON "chapters" USING gin (to_tsvector('english', fold_accents("title" || ' ' || "content")));--> statement-breakpoint
CREATE INDEX "subsections_search_idx" ON "subsections" USING gin (to_tsvector('english', fold_accents("title" || ' ' || "content")));
