CREATE TABLE "donation_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plan_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"payment_id" uuid,
	"year" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "donation_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"card_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"donor_name" text NOT NULL,
	"donor_email" text NOT NULL,
	"donor_code" text NOT NULL,
	"locale" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"cover_fee" boolean NOT NULL,
	"status" text DEFAULT 'incomplete' NOT NULL,
	"started_at" timestamp with time zone,
	"period" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"next_charge_at" timestamp with time zone,
	"remind_at" timestamp with time zone,
	"statement_due_at" timestamp with time zone,
	"provider" text,
	"customer_ref" text,
	"method_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_payment_methods" (
	"method_ref" text PRIMARY KEY NOT NULL,
	"customer_ref" text NOT NULL,
	"email" text NOT NULL,
	"behaviour" text NOT NULL,
	"payer_ref" text,
	"off_session_attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_payment_methods_customer_ref_unique" UNIQUE("customer_ref")
);
--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "plan_id" uuid;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "period" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "customer_ref" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "method_ref" text;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "customer_ref" text;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "method_ref" text;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "donation_actions" ADD CONSTRAINT "donation_actions_plan_id_donation_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."donation_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donation_plans" ADD CONSTRAINT "donation_plans_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donation_plans" ADD CONSTRAINT "donation_plans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "donation_actions_plan_idx" ON "donation_actions" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "donation_plans_charge_due_idx" ON "donation_plans" USING btree ("next_charge_at") WHERE "donation_plans"."status" IN ('active', 'paused');--> statement-breakpoint
CREATE INDEX "donation_plans_remind_due_idx" ON "donation_plans" USING btree ("remind_at") WHERE "donation_plans"."remind_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "donation_plans_statement_due_idx" ON "donation_plans" USING btree ("statement_due_at") WHERE "donation_plans"."statement_due_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "donation_plans_user_idx" ON "donation_plans" USING btree ("user_id","status");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_plan_id_donation_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."donation_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "donations_plan_idx" ON "donations" USING btree ("plan_id","period");--> statement-breakpoint
CREATE INDEX "donations_donor_idx" ON "donations" USING btree ("user_id","donor_code","created_at");--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD CONSTRAINT "sandbox_charges_idempotency_key_unique" UNIQUE("idempotency_key");