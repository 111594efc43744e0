-- 0027: wake the webhook workers only for outbox events they may have work for.
-- An activity's event in a root organization with no destination of its own (no active endpoint
-- subscribed to its type, no legacy FEATURE_NAME_WEBHOOK URL) is inserted already processed by the
-- statement that records the activity (activity-repository.ts, insertWithEvent; webhook-delivery-
-- repository.ts, webhookDestinationExists): the fan-out would have made no message of it. A
-- sub-organization's events stay unprocessed (their parent's endpoints are not read there, to keep
-- that statement on one organization's rows) and the fan-out decides, as before. A processed event
-- no longer notifies: the notification, and every listening session and worker it woke, cost each
-- signature about as much as its own WAL flush (docs/BENCHMARKS.md, signing). A row-level trigger,
-- because only the row says whether it is processed; its WHEN is checked in C, so a skipped row
-- calls no function at all. PostgreSQL still folds one transaction's repeated notifications into one.
DROP TRIGGER outbox_events_notify_webhooks ON outbox_events;
CREATE TRIGGER outbox_events_notify_webhooks AFTER INSERT ON outbox_events
  FOR EACH ROW WHEN (NEW.processed_at IS NULL) EXECUTE FUNCTION latchkey_notify_webhooks();
