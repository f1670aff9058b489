ALTER TABLE "card_orders" ADD COLUMN "card_id" uuid;--> statement-breakpoint
-- Orders made before the choice printed the user's own card (the oldest private card, as the print file took it).
UPDATE "card_orders" SET "card_id" = (
  SELECT "cards"."id" FROM "cards" JOIN "clients" ON "clients"."id" = "cards"."client_id"
  WHERE "clients"."user_id" = "card_orders"."user_id" AND "cards"."is_private"
  ORDER BY "cards"."created_at" LIMIT 1
);--> statement-breakpoint
ALTER TABLE "card_orders" ALTER COLUMN "card_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "card_orders" ADD CONSTRAINT "card_orders_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;
