import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Time tracking: projects (an hourly rate in minor units of their currency, an optional customer and tags) and their
 * entries. A partial unique index allows one running entry (no `stop`) per user, so of concurrent timer starts exactly
 * one is stored. Entries and tags reference their project by (team, id), so none crosses teams; deleting a project
 * deletes its entries.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE tracker_projects (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      name text NOT NULL CHECK (name <> ''),
      description text,
      status text NOT NULL CHECK (status IN ('in_progress', 'completed')),
      billable boolean NOT NULL,
      rate_minor bigint CHECK (rate_minor >= 0),
      currency text CHECK (currency ~ '^[A-Z]{3}$'),
      estimate integer CHECK (estimate >= 0),
      customer_id uuid REFERENCES customers(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL,
      CONSTRAINT tracker_projects_team_id_key UNIQUE (team_id, id),
      CHECK (rate_minor IS NULL OR currency IS NOT NULL)
    )`
  yield* sql`CREATE INDEX tracker_projects_team_idx ON tracker_projects (team_id, created_at DESC, id DESC)`
  yield* sql`
    CREATE TABLE tracker_project_tags (
      team_id uuid NOT NULL,
      project_id uuid NOT NULL,
      tag_id uuid NOT NULL,
      PRIMARY KEY (project_id, tag_id),
      FOREIGN KEY (team_id, project_id) REFERENCES tracker_projects (team_id, id) ON DELETE CASCADE,
      FOREIGN KEY (team_id, tag_id) REFERENCES tags (team_id, id) ON DELETE CASCADE
    )`
  yield* sql`CREATE INDEX tracker_project_tags_tag_idx ON tracker_project_tags (tag_id)`
  yield* sql`
    CREATE TABLE tracker_entries (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL,
      project_id uuid NOT NULL,
      user_id uuid NOT NULL REFERENCES users(id),
      start timestamptz NOT NULL,
      stop timestamptz,
      duration_seconds integer CHECK (duration_seconds >= 0),
      description text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL,
      FOREIGN KEY (team_id, project_id) REFERENCES tracker_projects (team_id, id) ON DELETE CASCADE,
      CHECK ((stop IS NULL) = (duration_seconds IS NULL)),
      CHECK (stop IS NULL OR stop >= start)
    )`
  yield* sql`CREATE INDEX tracker_entries_team_start_idx ON tracker_entries (team_id, start DESC, id DESC)`
  yield* sql`CREATE INDEX tracker_entries_project_idx ON tracker_entries (team_id, project_id, start DESC)`
  yield* sql`CREATE UNIQUE INDEX tracker_entries_one_running_idx ON tracker_entries (team_id, user_id) WHERE stop IS NULL`
})
