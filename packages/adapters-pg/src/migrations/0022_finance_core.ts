import { STANDARD_CATEGORIES } from "@svc/domain"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The business-finance core: the exchange rates each team fills in, transaction categories (the standard taxonomy
 * seeded for every team already there; `Teams.create` seeds new ones), tags, bank accounts (manual or fed by a bank
 * connection), transactions with their tags and attachments. Amounts are integer minor units (`bigint`) of currencies
 * the domain's ISO 4217 table knows (stored as checked codes, no currencies table). Every reference between these
 * tables carries the team (composite foreign keys), so no row can point at another team's row.
 *
 * Indexes for a team with a million transactions: (team, date, id) covers date-range lists and cursor order and
 * includes what the reports read; (team, amount, id) the amount order; a generated full-text vector the text filter;
 * (team, bank account, date) and (team, category, date) the account and category filters.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE exchange_rates (
      team_id uuid NOT NULL REFERENCES teams(id),
      base text NOT NULL CHECK (base ~ '^[A-Z]{3}$'),
      quote text NOT NULL CHECK (quote ~ '^[A-Z]{3}$'),
      rate numeric NOT NULL CHECK (rate > 0),
      valid_on date NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (team_id, base, quote, valid_on),
      CHECK (base <> quote)
    )`
  yield* sql`
    CREATE TABLE transaction_categories (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
      name text NOT NULL CHECK (name <> ''),
      color text NOT NULL CHECK (color ~ '^#[0-9A-Fa-f]{6}$'),
      description text,
      tax_rate numeric(7, 4) CHECK (tax_rate BETWEEN 0 AND 100),
      tax_type text,
      parent_id uuid,
      type text NOT NULL CHECK (type IN ('revenue', 'contra_revenue', 'cost_of_goods_sold', 'expense', 'transfer')),
      excluded boolean NOT NULL DEFAULT false,
      system boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL,
      CONSTRAINT transaction_categories_slug_key UNIQUE (team_id, slug),
      CONSTRAINT transaction_categories_team_id_key UNIQUE (team_id, id),
      CONSTRAINT transaction_categories_parent_fk FOREIGN KEY (team_id, parent_id)
        REFERENCES transaction_categories (team_id, id) ON DELETE SET NULL (parent_id),
      CHECK (parent_id IS NULL OR parent_id <> id)
    )`
  yield* sql`
    CREATE TABLE tags (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      name text NOT NULL CHECK (name <> ''),
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT tags_name_key UNIQUE (team_id, name),
      CONSTRAINT tags_team_id_key UNIQUE (team_id, id)
    )`
  yield* sql`ALTER TABLE bank_connections ADD COLUMN name text, ADD COLUMN logo_url text`
  yield* sql`ALTER TABLE bank_connections ADD CONSTRAINT bank_connections_team_id_key UNIQUE (team_id, id)`
  yield* sql`
    CREATE TABLE bank_accounts (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      name text NOT NULL CHECK (name <> ''),
      type text NOT NULL CHECK (type IN ('depository', 'credit', 'other_asset', 'loan', 'other_liability')),
      currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
      balance_minor bigint NOT NULL DEFAULT 0,
      base_currency text CHECK (base_currency ~ '^[A-Z]{3}$'),
      base_balance_minor bigint,
      enabled boolean NOT NULL DEFAULT true,
      manual boolean NOT NULL,
      connection_id uuid,
      external_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL,
      CONSTRAINT bank_accounts_team_id_key UNIQUE (team_id, id),
      CONSTRAINT bank_accounts_connection_fk FOREIGN KEY (team_id, connection_id)
        REFERENCES bank_connections (team_id, id),
      CONSTRAINT bank_accounts_external_key UNIQUE (connection_id, external_id),
      CHECK (manual = (connection_id IS NULL)),
      CHECK ((connection_id IS NULL) = (external_id IS NULL)),
      CHECK (base_balance_minor IS NULL OR base_currency IS NOT NULL)
    )`
  yield* sql`CREATE INDEX bank_accounts_team_idx ON bank_accounts (team_id, created_at, id)`
  yield* sql`
    CREATE TABLE transactions (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      date date NOT NULL,
      name text NOT NULL,
      description text,
      amount_minor bigint NOT NULL,
      currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
      base_amount_minor bigint,
      base_currency text CHECK (base_currency ~ '^[A-Z]{3}$'),
      status text NOT NULL
        CHECK (status IN ('pending', 'posted', 'completed', 'archived', 'excluded', 'exported')),
      internal boolean NOT NULL DEFAULT false,
      recurring boolean NOT NULL DEFAULT false,
      frequency text CHECK (frequency IN ('weekly', 'monthly', 'annually', 'irregular')),
      manual boolean NOT NULL,
      note text,
      category_id uuid,
      bank_account_id uuid,
      tax_rate numeric(7, 4) CHECK (tax_rate BETWEEN 0 AND 100),
      tax_type text,
      counterparty_name text,
      provider text,
      provider_transaction_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL,
      search tsvector GENERATED ALWAYS AS (
        to_tsvector('simple', name || ' ' || coalesce(description, '') || ' ' || coalesce(counterparty_name, ''))
      ) STORED,
      CONSTRAINT transactions_team_id_key UNIQUE (team_id, id),
      CONSTRAINT transactions_provider_key UNIQUE (team_id, provider, provider_transaction_id),
      CONSTRAINT transactions_category_fk FOREIGN KEY (team_id, category_id)
        REFERENCES transaction_categories (team_id, id) ON DELETE SET NULL (category_id),
      CONSTRAINT transactions_bank_account_fk FOREIGN KEY (team_id, bank_account_id)
        REFERENCES bank_accounts (team_id, id) ON DELETE CASCADE,
      CHECK ((base_amount_minor IS NULL) = (base_currency IS NULL)),
      CHECK ((provider IS NULL) = (provider_transaction_id IS NULL)),
      CHECK (manual OR provider IS NOT NULL)
    )`
  yield* sql`
    CREATE INDEX transactions_team_date_idx ON transactions (team_id, date DESC, id DESC)
      INCLUDE (amount_minor, currency, base_amount_minor, base_currency, category_id, status, internal, recurring,
               tax_rate)`
  yield* sql`CREATE INDEX transactions_team_amount_idx ON transactions (team_id, amount_minor DESC, id DESC)`
  yield* sql`CREATE INDEX transactions_search_idx ON transactions USING gin (search)`
  yield* sql`CREATE INDEX transactions_account_idx ON transactions (team_id, bank_account_id, date DESC, id DESC)`
  yield* sql`CREATE INDEX transactions_category_idx ON transactions (team_id, category_id, date DESC)`
  yield* sql`
    CREATE TABLE transaction_tags (
      team_id uuid NOT NULL,
      transaction_id uuid NOT NULL,
      tag_id uuid NOT NULL,
      PRIMARY KEY (transaction_id, tag_id),
      FOREIGN KEY (team_id, transaction_id) REFERENCES transactions (team_id, id) ON DELETE CASCADE,
      FOREIGN KEY (team_id, tag_id) REFERENCES tags (team_id, id) ON DELETE CASCADE
    )`
  yield* sql`CREATE INDEX transaction_tags_tag_idx ON transaction_tags (tag_id)`
  yield* sql`
    CREATE TABLE transaction_attachments (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL,
      transaction_id uuid NOT NULL,
      path text[] NOT NULL CHECK (cardinality(path) > 0),
      filename text,
      size bigint NOT NULL CHECK (size >= 0),
      type text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (team_id, transaction_id) REFERENCES transactions (team_id, id) ON DELETE CASCADE
    )`
  yield* sql`CREATE INDEX transaction_attachments_transaction_idx ON transaction_attachments (transaction_id)`

  const taxonomy = JSON.stringify(STANDARD_CATEGORIES)
  yield* sql`
    INSERT INTO transaction_categories
      (id, team_id, slug, name, color, tax_rate, tax_type, parent_id, type, excluded, system, created_at, updated_at)
    SELECT gen_random_uuid(), t.id, s.slug, s.name, s.color, s."taxRate", s."taxType", NULL, s.type, s.excluded, true,
           now(), now()
    FROM teams t
    CROSS JOIN jsonb_to_recordset(${taxonomy}::jsonb)
      AS s(slug text, name text, color text, type text, parent text, excluded boolean, "taxRate" numeric, "taxType" text)
    WHERE s.parent IS NULL`
  yield* sql`
    INSERT INTO transaction_categories
      (id, team_id, slug, name, color, tax_rate, tax_type, parent_id, type, excluded, system, created_at, updated_at)
    SELECT gen_random_uuid(), p.team_id, s.slug, s.name, s.color, s."taxRate", s."taxType", p.id, s.type, s.excluded,
           true, now(), now()
    FROM jsonb_to_recordset(${taxonomy}::jsonb)
      AS s(slug text, name text, color text, type text, parent text, excluded boolean, "taxRate" numeric, "taxType" text)
    JOIN transaction_categories p ON p.slug = s.parent AND p.system
    WHERE s.parent IS NOT NULL`
})
