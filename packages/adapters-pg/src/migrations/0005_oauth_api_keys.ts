import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** OAuth applications, authorization codes and tokens, and generic API keys; every secret is stored as its SHA-256. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE oauth_applications (
      id uuid PRIMARY KEY,
      client_id text NOT NULL UNIQUE,
      client_secret_hash text,
      name text NOT NULL,
      description text,
      overview text,
      developer_name text,
      logo_url text,
      website text,
      install_url text,
      screenshots jsonb NOT NULL DEFAULT '[]',
      redirect_uris jsonb NOT NULL,
      scopes jsonb,
      grant_types jsonb NOT NULL,
      response_types jsonb NOT NULL,
      token_endpoint_auth_method text NOT NULL
        CHECK (token_endpoint_auth_method IN ('none', 'client_secret_post', 'client_secret_basic')),
      status text NOT NULL CHECK (status IN ('draft', 'pending', 'approved', 'rejected')),
      team_id uuid REFERENCES teams(id),
      created_at timestamptz NOT NULL,
      CHECK ((token_endpoint_auth_method = 'none') = (client_secret_hash IS NULL))
    )`
  yield* sql`
    CREATE TABLE oauth_authorization_codes (
      code_hash text PRIMARY KEY,
      grant_id uuid NOT NULL,
      application_id uuid NOT NULL REFERENCES oauth_applications(id),
      team_id uuid NOT NULL REFERENCES teams(id),
      user_id uuid NOT NULL REFERENCES users(id),
      scopes jsonb NOT NULL,
      redirect_uri text NOT NULL,
      code_challenge text,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE oauth_tokens (
      id uuid PRIMARY KEY,
      token_hash text NOT NULL UNIQUE,
      kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
      grant_id uuid NOT NULL,
      application_id uuid NOT NULL REFERENCES oauth_applications(id),
      team_id uuid NOT NULL REFERENCES teams(id),
      user_id uuid NOT NULL REFERENCES users(id),
      scopes jsonb NOT NULL,
      expires_at timestamptz NOT NULL,
      rotated_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX oauth_tokens_grant_idx ON oauth_tokens (grant_id)`
  yield* sql`
    CREATE TABLE api_keys (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      name text NOT NULL,
      scopes jsonb,
      created_by uuid NOT NULL REFERENCES users(id),
      secret_hash text NOT NULL UNIQUE,
      preview text NOT NULL,
      created_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`
  yield* sql`CREATE INDEX api_keys_team_idx ON api_keys (team_id, created_at DESC, id DESC)`
})
