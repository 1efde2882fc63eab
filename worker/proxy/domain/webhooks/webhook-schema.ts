/**
 * Storage of a webhook and its outbox (domain/webhooks/webhook-outbox.ts), in the object that owns
 * the webhook: a member's object for the member's, the team ledger for the team's. Added in wave 3.
 */
export const WEBHOOK_SCHEMA = `
CREATE TABLE IF NOT EXISTS webhook (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  url TEXT NOT NULL,
  events TEXT NOT NULL,        -- JSON list of event types
  format TEXT NOT NULL,        -- standard | slack | discord | feishu
  secret TEXT NOT NULL,        -- whsec_...; never logged, shown only when made
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS webhook_outbox (
  id TEXT NOT NULL,            -- the message id (webhook-id): the same on every retry
  destination TEXT NOT NULL,   -- own (this object's webhook) | team | member:<id> (handed to that object's outbox)
  type TEXT NOT NULL,
  event TEXT NOT NULL,         -- the body {"type","timestamp","data"}, fixed when the event happened
  source TEXT,                 -- what raised it (task.completed:<task id>): an event is raised once
  state TEXT NOT NULL,         -- pending | delivered | failed (given up) | dropped (the webhook was removed)
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER,             -- the next attempt; null once done
  created_at INTEGER NOT NULL,
  PRIMARY KEY (id, destination));
CREATE UNIQUE INDEX IF NOT EXISTS webhook_outbox_source ON webhook_outbox (source, destination) WHERE source IS NOT NULL;
CREATE INDEX IF NOT EXISTS webhook_outbox_due ON webhook_outbox (next_at) WHERE next_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS webhook_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL,
  type TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  status TEXT NOT NULL,        -- delivered | retrying | failed
  code INTEGER,
  error TEXT,
  at INTEGER NOT NULL,
  next_retry_at INTEGER);
`;
