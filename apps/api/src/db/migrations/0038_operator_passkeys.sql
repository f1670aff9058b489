CREATE TABLE "operator_passkey_challenges" (
	"challenge_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"session_id" uuid,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_passkeys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_id" uuid NOT NULL,
	"credential_id" text NOT NULL,
	"public_key" "bytea" NOT NULL,
	"counter" bigint NOT NULL,
	"transports" jsonb NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "operator_passkeys_credential_id_unique" UNIQUE("credential_id")
);
--> statement-breakpoint
ALTER TABLE "operator_passkey_challenges" ADD CONSTRAINT "operator_passkey_challenges_session_id_operator_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."operator_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_passkeys" ADD CONSTRAINT "operator_passkeys_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_passkeys_operator_idx" ON "operator_passkeys" USING btree ("operator_id");