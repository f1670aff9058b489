ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_owner_kind_key";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_owner_kind_shard_key" UNIQUE NULLS NOT DISTINCT("owner_user_id","kind","shard");--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_one_shard" CHECK ("ledger_accounts"."owner_user_id" IS NULL OR "ledger_accounts"."shard" = 0);