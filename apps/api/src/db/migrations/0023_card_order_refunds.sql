ALTER TABLE "card_orders" ADD COLUMN "canceled_by_operator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "card_orders" ADD COLUMN "refund_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "card_orders" ADD COLUMN "refund_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "card_orders_refund_due_idx" ON "card_orders" USING btree ("refund_due_at") WHERE "card_orders"."refund_due_at" IS NOT NULL;