-- A user's money never goes below zero; only the debt account (a chargeback after payout) holds what they owe.
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_user_balance_non_negative";
--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_balance_non_negative"
  CHECK ("owner_user_id" IS NULL OR "kind" = 'debt' OR "balance_cents" >= 0);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_debt_non_positive" CHECK ("kind" <> 'debt' OR "balance_cents" <= 0);
