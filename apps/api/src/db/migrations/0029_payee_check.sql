ALTER TABLE "payout_methods" ADD COLUMN "payee_check_result" text;--> statement-breakpoint
ALTER TABLE "payout_methods" ADD COLUMN "payee_check_name" text;--> statement-breakpoint
ALTER TABLE "payout_methods" ADD COLUMN "payee_checked_at" timestamp with time zone;