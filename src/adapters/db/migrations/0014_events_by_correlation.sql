-- The operations console follows one request's story across streams (issue 12 §6: a booking's
-- hour claimed, credit reserved, session, calendar event, e-mails): events by correlation id, in
-- log order, as a range on one index instead of a scan of the log.
CREATE INDEX IF NOT EXISTS es_events_correlation ON es_events ((metadata->>'correlationId'), txid, seq);
