CREATE TABLE "transaction_daily_totals" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"received_cents" bigint NOT NULL,
	"payin_count" integer NOT NULL,
	"rating_sum" bigint NOT NULL,
	"rating_count" integer NOT NULL,
	CONSTRAINT "transaction_daily_totals_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "transaction_daily_totals" ADD CONSTRAINT "transaction_daily_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transactions_user_type_created_idx" ON "transactions" USING btree ("user_id","type","created_at","id");