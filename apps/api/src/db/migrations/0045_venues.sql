CREATE TABLE "workplace_admins" (
	"workplace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"added_by_user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workplace_admins_workplace_id_user_id_pk" PRIMARY KEY("workplace_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "workplace_admins" ADD CONSTRAINT "workplace_admins_workplace_id_workplaces_id_fk" FOREIGN KEY ("workplace_id") REFERENCES "public"."workplaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workplace_admins" ADD CONSTRAINT "workplace_admins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workplace_admins" ADD CONSTRAINT "workplace_admins_added_by_user_id_users_id_fk" FOREIGN KEY ("added_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workplace_admins_user_idx" ON "workplace_admins" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "teams_workplace_idx" ON "teams" USING btree ("workplace_id","created_at");