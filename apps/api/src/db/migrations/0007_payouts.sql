CREATE TABLE "payout_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"message_id" text NOT NULL,
	"file_name" text NOT NULL,
	"content" text NOT NULL,
	"payout_count" integer NOT NULL,
	"total_cents" bigint NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "payout_batches_message_id_unique" UNIQUE("message_id")
);
--> statement-breakpoint
CREATE TABLE "payout_method_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"method_id" uuid NOT NULL,
	"action" text NOT NULL,
	"masked_account" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"holder" text NOT NULL,
	"address" text NOT NULL,
	"iban" text,
	"bic" text,
	"account_number" text,
	"sort_code" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "payout_methods_details" CHECK (("payout_methods"."kind" = 'sepa' AND "payout_methods"."iban" IS NOT NULL AND "payout_methods"."bic" IS NOT NULL) OR ("payout_methods"."kind" = 'uk' AND "payout_methods"."account_number" IS NOT NULL AND "payout_methods"."sort_code" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"method_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"fee_cents" bigint NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"status" text NOT NULL,
	"dest_kind" text NOT NULL,
	"dest_holder" text NOT NULL,
	"dest_address" text NOT NULL,
	"dest_iban" text,
	"dest_bic" text,
	"dest_account_number" text,
	"dest_sort_code" text,
	"code_hash" text NOT NULL,
	"code_attempts" integer DEFAULT 0 NOT NULL,
	"code_sends" integer DEFAULT 1 NOT NULL,
	"code_sent_at" timestamp with time zone NOT NULL,
	"code_expires_at" timestamp with time zone NOT NULL,
	"expected_arrival" text NOT NULL,
	"rail" text,
	"rail_state" text,
	"rail_due_at" timestamp with time zone,
	"batch_id" uuid,
	"return_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"returned_at" timestamp with time zone,
	CONSTRAINT "payouts_amounts" CHECK ("payouts"."amount_cents" > 0 AND "payouts"."fee_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox_payout_transfers" (
	"payout_id" uuid PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"requests" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"details" jsonb NOT NULL,
	"document_front_file_id" uuid,
	"document_back_file_id" uuid,
	"registration_document_file_id" uuid,
	"rejection_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "payout_id" uuid;--> statement-breakpoint
ALTER TABLE "payout_method_events" ADD CONSTRAINT "payout_method_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_method_events" ADD CONSTRAINT "payout_method_events_method_id_payout_methods_id_fk" FOREIGN KEY ("method_id") REFERENCES "public"."payout_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_methods" ADD CONSTRAINT "payout_methods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_method_id_payout_methods_id_fk" FOREIGN KEY ("method_id") REFERENCES "public"."payout_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_document_front_file_id_files_id_fk" FOREIGN KEY ("document_front_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_document_back_file_id_files_id_fk" FOREIGN KEY ("document_back_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_registration_document_file_id_files_id_fk" FOREIGN KEY ("registration_document_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_method_events_user_idx" ON "payout_method_events" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payout_methods_user_idx" ON "payout_methods" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_methods_one_default_key" ON "payout_methods" USING btree ("user_id") WHERE "payout_methods"."is_default" AND "payout_methods"."deleted_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_user_idempotency_key" ON "payouts" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "payouts_user_created_idx" ON "payouts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payouts_rail_due_idx" ON "payouts" USING btree ("rail_due_at") WHERE "payouts"."status" = 'in_flight';--> statement-breakpoint
CREATE INDEX "payouts_batch_idx" ON "payouts" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "verifications_user_created_idx" ON "verifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "verifications_one_open_per_user_key" ON "verifications" USING btree ("user_id") WHERE "verifications"."status" IN ('pending', 'approved');--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_payout_id_unique" UNIQUE("payout_id");