CREATE TABLE "payout_schedule_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"weekday" integer,
	"month_day" integer,
	"threshold_cents" bigint,
	"method_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"code_attempts" integer DEFAULT 0 NOT NULL,
	"code_sent_at" timestamp with time zone NOT NULL,
	"code_expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"locale" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_schedule_changes_rule" CHECK (("payout_schedule_changes"."kind" = 'weekly' AND "payout_schedule_changes"."weekday" BETWEEN 1 AND 7) OR ("payout_schedule_changes"."kind" = 'monthly' AND "payout_schedule_changes"."month_day" BETWEEN 1 AND 31) OR ("payout_schedule_changes"."kind" = 'threshold' AND "payout_schedule_changes"."threshold_cents" > 0))
);
--> statement-breakpoint
CREATE TABLE "payout_schedule_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"period" text NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"payout_id" uuid,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_schedules" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"weekday" integer,
	"month_day" integer,
	"threshold_cents" bigint,
	"method_id" uuid NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"next_run_at" timestamp with time zone,
	"paused_for" text,
	"pause_notified_at" timestamp with time zone,
	"locale" text DEFAULT 'en' NOT NULL,
	"confirmed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_schedules_rule" CHECK (("payout_schedules"."kind" = 'weekly' AND "payout_schedules"."weekday" BETWEEN 1 AND 7) OR ("payout_schedules"."kind" = 'monthly' AND "payout_schedules"."month_day" BETWEEN 1 AND 31) OR ("payout_schedules"."kind" = 'threshold' AND "payout_schedules"."threshold_cents" > 0))
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "instant" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_payout_transfers" ADD COLUMN "instant" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_schedule_changes" ADD CONSTRAINT "payout_schedule_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_schedule_changes" ADD CONSTRAINT "payout_schedule_changes_method_id_payout_methods_id_fk" FOREIGN KEY ("method_id") REFERENCES "public"."payout_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_schedule_runs" ADD CONSTRAINT "payout_schedule_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_schedule_runs" ADD CONSTRAINT "payout_schedule_runs_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_schedules" ADD CONSTRAINT "payout_schedules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_schedules" ADD CONSTRAINT "payout_schedules_method_id_payout_methods_id_fk" FOREIGN KEY ("method_id") REFERENCES "public"."payout_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_schedule_changes_user_idx" ON "payout_schedule_changes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_schedule_runs_user_period_key" ON "payout_schedule_runs" USING btree ("user_id","period");--> statement-breakpoint
CREATE INDEX "payout_schedule_runs_user_idx" ON "payout_schedule_runs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payout_schedules_due_idx" ON "payout_schedules" USING btree ("next_run_at") WHERE "payout_schedules"."status" = 'active';