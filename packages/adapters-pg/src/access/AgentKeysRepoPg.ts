import { AgentKeysRepo, SpendingKey, SpendPolicy, TeamApiKey } from "@svc/domain"
import { Effect, Layer, Option, Schema, Struct } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../shared/index.ts"

const COLUMNS =
  "id, kind, team_id, mode, name, display_prefix, account_id, policy, scopes, created_by, created_at, revoked_at"

const KeyRow = Schema.Union([
  Schema.Struct({ ...SpendingKey.fields, kind: Schema.Literal("spending_key") }),
  Schema.Struct({ ...TeamApiKey.fields, kind: Schema.Literal("team_key") })
])

const keyOfKind = (row: typeof KeyRow.Type) =>
  row.kind === "spending_key"
    ? { kind: row.kind, key: Struct.omit(row, ["kind"]) }
    : { kind: row.kind, key: Struct.omit(row, ["kind"]) }

const TeamPolicyRow = Schema.Struct({ policy: SpendPolicy })

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
        sql`SELECT ${columns} FROM agent_keys WHERE secret_hash = ${hash} AND revoked_at IS NULL`.pipe(
          orUnavailable("agentKeys.findBySecretHash"),
          Effect.flatMap(decodeFirst(KeyRow, "agentKeys.findBySecretHash")),
          Effect.map(Option.map(keyOfKind))
        ),
      listSpendingKeys: (teamId) =>
        sql`SELECT ${columns} FROM agent_keys WHERE team_id = ${teamId} AND kind = 'spending_key' ORDER BY created_at DESC, id DESC`.pipe(
          orUnavailable("agentKeys.listSpendingKeys"),
          Effect.flatMap(decodeRows(SpendingKey, "agentKeys.listSpendingKeys"))
        ),
      listTeamKeys: (teamId) =>
        sql`SELECT ${columns} FROM agent_keys WHERE team_id = ${teamId} AND kind = 'team_key' ORDER BY created_at DESC, id DESC`.pipe(
          orUnavailable("agentKeys.listTeamKeys"),
          Effect.flatMap(decodeRows(TeamApiKey, "agentKeys.listTeamKeys"))
        ),
      updatePolicy: (teamId, id, policy) =>
        sql`UPDATE agent_keys SET policy = ${JSON.stringify(policy)}::jsonb
            WHERE id = ${id} AND team_id = ${teamId} AND kind = 'spending_key' AND revoked_at IS NULL
            RETURNING ${columns}`.pipe(
          orUnavailable("agentKeys.updatePolicy"),
          Effect.flatMap(decodeFirst(SpendingKey, "agentKeys.updatePolicy"))
        ),
      revoke: (teamId, kind, id, at) =>
        sql`UPDATE agent_keys SET revoked_at = ${at}
            WHERE id = ${id} AND team_id = ${teamId} AND kind = ${kind} AND revoked_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("agentKeys.revoke")
        ),
      teamPolicy: (teamId) =>
        sql`SELECT policy FROM team_spend_policies WHERE team_id = ${teamId}`.pipe(
          orUnavailable("agentKeys.teamPolicy"),
          Effect.flatMap(decodeFirst(TeamPolicyRow, "agentKeys.teamPolicy")),
          Effect.map(Option.match({ onNone: () => ({}), onSome: (row) => row.policy }))
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
