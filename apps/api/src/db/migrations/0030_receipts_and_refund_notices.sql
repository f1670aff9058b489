CREATE TABLE "receipt_contacts" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"locale" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refund_notices" (
	"payment_id" uuid NOT NULL,
	"refunded_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refund_notices_payment_id_refunded_cents_pk" PRIMARY KEY("payment_id","refunded_cents")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "sandbox_payment_methods" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "sandbox_payment_methods" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sms_refunds" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "receipt_contacts" ADD CONSTRAINT "receipt_contacts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_notices" ADD CONSTRAINT "refund_notices_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;