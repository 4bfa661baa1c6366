-- Issue #11 (metrics): each worker's prom-client snapshot (server/metrics.ts), read and merged by /api/metrics;
-- and small partial indexes for the gauges /api/metrics computes at scrape time (db/queries/metrics.ts).
CREATE TABLE "worker_metrics" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"snapshot" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "deliveries_attention_idx" ON "deliveries" USING btree ("status","channel") WHERE status in ('dead', 'unknown', 'expired');--> statement-breakpoint
CREATE INDEX "reminders_expired_idx" ON "reminders" USING btree ("channel") WHERE status = 'expired';
