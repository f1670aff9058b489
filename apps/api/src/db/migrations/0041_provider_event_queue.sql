ALTER TABLE "provider_events" ALTER COLUMN "outcome" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "provider_events" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "provider_events" ADD COLUMN "sequence" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "provider_events_sequence_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "provider_events" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "provider_events" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "provider_events_recorded_idx" ON "provider_events" USING btree ("sequence") WHERE "provider_events"."outcome" IS NULL;--> statement-breakpoint
CREATE INDEX "provider_events_recorded_payment_idx" ON "provider_events" USING btree ("payment_id","sequence") WHERE "provider_events"."outcome" IS NULL;--> statement-breakpoint
ALTER TABLE "provider_events" ADD CONSTRAINT "provider_events_payload_until_applied" CHECK ("provider_events"."outcome" IS NOT NULL OR "provider_events"."payload" IS NOT NULL);