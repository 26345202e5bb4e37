import {
  type AccountId,
  AgentKeysRepo,
  type SpendingKey,
  type SpendPolicy,
  type TeamApiKey,
  type TeamId,
  type UserId
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { iso, orUnavailable } from "../shared/index.ts"

interface KeyRow {
  readonly id: string
  readonly kind: "spending_key" | "team_key"
  readonly teamId: string
  readonly mode: "live" | "test"
  readonly name: string
  readonly displayPrefix: string
  readonly accountId: string | null
  readonly policy: SpendPolicy | null
  readonly scopes: ReadonlyArray<string> | null
  readonly createdBy: string
  readonly createdAt: Date
  readonly revokedAt: Date | null
}

const COLUMNS =
  "id, kind, team_id, mode, name, display_prefix, account_id, policy, scopes, created_by, created_at, revoked_at"

const base = (row: KeyRow) => ({
  id: row.id,
  teamId: row.teamId as TeamId,
  mode: row.mode,
  name: row.name,
  displayPrefix: row.displayPrefix,
  createdBy: row.createdBy as UserId,
  createdAt: iso(row.createdAt),
  revokedAt: row.revokedAt === null ? null : iso(row.revokedAt)
})

const toSpendingKey = (row: KeyRow): SpendingKey => ({
  ...base(row),
  accountId: row.accountId as AccountId,
  policy: row.policy ?? {}
})
const toTeamKey = (row: KeyRow): TeamApiKey => ({ ...base(row), scopes: row.scopes ?? [] })

/** AgentKeysRepo on Postgres. */
export const AgentKeysRepoPg = Layer.effect(
  AgentKeysRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    return AgentKeysRepo.of({
      insertSpendingKey: (key, hash) =>
        sql`INSERT INTO agent_keys (id, kind, team_id, mode, name, display_prefix, secret_hash, account_id, policy, created_by, created_at)
            VALUES (${key.id}, 'spending_key', ${key.teamId}, ${key.mode}, ${key.name}, ${key.displayPrefix}, ${hash},
                    ${key.accountId}, ${JSON.stringify(key.policy)}::jsonb, ${key.createdBy}, ${key.createdAt})`.pipe(
          Effect.asVoid,
          orUnavailable("agentKeys.insertSpendingKey")
        ),
      insertTeamKey: (key, hash) =>
        sql`INSERT INTO agent_keys (id, kind, team_id, mode, name, display_prefix, secret_hash, scopes, created_by, created_at)
            VALUES (${key.id}, 'team_key', ${key.teamId}, ${key.mode}, ${key.name}, ${key.displayPrefix}, ${hash},
                    ${JSON.stringify(key.scopes)}::jsonb, ${key.createdBy}, ${key.createdAt})`.pipe(
          Effect.asVoid,
          orUnavailable("agentKeys.insertTeamKey")
        ),
      findBySecretHash: (hash) =>
        sql<KeyRow>`SELECT ${columns} FROM agent_keys WHERE secret_hash = ${hash} AND revoked_at IS NULL`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullishOr(rows[0]), (row) =>
              row.kind === "spending_key"
                ? { kind: row.kind, key: toSpendingKey(row) }
                : { kind: row.kind, key: toTeamKey(row) }
            )
          ),
          orUnavailable("agentKeys.findBySecretHash")
        ),
      listSpendingKeys: (teamId) =>
        sql<KeyRow>`SELECT ${columns} FROM agent_keys WHERE team_id = ${teamId} AND kind = 'spending_key' ORDER BY created_at DESC, id DESC`.pipe(
          Effect.map((rows) => rows.map(toSpendingKey)),
          orUnavailable("agentKeys.listSpendingKeys")
        ),
      listTeamKeys: (teamId) =>
        sql<KeyRow>`SELECT ${columns} FROM agent_keys WHERE team_id = ${teamId} AND kind = 'team_key' ORDER BY created_at DESC, id DESC`.pipe(
          Effect.map((rows) => rows.map(toTeamKey)),
          orUnavailable("agentKeys.listTeamKeys")
        ),
      updatePolicy: (teamId, id, policy) =>
        sql<KeyRow>`UPDATE agent_keys SET policy = ${JSON.stringify(policy)}::jsonb
                    WHERE id = ${id} AND team_id = ${teamId} AND kind = 'spending_key' AND revoked_at IS NULL
                    RETURNING ${columns}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toSpendingKey)),
          orUnavailable("agentKeys.updatePolicy")
        ),
      revoke: (teamId, kind, id, at) =>
        sql`UPDATE agent_keys SET revoked_at = ${at}
            WHERE id = ${id} AND team_id = ${teamId} AND kind = ${kind} AND revoked_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("agentKeys.revoke")
        ),
      teamPolicy: (teamId) =>
        sql<{ policy: SpendPolicy }>`SELECT policy FROM team_spend_policies WHERE team_id = ${teamId}`.pipe(
          Effect.map((rows) => rows[0]?.policy ?? {}),
          orUnavailable("agentKeys.teamPolicy")
        ),
      setTeamPolicy: (teamId, policy) =>
        sql`INSERT INTO team_spend_policies (team_id, policy) VALUES (${teamId}, ${JSON.stringify(policy)}::jsonb)
            ON CONFLICT (team_id) DO UPDATE SET policy = EXCLUDED.policy, updated_at = now()`.pipe(
          Effect.asVoid,
          orUnavailable("agentKeys.setTeamPolicy")
        )
    })
  })
)
