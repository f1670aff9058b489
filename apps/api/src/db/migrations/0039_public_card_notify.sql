-- Every instance keeps the public card and the guest's page in memory (decision 0051): any change to what they show
-- announces the card's id on the `public_cards` channel at commit, from the database itself, so no writer can forget.
-- What the public card shows: the card's row, whether its owner deleted the account (users.deleted_at, through the
-- card's client), and for a team card its team (title), workplace (name) and open members' private cards (name, photo).
CREATE FUNCTION public_card_of_card_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed cards%ROWTYPE;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF TG_OP = 'UPDATE' AND OLD IS NOT DISTINCT FROM NEW THEN RETURN NULL; END IF;
  PERFORM pg_notify('public_cards', changed.id::text);
  IF TG_OP = 'UPDATE' AND OLD.id IS DISTINCT FROM NEW.id THEN PERFORM pg_notify('public_cards', OLD.id::text); END IF;
  -- A member's private card is their face on the team card: its name and photo.
  IF changed.is_private AND (TG_OP <> 'UPDATE' OR OLD.public_name IS DISTINCT FROM NEW.public_name
      OR OLD.photo_file_id IS DISTINCT FROM NEW.photo_file_id OR OLD.client_id IS DISTINCT FROM NEW.client_id
      OR OLD.is_private IS DISTINCT FROM NEW.is_private) THEN
    PERFORM pg_notify('public_cards', t.card_id::text)
      FROM team_memberships m
      JOIN teams t ON t.id = m.team_id
      JOIN clients c ON c.user_id = m.user_id
      WHERE c.id IN (changed.client_id, OLD.client_id) AND m.left_at IS NULL;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cards_public_card_notify AFTER INSERT OR UPDATE OR DELETE ON cards
  FOR EACH ROW EXECUTE FUNCTION public_card_of_card_changed();
--> statement-breakpoint
CREATE FUNCTION public_card_of_owner_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('public_cards', cards.id::text)
    FROM cards JOIN clients ON clients.id = cards.client_id
    WHERE clients.user_id IN (OLD.id, NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_public_card_notify AFTER UPDATE OF deleted_at ON users
  FOR EACH ROW WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at) EXECUTE FUNCTION public_card_of_owner_changed();
--> statement-breakpoint
CREATE FUNCTION public_card_of_client_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('public_cards', cards.id::text) FROM cards WHERE cards.client_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER clients_public_card_notify AFTER UPDATE OF user_id ON clients
  FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id) EXECUTE FUNCTION public_card_of_client_changed();
--> statement-breakpoint
CREATE FUNCTION public_card_of_team_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('public_cards', OLD.card_id::text); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('public_cards', NEW.card_id::text); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER teams_public_card_notify AFTER INSERT OR UPDATE OR DELETE ON teams
  FOR EACH ROW EXECUTE FUNCTION public_card_of_team_changed();
--> statement-breakpoint
CREATE FUNCTION public_card_of_membership_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('public_cards', teams.card_id::text) FROM teams
    WHERE teams.id IN (CASE WHEN TG_OP = 'INSERT' THEN NEW.team_id ELSE OLD.team_id END,
                       CASE WHEN TG_OP = 'DELETE' THEN OLD.team_id ELSE NEW.team_id END);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER team_memberships_public_card_notify AFTER INSERT OR UPDATE OR DELETE ON team_memberships
  FOR EACH ROW EXECUTE FUNCTION public_card_of_membership_changed();
--> statement-breakpoint
CREATE FUNCTION public_card_of_workplace_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('public_cards', teams.card_id::text) FROM teams WHERE teams.workplace_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER workplaces_public_card_notify AFTER UPDATE OF name ON workplaces
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION public_card_of_workplace_changed();
