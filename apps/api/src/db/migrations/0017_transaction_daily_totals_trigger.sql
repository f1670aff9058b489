-- transaction_daily_totals follows transactions in the writing statement's own transaction (decision 0017): one
-- PAYIN row not REFUNDED adds its net amount less what was taken back, 1 to the count and its rating to its user's
-- Riga calendar day. A day whose rows are all gone (refunded, purged) loses its row.
CREATE FUNCTION transaction_daily_totals_add(changed transactions, sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO transaction_daily_totals AS kept (user_id, day, received_cents, payin_count, rating_sum, rating_count)
  SELECT changed.user_id, (changed.created_at AT TIME ZONE 'Europe/Riga')::date, sign * (changed.amount_cents - changed.refunded_cents),
         sign, sign * coalesce(changed.rating, 0), sign * (changed.rating IS NOT NULL)::integer
  WHERE changed.type = 'PAYIN' AND changed.status <> 'REFUNDED'
  ON CONFLICT (user_id, day) DO UPDATE SET
    received_cents = kept.received_cents + excluded.received_cents,
    payin_count = kept.payin_count + excluded.payin_count,
    rating_sum = kept.rating_sum + excluded.rating_sum,
    rating_count = kept.rating_count + excluded.rating_count;
  DELETE FROM transaction_daily_totals
  WHERE sign < 0 AND user_id = changed.user_id AND day = (changed.created_at AT TIME ZONE 'Europe/Riga')::date AND payin_count = 0;
$$;
--> statement-breakpoint
CREATE FUNCTION transaction_daily_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Most updates (HOLD -> PAID on release, a description) change nothing the totals add up: no write, no lock.
  IF TG_OP = 'UPDATE' AND (OLD.user_id, OLD.created_at, OLD.type, OLD.status = 'REFUNDED', OLD.amount_cents - OLD.refunded_cents, OLD.rating)
      IS NOT DISTINCT FROM (NEW.user_id, NEW.created_at, NEW.type, NEW.status = 'REFUNDED', NEW.amount_cents - NEW.refunded_cents, NEW.rating) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM transaction_daily_totals_add(OLD, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM transaction_daily_totals_add(NEW, 1);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER transactions_daily_totals AFTER INSERT OR UPDATE OR DELETE ON transactions
  FOR EACH ROW EXECUTE FUNCTION transaction_daily_totals_follow();
--> statement-breakpoint
-- The history written before the trigger.
INSERT INTO transaction_daily_totals (user_id, day, received_cents, payin_count, rating_sum, rating_count)
SELECT user_id, (created_at AT TIME ZONE 'Europe/Riga')::date, sum(amount_cents - refunded_cents), count(*), coalesce(sum(rating), 0), count(rating)
FROM transactions
WHERE type = 'PAYIN' AND status <> 'REFUNDED'
GROUP BY 1, 2;
