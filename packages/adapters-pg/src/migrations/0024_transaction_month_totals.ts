import { Effect } from "effect"
import { SqlClient } from "effect/sql"

const KEY = "team_id, month, category_id, currency, base_currency, recurring, positive"

const TAX = (amount: string) =>
  `CASE WHEN coalesce(t.tax_rate, c.tax_rate, 0) = 0 OR ${amount} IS NULL THEN 0
        ELSE round(${amount} * coalesce(t.tax_rate, c.tax_rate) / (100 + coalesce(t.tax_rate, c.tax_rate))) END`

/**
 * Adds (sign 1) or takes away (sign -1) the counted rows of `source` (a table of transactions rows, possibly a
 * transition table) to or from their month totals. With `existingCategory`, rows whose category no longer exists are
 * skipped: a deleted category's totals were dropped before its transactions lost it.
 */
const apply = (source: string, sign: 1 | -1, where = "", existingCategory = false) => `
  INSERT INTO transaction_month_totals AS m (${KEY}, amount_minor, base_amount_minor, tax_minor, base_tax_minor, count)
  SELECT t.team_id, date_trunc('month', t.date)::date, t.category_id, t.currency, t.base_currency, t.recurring,
         t.amount_minor > 0,
         ${sign} * sum(t.amount_minor), ${sign} * sum(coalesce(t.base_amount_minor, 0)),
         ${sign} * sum(${TAX("t.amount_minor")}), ${sign} * sum(${TAX("t.base_amount_minor")}), ${sign} * count(*)
  FROM ${source} t
  LEFT JOIN transaction_categories c ON c.team_id = t.team_id AND c.id = t.category_id
  WHERE NOT t.internal AND t.status <> 'excluded' ${existingCategory ? "AND (t.category_id IS NULL OR c.id IS NOT NULL)" : ""}
    ${where}
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (${KEY}) DO UPDATE SET
    amount_minor = m.amount_minor + EXCLUDED.amount_minor,
    base_amount_minor = m.base_amount_minor + EXCLUDED.base_amount_minor,
    tax_minor = m.tax_minor + EXCLUDED.tax_minor,
    base_tax_minor = m.base_tax_minor + EXCLUDED.base_tax_minor,
    count = m.count + EXCLUDED.count`

/**
 * Monthly totals of the counted transactions (not internal, not `excluded`), kept in step with every write by
 * statement-level triggers, so a report reads a few thousand rows instead of every transaction of its months (ADR
 * 0022). Keyed by what the report rules need to choose at read time: the category (its type and excluded flag are
 * joined when reading, so editing them needs no recomputation), the currency and base currency (the target-currency
 * rule), recurring, and the sign. The tax each transaction includes is summed per transaction at its effective rate
 * (its own, else its category's); a change of a category's rate recomputes that category's totals.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE transaction_month_totals (
      team_id uuid NOT NULL REFERENCES teams(id),
      month date NOT NULL,
      category_id uuid,
      currency text NOT NULL,
      base_currency text,
      recurring boolean NOT NULL,
      positive boolean NOT NULL,
      amount_minor numeric NOT NULL,
      base_amount_minor numeric NOT NULL,
      tax_minor numeric NOT NULL,
      base_tax_minor numeric NOT NULL,
      count bigint NOT NULL,
      CONSTRAINT transaction_month_totals_key UNIQUE NULLS NOT DISTINCT
        (team_id, month, category_id, currency, base_currency, recurring, positive)
    )`
  yield* sql.unsafe(`
    CREATE FUNCTION transaction_month_totals_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${apply("new_rows", 1)};
      RETURN NULL;
    END $$`)
  yield* sql.unsafe(`
    CREATE FUNCTION transaction_month_totals_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${apply("old_rows", -1, "", true)};
      RETURN NULL;
    END $$`)
  yield* sql.unsafe(`
    CREATE FUNCTION transaction_month_totals_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${apply("old_rows", -1, "", true)};
      ${apply("new_rows", 1)};
      RETURN NULL;
    END $$`)
  yield* sql`
    CREATE TRIGGER transaction_month_totals_insert AFTER INSERT ON transactions
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_month_totals_on_insert()`
  yield* sql`
    CREATE TRIGGER transaction_month_totals_delete AFTER DELETE ON transactions
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_month_totals_on_delete()`
  yield* sql`
    CREATE TRIGGER transaction_month_totals_update AFTER UPDATE ON transactions
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION transaction_month_totals_on_update()`
  yield* sql.unsafe(`
    CREATE FUNCTION transaction_month_totals_on_category_rate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM transaction_month_totals WHERE team_id = NEW.team_id AND category_id = NEW.id;
      ${apply("transactions", 1, "AND t.team_id = NEW.team_id AND t.category_id = NEW.id")};
      RETURN NULL;
    END $$`)
  yield* sql`
    CREATE TRIGGER transaction_month_totals_category_rate AFTER UPDATE OF tax_rate ON transaction_categories
      FOR EACH ROW WHEN (OLD.tax_rate IS DISTINCT FROM NEW.tax_rate)
      EXECUTE FUNCTION transaction_month_totals_on_category_rate()`
  yield* sql.unsafe(`
    CREATE FUNCTION transaction_month_totals_on_category_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM transaction_month_totals WHERE team_id = OLD.team_id AND category_id = OLD.id;
      RETURN OLD;
    END $$`)
  yield* sql`
    CREATE TRIGGER transaction_month_totals_category_delete BEFORE DELETE ON transaction_categories
      FOR EACH ROW EXECUTE FUNCTION transaction_month_totals_on_category_delete()`
  yield* sql.unsafe(apply("transactions", 1))
})
