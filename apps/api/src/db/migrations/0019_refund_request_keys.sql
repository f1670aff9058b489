ALTER TABLE "refund_requests" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD COLUMN "failure" text;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_requests_payment_key_idx" ON "refund_requests" USING btree ("payment_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "refund_requests_refunding_idx" ON "refund_requests" USING btree ("lease_until") WHERE "refund_requests"."status" = 'refunding';