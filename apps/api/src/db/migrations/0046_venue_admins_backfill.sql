-- Every workplace becomes a venue with admins of its own (decision 0057): its creator and its team's admin administer
-- it, each while they are still a member of its team (a venue admin is a member of one of the venue's teams).
INSERT INTO "workplace_admins" ("workplace_id", "user_id", "added_by_user_id", "created_at")
SELECT DISTINCT t."workplace_id", m."user_id", m."user_id", now()
FROM "teams" t
JOIN "workplaces" w ON w."id" = t."workplace_id"
JOIN "team_memberships" m ON m."team_id" = t."id" AND m."left_at" IS NULL
WHERE m."user_id" = t."admin_user_id" OR m."user_id" = w."created_by_user_id"
ON CONFLICT DO NOTHING;
