-- Accounts deleted before a deletion ended what could still bring them money (docs/decisions/0024): their team
-- memberships end at their deletion, their plans stop charging, their open invoices close. A team admin could not be
-- deleted then, so no admin role is left to hand over. Their donors are not written to: this is a repair, not news.
UPDATE "team_memberships" m SET "left_at" = u."deleted_at"
  FROM "users" u WHERE u."id" = m."user_id" AND u."deleted_at" IS NOT NULL AND m."left_at" IS NULL;
--> statement-breakpoint
UPDATE "team_join_requests" r SET "status" = 'declined', "decided_at" = u."deleted_at"
  FROM "users" u WHERE u."id" = r."user_id" AND u."deleted_at" IS NOT NULL AND r."status" = 'pending';
--> statement-breakpoint
UPDATE "donation_plans" p SET "status" = 'canceled', "next_charge_at" = NULL, "remind_at" = NULL, "updated_at" = now()
  FROM "users" u WHERE u."id" = p."user_id" AND u."deleted_at" IS NOT NULL AND p."status" IN ('incomplete', 'active', 'paused');
--> statement-breakpoint
UPDATE "invoices" i SET "status" = 'canceled', "canceled_at" = now()
  FROM "users" u WHERE u."id" = i."user_id" AND u."deleted_at" IS NOT NULL AND i."status" = 'open';
