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
CREATE INDEX "team_period_objections_period_idx" ON "team_period_objections" USING btree ("team_id","month","created_at");--> statement-breakpoint
-- hand-written: a locked period never changes (decision 0055): neither its row nor its objections, and the
-- transitions are append-only, like the ops audit.
CREATE FUNCTION team_period_locked_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'team_periods' THEN
    IF OLD.locked_at IS NOT NULL THEN
      RAISE EXCEPTION 'team period % % is locked (% on %)', OLD.team_id, OLD.month, TG_OP, TG_TABLE_NAME;
    END IF;
  ELSIF EXISTS (
    SELECT 1 FROM team_periods p
    WHERE p.locked_at IS NOT NULL
      AND ((TG_OP <> 'DELETE' AND p.team_id = NEW.team_id AND p.month = NEW.month)
        OR (TG_OP <> 'INSERT' AND p.team_id = OLD.team_id AND p.month = OLD.month))
  ) THEN
    RAISE EXCEPTION 'team period is locked (% on %)', TG_OP, TG_TABLE_NAME;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER team_periods_locked_guard BEFORE UPDATE OR DELETE ON team_periods
  FOR EACH ROW EXECUTE FUNCTION team_period_locked_guard();
--> statement-breakpoint
CREATE TRIGGER team_period_objections_locked_guard BEFORE INSERT OR UPDATE OR DELETE ON team_period_objections
  FOR EACH ROW EXECUTE FUNCTION team_period_locked_guard();
--> statement-breakpoint
CREATE FUNCTION team_period_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'team_period_events rows are append-only (% on %)', TG_OP, TG_TABLE_NAME;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER team_period_events_append_only BEFORE UPDATE OR DELETE ON team_period_events
  FOR EACH ROW EXECUTE FUNCTION team_period_events_append_only();
