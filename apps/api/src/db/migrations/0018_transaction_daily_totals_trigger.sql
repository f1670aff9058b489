-- transaction_daily_totals follows transactions in the writing statement's own transaction (decision 0019): a PAYIN
-- row not REFUNDED adds its net amount less what was taken back, 1 to the count and its rating to its user's Riga
-- calendar day. Statement-level, so a bulk write (a purge, a backfill) moves each day once, not once per row.
CREATE TYPE transaction_daily_change AS (user_id uuid, day date, received_cents bigint, payin_count bigint, rating_sum bigint, rating_count bigint);
--> statement-breakpoint
CREATE FUNCTION transaction_daily_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes transaction_daily_change[] := '{}';
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    changes := changes || array(
      SELECT (user_id, (created_at AT TIME ZONE 'Europe/Riga')::date, -sum(amount_cents - refunded_cents), -count(*), -coalesce(sum(rating), 0), -count(rating))::transaction_daily_change
      FROM old_rows WHERE type = 'PAYIN' AND status <> 'REFUNDED' GROUP BY user_id, (created_at AT TIME ZONE 'Europe/Riga')::date);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    changes := changes || array(
      SELECT (user_id, (created_at AT TIME ZONE 'Europe/Riga')::date, sum(amount_cents - refunded_cents), count(*), coalesce(sum(rating), 0), count(rating))::transaction_daily_change
      FROM new_rows WHERE type = 'PAYIN' AND status <> 'REFUNDED' GROUP BY user_id, (created_at AT TIME ZONE 'Europe/Riga')::date);
  END IF;
  -- An update that changes nothing the totals add up (HOLD -> PAID on release, a description) nets to zero: no write.
  INSERT INTO transaction_daily_totals AS kept (user_id, day, received_cents, payin_count, rating_sum, rating_count)
  SELECT user_id, day, sum(received_cents), sum(payin_count), sum(rating_sum), sum(rating_count)
  FROM unnest(changes) GROUP BY 1, 2
  HAVING (sum(received_cents), sum(payin_count), sum(rating_sum), sum(rating_count)) <> (0, 0, 0, 0)
  -- Days taken in one order, so two statements writing the same days (purges, backfills) cannot deadlock.
  ORDER BY 1, 2
  ON CONFLICT (user_id, day) DO UPDATE SET
    received_cents = kept.received_cents + excluded.received_cents,
    payin_count = kept.payin_count + excluded.payin_count,
    rating_sum = kept.rating_sum + excluded.rating_sum,
    rating_count = kept.rating_count + excluded.rating_count;
  -- A day whose rows are all gone (refunded, purged) keeps no row.
  DELETE FROM transaction_daily_totals kept USING unnest(changes) AS changed
  WHERE changed.payin_count < 0 AND kept.user_id = changed.user_id AND kept.day = changed.day AND kept.payin_count = 0;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER transactions_daily_totals_insert AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_daily_totals_follow();
--> statement-breakpoint
CREATE TRIGGER transactions_daily_totals_update AFTER UPDATE ON transactions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_daily_totals_follow();
--> statement-breakpoint
CREATE TRIGGER transactions_daily_totals_delete AFTER DELETE ON transactions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_daily_totals_follow();
--> statement-breakpoint
-- The history written before the triggers.
INSERT INTO transaction_daily_totals (user_id, day, received_cents, payin_count, rating_sum, rating_count)
SELECT user_id, (created_at AT TIME ZONE 'Europe/Riga')::date, sum(amount_cents - refunded_cents), count(*), coalesce(sum(rating), 0), count(rating)
FROM transactions
WHERE type = 'PAYIN' AND status <> 'REFUNDED'
GROUP BY 1, 2;
