import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Crypto payouts, part one (ADR 0031): a team's allow-list of destinations, per mode, never edited (only `removed_at`
 * may be set, once; rows are never deleted), and quotes, which never change but for their single use (`payout_id` and
 * `used_at`, set once). A quote's destination is of its team and mode (a composite foreign key), and its amount is
 * exactly its fees plus what it delivers.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE crypto_destinations (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
      network text NOT NULL CHECK (network IN ('ethereum', 'base', 'polygon', 'arbitrum', 'solana')),
      asset text NOT NULL CHECK (asset IN ('USDC', 'USDT')),
      address text NOT NULL CHECK (
        (network = 'solana' AND address ~ '^[1-9A-HJ-NP-Za-km-z]{32,44}$') OR
        (network <> 'solana' AND address ~ '^0x[0-9a-fA-F]{40}$')
      ),
      created_by uuid NOT NULL REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      removed_at timestamptz,
      UNIQUE (id, team_id, mode)
    )`
  yield* sql`
    CREATE INDEX crypto_destinations_team_idx ON crypto_destinations (team_id, mode, created_at DESC, id DESC)
      WHERE removed_at IS NULL`
  yield* sql`
    CREATE FUNCTION crypto_destinations_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'crypto destination % is never deleted', OLD.id USING ERRCODE = 'restrict_violation';
      END IF;
      IF OLD.removed_at IS NOT NULL OR NEW.removed_at IS NULL
         OR (NEW.id, NEW.team_id, NEW.mode, NEW.name, NEW.network, NEW.asset, NEW.address, NEW.created_by, NEW.created_at)
            IS DISTINCT FROM
            (OLD.id, OLD.team_id, OLD.mode, OLD.name, OLD.network, OLD.asset, OLD.address, OLD.created_by, OLD.created_at)
      THEN
        RAISE EXCEPTION 'crypto destination % is never edited', OLD.id USING ERRCODE = 'restrict_violation';
      END IF;
      RETURN NEW;
    END $$`
  yield* sql`
    CREATE TRIGGER crypto_destinations_immutable BEFORE UPDATE OR DELETE ON crypto_destinations
      FOR EACH ROW EXECUTE FUNCTION crypto_destinations_guard()`
  yield* sql`
    CREATE TABLE crypto_quotes (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      spending_key_id uuid NOT NULL REFERENCES agent_keys(id),
      destination_id uuid NOT NULL,
      network text NOT NULL CHECK (network IN ('ethereum', 'base', 'polygon', 'arbitrum', 'solana')),
      asset text NOT NULL CHECK (asset IN ('USDC', 'USDT')),
      address text NOT NULL,
      amount bigint NOT NULL CHECK (amount > 0),
      currency text NOT NULL CHECK (currency = 'USD'),
      service_fee bigint NOT NULL CHECK (service_fee >= 0),
      network_fee bigint NOT NULL CHECK (network_fee >= 0),
      amount_delivered bigint NOT NULL CHECK (amount_delivered > 0),
      token_amount text NOT NULL CHECK (token_amount ~ '^[1-9][0-9]*$'),
      decimals integer NOT NULL CHECK (decimals BETWEEN 2 AND 36),
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      payout_id uuid UNIQUE,
      used_at timestamptz,
      FOREIGN KEY (destination_id, team_id, mode) REFERENCES crypto_destinations (id, team_id, mode),
      CHECK (amount = service_fee + network_fee + amount_delivered),
      CHECK ((payout_id IS NULL) = (used_at IS NULL))
    )`
  yield* sql`CREATE INDEX crypto_quotes_team_idx ON crypto_quotes (team_id, mode, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX crypto_quotes_destination_idx ON crypto_quotes (destination_id)`
  yield* sql`
    CREATE FUNCTION crypto_quotes_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'crypto quote % is never deleted', OLD.id USING ERRCODE = 'restrict_violation';
      END IF;
      IF OLD.used_at IS NOT NULL OR NEW.used_at IS NULL
         OR (NEW.id, NEW.team_id, NEW.mode, NEW.spending_key_id, NEW.destination_id, NEW.network, NEW.asset, NEW.address,
             NEW.amount, NEW.currency, NEW.service_fee, NEW.network_fee, NEW.amount_delivered, NEW.token_amount,
             NEW.decimals, NEW.expires_at, NEW.created_at)
            IS DISTINCT FROM
            (OLD.id, OLD.team_id, OLD.mode, OLD.spending_key_id, OLD.destination_id, OLD.network, OLD.asset, OLD.address,
             OLD.amount, OLD.currency, OLD.service_fee, OLD.network_fee, OLD.amount_delivered, OLD.token_amount,
             OLD.decimals, OLD.expires_at, OLD.created_at)
      THEN
        RAISE EXCEPTION 'crypto quote % changes only by its single use', OLD.id USING ERRCODE = 'restrict_violation';
      END IF;
      RETURN NEW;
    END $$`
  yield* sql`
    CREATE TRIGGER crypto_quotes_single_use BEFORE UPDATE OR DELETE ON crypto_quotes
      FOR EACH ROW EXECUTE FUNCTION crypto_quotes_guard()`
})
