CREATE TABLE "team_period_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"month" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid NOT NULL,
	"objection_id" uuid,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_period_objections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"month" text NOT NULL,
	"user_id" uuid NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone,
	"answered_by_user_id" uuid
);
--> statement-breakpoint
CREATE TABLE "team_periods" (
	"team_id" uuid NOT NULL,
	"month" text NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	"closed_by_user_id" uuid NOT NULL,
	"objections_until" timestamp with time zone NOT NULL,
	"locked_at" timestamp with time zone,
	"locked_by_user_id" uuid,
	CONSTRAINT "team_periods_team_id_month_pk" PRIMARY KEY("team_id","month"),
	CONSTRAINT "team_periods_month_format" CHECK ("team_periods"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "team_periods_locked_by" CHECK (("team_periods"."locked_at" IS NULL) = ("team_periods"."locked_by_user_id" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "team_period_events" ADD CONSTRAINT "team_period_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_period_events" ADD CONSTRAINT "team_period_events_objection_id_team_period_objections_id_fk" FOREIGN KEY ("objection_id") REFERENCES "public"."team_period_objections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_period_events" ADD CONSTRAINT "team_period_events_team_id_month_team_periods_team_id_month_fk" FOREIGN KEY ("team_id","month") REFERENCES "public"."team_periods"("team_id","month") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_period_objections" ADD CONSTRAINT "team_period_objections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_period_objections" ADD CONSTRAINT "team_period_objections_answered_by_user_id_users_id_fk" FOREIGN KEY ("answered_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_period_objections" ADD CONSTRAINT "team_period_objections_team_id_month_team_periods_team_id_month_fk" FOREIGN KEY ("team_id","month") REFERENCES "public"."team_periods"("team_id","month") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_periods" ADD CONSTRAINT "team_periods_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_periods" ADD CONSTRAINT "team_periods_closed_by_user_id_users_id_fk" FOREIGN KEY ("closed_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_periods" ADD CONSTRAINT "team_periods_locked_by_user_id_users_id_fk" FOREIGN KEY ("locked_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_period_events_period_idx" ON "team_period_events" USING btree ("team_id","month","at");--> statement-breakpoint
CREATE UNIQUE INDEX "team_period_events_one_confirmation_key" ON "team_period_events" USING btree ("team_id","month","user_id") WHERE "team_period_events"."kind" = 'confirmed';--> statement-breakpoint
CREATE UNIQUE INDEX "team_period_objections_one_open_key" ON "team_period_objections" USING btree ("team_id","month","user_id") WHERE "team_period_objections"."answered_at" IS NULL;--> statement-breakpoint
CREATE INDEX "team_period_objections_period_idx" ON "team_period_objections" USING btree ("team_id","month","created_at");