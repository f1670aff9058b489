ALTER TABLE "ledger_accounts" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "ledger_accounts_open_debt_idx" ON "ledger_accounts" USING btree ("owner_user_id") WHERE "ledger_accounts"."kind" = 'debt' AND "ledger_accounts"."balance_cents" < 0;--> statement-breakpoint
CREATE INDEX "ledger_accounts_closed_unsettled_idx" ON "ledger_accounts" USING btree ("id") WHERE "ledger_accounts"."closed_at" IS NOT NULL AND "ledger_accounts"."balance_cents" <> 0;--> statement-breakpoint
-- Accounts erased before this change are closed now; the ledger's job settles what they still hold.
INSERT INTO "ledger_accounts" ("owner_user_id", "kind")
SELECT u."id", kind.name FROM "users" u CROSS JOIN (VALUES ('main'), ('debt')) AS kind(name)
WHERE u."erased_at" IS NOT NULL
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "ledger_accounts" a SET "closed_at" = u."erased_at" FROM "users" u
WHERE u."id" = a."owner_user_id" AND u."erased_at" IS NOT NULL AND a."kind" IN ('main', 'debt');
