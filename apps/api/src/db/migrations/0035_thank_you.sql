CREATE TABLE "tip_answers" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "thank_you_text" text;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "thank_you_photo_file_id" uuid;--> statement-breakpoint
ALTER TABLE "tip_answers" ADD CONSTRAINT "tip_answers_payment_id_tips_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."tips"("payment_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tip_answers" ADD CONSTRAINT "tip_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_thank_you_photo_file_id_files_id_fk" FOREIGN KEY ("thank_you_photo_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;