CREATE TABLE "tipping_policies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workplace_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"text" text NOT NULL,
	"published_by_user_id" uuid NOT NULL,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tipping_policy_reads" (
	"policy_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tipping_policy_reads_policy_id_user_id_pk" PRIMARY KEY("policy_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "tipping_policies" ADD CONSTRAINT "tipping_policies_workplace_id_workplaces_id_fk" FOREIGN KEY ("workplace_id") REFERENCES "public"."workplaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tipping_policies" ADD CONSTRAINT "tipping_policies_published_by_user_id_users_id_fk" FOREIGN KEY ("published_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tipping_policy_reads" ADD CONSTRAINT "tipping_policy_reads_policy_id_tipping_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."tipping_policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tipping_policy_reads" ADD CONSTRAINT "tipping_policy_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tipping_policies_workplace_version_key" ON "tipping_policies" USING btree ("workplace_id","version");