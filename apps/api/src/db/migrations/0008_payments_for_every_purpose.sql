CREATE TABLE "payment_allocations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"user_id" uuid,
	"platform_account" text,
	"net_cents" bigint NOT NULL,
	"fee_cents" bigint NOT NULL,
	"reversed_net_cents" bigint DEFAULT 0 NOT NULL,
	"reversed_fee_cents" bigint DEFAULT 0 NOT NULL,
	"release_due_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_allocations_recipient" CHECK (("payment_allocations"."user_id" IS NULL) <> ("payment_allocations"."platform_account" IS NULL)),
	CONSTRAINT "payment_allocations_amounts" CHECK ("payment_allocations"."net_cents" >= 0 AND "payment_allocations"."fee_cents" >= 0 AND "payment_allocations"."reversed_net_cents" BETWEEN 0 AND "payment_allocations"."net_cents" AND "payment_allocations"."reversed_fee_cents" BETWEEN 0 AND "payment_allocations"."fee_cents")
);
--> statement-breakpoint
CREATE TABLE "tips" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"card_id" uuid NOT NULL,
	"message" text,
	"rating" integer,
	CONSTRAINT "tips_rating" CHECK ("tips"."rating" IS NULL OR "tips"."rating" BETWEEN 1 AND 5)
);
--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_payment_id_unique";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_rating";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_amounts";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_card_id_cards_id_fk";
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_recipient_user_id_users_id_fk";
--> statement-breakpoint
DROP INDEX "payments_card_idempotency_key";--> statement-breakpoint
DROP INDEX "transactions_settle_due_idx";--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "description" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "purpose" text DEFAULT 'tip' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "purpose" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "subject_id" uuid;--> statement-breakpoint
UPDATE "payments" SET "subject_id" = "card_id";--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "subject_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "disputed_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "adjustments" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reconcile_due_at" timestamp with time zone;--> statement-breakpoint
UPDATE "payments" SET "reconcile_due_at" = now() WHERE "status" = 'pending';--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "allocation_id" uuid;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "refunded_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tips" ADD CONSTRAINT "tips_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tips" ADD CONSTRAINT "tips_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_allocations_payment_position_key" ON "payment_allocations" USING btree ("payment_id","position");--> statement-breakpoint
CREATE INDEX "payment_allocations_release_due_idx" ON "payment_allocations" USING btree ("release_due_at") WHERE "payment_allocations"."released_at" IS NULL;--> statement-breakpoint
CREATE INDEX "payment_allocations_user_idx" ON "payment_allocations" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_allocation_id_payment_allocations_id_fk" FOREIGN KEY ("allocation_id") REFERENCES "public"."payment_allocations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_subject_idempotency_key" ON "payments" USING btree ("purpose","subject_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "payments_reconcile_due_idx" ON "payments" USING btree ("reconcile_due_at") WHERE "payments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "transactions_payment_idx" ON "transactions" USING btree ("payment_id");--> statement-breakpoint
-- Every payment so far is a tip with one recipient: its tip row, its one allocation, and its history row linked to it.
INSERT INTO "tips" ("payment_id", "card_id", "message", "rating") SELECT "id", "card_id", "message", "rating" FROM "payments";--> statement-breakpoint
UPDATE "payments" SET "refunded_cents" = "total_cents" WHERE "status" = 'refunded';--> statement-breakpoint
INSERT INTO "payment_allocations" ("payment_id", "position", "user_id", "net_cents", "fee_cents", "reversed_net_cents", "reversed_fee_cents", "release_due_at", "released_at", "created_at")
SELECT t."payment_id", 0, t."user_id", t."amount_cents", t."fee_cents",
  CASE WHEN t."status" = 'REFUNDED' THEN t."amount_cents" ELSE 0 END,
  CASE WHEN t."status" = 'REFUNDED' THEN t."fee_cents" ELSE 0 END,
  coalesce(t."settle_due_at", t."settled_at", t."created_at"), t."settled_at", t."created_at"
FROM "transactions" t WHERE t."type" = 'PAYIN' AND t."payment_id" IS NOT NULL;--> statement-breakpoint
UPDATE "transactions" t SET "allocation_id" = a."id", "refunded_cents" = CASE WHEN t."status" = 'REFUNDED' THEN t."amount_cents" ELSE 0 END
FROM "payment_allocations" a WHERE a."payment_id" = t."payment_id" AND t."type" = 'PAYIN';--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "card_id";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "recipient_user_id";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "net_cents";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "message";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "rating";--> statement-breakpoint
ALTER TABLE "transactions" DROP COLUMN "settle_due_at";--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_allocation_id_unique" UNIQUE("allocation_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amounts" CHECK ("payments"."fee_cents" >= 0 AND "payments"."total_cents" > 0 AND "payments"."refunded_cents" BETWEEN 0 AND "payments"."total_cents" AND "payments"."disputed_cents" BETWEEN 0 AND "payments"."total_cents");