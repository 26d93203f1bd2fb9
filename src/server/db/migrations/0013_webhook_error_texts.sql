-- Delivery errors in the webhook log (issue 21: 7) no longer carry the system's error text, which
-- named addresses and ports of the server's own network ("fetch failed: connect ECONNREFUSED
-- 10.0.0.5:8080"). Rows written before say what failed in the same words as new ones: the two
-- texts that named nothing (a receiver's status, a timeout) stay; the private-address refusal
-- takes its new wording; any other text is read only for its error code.
UPDATE "webhook_deliveries" SET "last_error" = CASE
	WHEN "last_error" LIKE '% resolves to a private address; refused.' THEN 'The receiver''s host name points into a private network, so nothing was sent.'
	WHEN "last_error" LIKE '%ECONNREFUSED%' THEN 'The connection was refused: nothing is listening at the receiver''s address.'
	WHEN "last_error" LIKE '%ENOTFOUND%' THEN 'The receiver''s host name was not found.'
	WHEN "last_error" LIKE '%EAI_AGAIN%' THEN 'The receiver''s host name could not be looked up just now.'
	WHEN "last_error" LIKE '%ECONNRESET%' OR "last_error" LIKE '%EPIPE%' OR "last_error" LIKE '%other side closed%' THEN 'The connection was closed before the receiver answered.'
	WHEN "last_error" LIKE '%ETIMEDOUT%' OR "last_error" LIKE '%Connect Timeout%' THEN 'The connection timed out.'
	WHEN "last_error" LIKE '%EHOSTUNREACH%' OR "last_error" LIKE '%ENETUNREACH%' THEN 'The receiver''s address could not be reached.'
	WHEN "last_error" LIKE '%CERT%' OR "last_error" LIKE '%certificate%' THEN 'The receiver''s HTTPS certificate was not accepted.'
	ELSE 'The request failed.'
END
WHERE "last_error" IS NOT NULL AND "last_error" NOT LIKE 'The receiver answered %' AND "last_error" NOT LIKE 'No answer within %';
