CREATE TABLE "team_shifts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_shifts_end_after_start" CHECK ("team_shifts"."ended_at" IS NULL OR "team_shifts"."ended_at" > "team_shifts"."started_at")
);
--> statement-breakpoint
CREATE TABLE "team_split_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"points" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by_user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_tip_splits" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"rule_id" uuid,
	"rule_kind" text NOT NULL,
	"basis" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"total_cents" bigint NOT NULL,
	"fee_cents" bigint NOT NULL,
	"shares" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "team_memberships" ADD COLUMN "role" text;--> statement-breakpoint
ALTER TABLE "team_shifts" ADD CONSTRAINT "team_shifts_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_shifts" ADD CONSTRAINT "team_shifts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_split_rules" ADD CONSTRAINT "team_split_rules_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_split_rules" ADD CONSTRAINT "team_split_rules_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_tip_splits" ADD CONSTRAINT "team_tip_splits_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_tip_splits" ADD CONSTRAINT "team_tip_splits_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_tip_splits" ADD CONSTRAINT "team_tip_splits_rule_id_team_split_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."team_split_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "team_shifts_one_open_per_user_key" ON "team_shifts" USING btree ("user_id") WHERE "team_shifts"."ended_at" IS NULL;--> statement-breakpoint
CREATE INDEX "team_shifts_team_idx" ON "team_shifts" USING btree ("team_id","started_at");--> statement-breakpoint
CREATE INDEX "team_split_rules_team_idx" ON "team_split_rules" USING btree ("team_id","created_at");--> statement-breakpoint
CREATE INDEX "team_tip_splits_team_idx" ON "team_tip_splits" USING btree ("team_id","at");