ALTER TABLE "outbox_messages" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "reply_to" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "due_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "last_error" text;--> statement-breakpoint
CREATE INDEX "outbox_messages_due_idx" ON "outbox_messages" USING btree ("due_at") WHERE "outbox_messages"."status" IN ('pending', 'sending');--> statement-breakpoint
-- The rows already here are the old dev outbox's copies of messages it had "sent" (printed to the log) at once:
-- marked sent, so that the delivery job never sends them again.
UPDATE "outbox_messages" SET "status" = 'sent', "sent_at" = "created_at";
