CREATE TABLE "venue_cards" (
	"workplace_id" uuid PRIMARY KEY NOT NULL,
	"card_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "venue_cards_card_id_unique" UNIQUE("card_id")
);
--> statement-breakpoint
CREATE TABLE "venue_percentages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workplace_id" uuid NOT NULL,
	"shares" jsonb NOT NULL,
	"created_by_user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "venue_tip_splits" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"workplace_id" uuid NOT NULL,
	"percentages_id" uuid,
	"basis" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"total_cents" bigint NOT NULL,
	"fee_cents" bigint NOT NULL,
	"parts" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "teams" DROP CONSTRAINT "teams_workplace_id_unique";--> statement-breakpoint
ALTER TABLE "team_tip_splits" DROP CONSTRAINT "team_tip_splits_pkey";--> statement-breakpoint
ALTER TABLE "team_tip_splits" ADD CONSTRAINT "team_tip_splits_payment_id_team_id_pk" PRIMARY KEY("payment_id","team_id");--> statement-breakpoint
ALTER TABLE "team_tip_splits" ADD COLUMN "venue_part" jsonb;--> statement-breakpoint
ALTER TABLE "venue_cards" ADD CONSTRAINT "venue_cards_workplace_id_workplaces_id_fk" FOREIGN KEY ("workplace_id") REFERENCES "public"."workplaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "venue_cards" ADD CONSTRAINT "venue_cards_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "venue_percentages" ADD CONSTRAINT "venue_percentages_workplace_id_workplaces_id_fk" FOREIGN KEY ("workplace_id") REFERENCES "public"."workplaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "venue_percentages" ADD CONSTRAINT "venue_percentages_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "venue_tip_splits" ADD CONSTRAINT "venue_tip_splits_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "venue_tip_splits" ADD CONSTRAINT "venue_tip_splits_workplace_id_workplaces_id_fk" FOREIGN KEY ("workplace_id") REFERENCES "public"."workplaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "venue_tip_splits" ADD CONSTRAINT "venue_tip_splits_percentages_id_venue_percentages_id_fk" FOREIGN KEY ("percentages_id") REFERENCES "public"."venue_percentages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "venue_percentages_workplace_idx" ON "venue_percentages" USING btree ("workplace_id","created_at");--> statement-breakpoint
CREATE INDEX "venue_tip_splits_workplace_idx" ON "venue_tip_splits" USING btree ("workplace_id","at");