import { AgentKeysRepo, PolicyVersion, SpendingKey, SpendPolicy, TeamApiKey } from "@svc/domain"
import { Effect, Layer, Option, Schema, Struct } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../shared/index.ts"

const COLUMNS =
  "id, kind, team_id, mode, name, display_prefix, account_id, policy, policy_version, scopes, created_by, created_at, revoked_at"

const KeyRow = Schema.Union([
  Schema.Struct({ ...SpendingKey.fields, kind: Schema.Literal("spending_key") }),
  Schema.Struct({ ...TeamApiKey.fields, kind: Schema.Literal("team_key") })
])

const keyOfKind = (row: typeof KeyRow.Type) =>
  row.kind === "spending_key"
    ? { kind: row.kind, key: Struct.omit(row, ["kind"]) }
    : { kind: row.kind, key: Struct.omit(row, ["kind"]) }

const TeamPolicyRow = Schema.Struct({ policy: SpendPolicy })

const VersionedTeamPolicyRow = Schema.Struct({ policy: SpendPolicy, version: Schema.Int })

const VERSION_COLUMNS = "id, team_id, subject, spending_key_id, version, policy, created_by, created_at"

const UpdatedKeyRow = Schema.Struct({
  ...SpendingKey.fields,
  versionId: Schema.String,
  versionCreatedBy: PolicyVersion.fields.createdBy,
  versionCreatedAt: Schema.String
})

/** AgentKeysRepo on Postgres. */
export const AgentKeysRepoPg = Layer.effect(
  AgentKeysRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    return AgentKeysRepo.of({
      insertSpendingKey: (key, hash, version) =>
        sql`WITH k AS (
              INSERT INTO agent_keys (id, kind, team_id, mode, name, display_prefix, secret_hash, account_id, policy,
                                      policy_version, created_by, created_at)
              VALUES (${key.id}, 'spending_key', ${key.teamId}, ${key.mode}, ${key.name}, ${key.displayPrefix}, ${hash},
                      ${key.accountId}, ${JSON.stringify(key.policy)}::jsonb, ${key.policyVersion}, ${key.createdBy},
                      ${key.createdAt})
              RETURNING id
            )
            INSERT INTO policy_versions (id, team_id, subject, spending_key_id, version, policy, created_by, created_at)
            SELECT ${version.id}, ${version.teamId}, 'spending_key', k.id, ${version.version},
                   ${JSON.stringify(version.policy)}::jsonb, ${version.createdBy}, ${version.createdAt}
            FROM k`.pipe(Effect.asVoid, orUnavailable("agentKeys.insertSpendingKey")),
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
      updatePolicy: (teamId, id, policy, change) =>
        sql`WITH k AS (
              UPDATE agent_keys SET policy = ${JSON.stringify(policy)}::jsonb, policy_version = policy_version + 1
              WHERE id = ${id} AND team_id = ${teamId} AND kind = 'spending_key' AND revoked_at IS NULL
              RETURNING ${columns}
            ), v AS (
              INSERT INTO policy_versions (id, team_id, subject, spending_key_id, version, policy, created_by, created_at)
              SELECT ${change.versionId}, k.team_id, 'spending_key', k.id, k.policy_version, k.policy, ${change.by},
                     ${change.at}
              FROM k
              RETURNING id, created_by, created_at
            )
            SELECT k.*, v.id AS version_id, v.created_by AS version_created_by, v.created_at AS version_created_at
            FROM k, v`.pipe(
          orUnavailable("agentKeys.updatePolicy"),
          Effect.flatMap(decodeFirst(UpdatedKeyRow, "agentKeys.updatePolicy")),
          Effect.map(
            Option.map(({ versionId, versionCreatedBy, versionCreatedAt, ...key }) => ({
              key,
              version: {
                id: versionId,
                teamId: key.teamId,
                subject: "spending_key" as const,
                spendingKeyId: key.id,
                version: key.policyVersion,
                policy: key.policy,
                createdBy: versionCreatedBy,
                createdAt: versionCreatedAt
              }
            }))
          )
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
      versionedTeamPolicy: (teamId) =>
        sql`SELECT policy, version FROM team_spend_policies WHERE team_id = ${teamId}`.pipe(
          orUnavailable("agentKeys.versionedTeamPolicy"),
          Effect.flatMap(decodeFirst(VersionedTeamPolicyRow, "agentKeys.versionedTeamPolicy")),
          Effect.map(
            Option.match({
              onNone: () => ({ policy: {}, version: null }),
              onSome: (row) => ({ policy: row.policy, version: row.version })
            })
          )
        ),
      setTeamPolicy: (teamId, policy, change) =>
        sql`WITH p AS (
              INSERT INTO team_spend_policies AS t (team_id, policy, version)
              VALUES (${teamId}, ${JSON.stringify(policy)}::jsonb, 1)
              ON CONFLICT (team_id) DO UPDATE SET policy = EXCLUDED.policy, version = t.version + 1, updated_at = now()
              RETURNING team_id, policy, version
            )
            INSERT INTO policy_versions (id, team_id, subject, spending_key_id, version, policy, created_by, created_at)
            SELECT ${change.versionId}, p.team_id, 'team', NULL, p.version, p.policy, ${change.by}, ${change.at}
            FROM p
            RETURNING ${sql.unsafe(VERSION_COLUMNS)}`.pipe(
          orUnavailable("agentKeys.setTeamPolicy"),
          Effect.flatMap(decodeFirst(PolicyVersion, "agentKeys.setTeamPolicy")),
          // The upsert always writes one row, and the version is inserted from it.
          Effect.flatMap(
            Option.match({ onNone: () => Effect.die("no team policy version written"), onSome: Effect.succeed })
          )
        ),
      policyVersions: (teamId, spendingKeyId) =>
        sql`SELECT ${sql.unsafe(VERSION_COLUMNS)} FROM policy_versions
            WHERE team_id = ${teamId} AND (spending_key_id = ${spendingKeyId} OR subject = 'team')
            ORDER BY created_at DESC, subject, version DESC`.pipe(
          orUnavailable("agentKeys.policyVersions"),
          Effect.flatMap(decodeRows(PolicyVersion, "agentKeys.policyVersions"))
        )
    })
  })
)
