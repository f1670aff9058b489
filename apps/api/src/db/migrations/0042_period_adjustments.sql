CREATE TABLE "team_period_adjustments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"month" text NOT NULL,
	"from_user_id" uuid NOT NULL,
	"to_user_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"reason" text NOT NULL,
	"created_by_user_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "team_period_adjustments_amount" CHECK ("team_period_adjustments"."amount_cents" > 0),
	CONSTRAINT "team_period_adjustments_two_members" CHECK ("team_period_adjustments"."from_user_id" <> "team_period_adjustments"."to_user_id")
);
--> statement-breakpoint
ALTER TABLE "team_period_events" ADD COLUMN "adjustment_id" uuid;--> statement-breakpoint
ALTER TABLE "team_period_adjustments" ADD CONSTRAINT "team_period_adjustments_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_period_adjustments" ADD CONSTRAINT "team_period_adjustments_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_period_adjustments" ADD CONSTRAINT "team_period_adjustments_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_period_adjustments" ADD CONSTRAINT "team_period_adjustments_team_id_month_team_periods_team_id_month_fk" FOREIGN KEY ("team_id","month") REFERENCES "public"."team_periods"("team_id","month") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "team_period_adjustments_key" ON "team_period_adjustments" USING btree ("created_by_user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "team_period_adjustments_period_idx" ON "team_period_adjustments" USING btree ("team_id","month","created_at");--> statement-breakpoint
CREATE INDEX "team_period_adjustments_from_idx" ON "team_period_adjustments" USING btree ("from_user_id","created_at");--> statement-breakpoint
CREATE INDEX "team_period_adjustments_to_idx" ON "team_period_adjustments" USING btree ("to_user_id","created_at");--> statement-breakpoint
ALTER TABLE "team_period_events" ADD CONSTRAINT "team_period_events_adjustment_id_team_period_adjustments_id_fk" FOREIGN KEY ("adjustment_id") REFERENCES "public"."team_period_adjustments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- hand-written: an adjustment is made only on a locked period, and once made it is never changed or deleted
-- (decision 0059): a later correction is another adjustment.
CREATE FUNCTION team_period_adjustments_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'team_period_adjustments rows are append-only (% on %)', TG_OP, TG_TABLE_NAME;
  END IF;
  IF NOT EXISTS (
    SELECT 1 FROM team_periods p WHERE p.team_id = NEW.team_id AND p.month = NEW.month AND p.locked_at IS NOT NULL
  ) THEN
    RAISE EXCEPTION 'team period % % is not locked: no adjustment before the lock', NEW.team_id, NEW.month;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER team_period_adjustments_guard BEFORE INSERT OR UPDATE OR DELETE ON team_period_adjustments
  FOR EACH ROW EXECUTE FUNCTION team_period_adjustments_guard();
