-- 0016: a webhook claim no longer changes a message's status (in flight = 'pending' under a lease,
-- shown as 'delivering'), so it touches no indexed column and the update can be HOT — no index
-- entries for it — when the page has room. Leave that room: new pages are filled to 70%.
-- Rows still 'delivering' from before are treated as claimed; they move on when recorded.
ALTER TABLE webhook_messages SET (fillfactor = 70);
