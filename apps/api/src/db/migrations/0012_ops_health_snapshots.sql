CREATE TABLE "ops_health_snapshots" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"invariant_problems" integer NOT NULL,
	"pending_payments" integer NOT NULL,
	"dead_messages" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
