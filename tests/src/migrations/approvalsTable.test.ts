import { assert, layer } from "@effect/vitest"
import { PortsPg, runMigrations } from "@svc/adapters-pg"
import { TestDatabaseBefore } from "@svc/adapters-pg/testing"
import {
  ApprovalId,
  ApprovalsRepo,
  type ApprovalView,
  DEFAULT_APPROVERS,
  SpendRequestId,
  SpendRequestsRepo,
  TeamId
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"

/** An approval as spend requests carried it before migration 0010. */
type LegacyApproval = Omit<ApprovalView, "approvals" | "decidedByName">

layer(PortsPg.pipe(Layer.provideMerge(TestDatabaseBefore(10))), { timeout: "60 seconds" })(
  "migration 0010 (approvals)",
  (it) => {
    it.effect(
      "moves each request's approval into the approvals table, keeping what it said; decided ones stay final",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const team = crypto.randomUUID()
          const account = crypto.randomUUID()
          const user = crypto.randomUUID()
          const key = crypto.randomUUID()
          yield* sql`INSERT INTO users (id, email, created_at) VALUES (${user}, 'owner@example.com', now())`
          yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${team}, 'T', 'USD', now())`
          yield* sql`INSERT INTO ledger_accounts (id, team_id, mode, kind, name, currency, created_at)
                   VALUES (${account}, ${team}, 'test', 'spend', 'S', 'USD', now())`
          yield* sql`INSERT INTO agent_keys (id, kind, team_id, mode, name, display_prefix, secret_hash, account_id, policy,
                     created_by, created_at)
                   VALUES (${key}, 'spending_key', ${team}, 'test', 'Agent', 'svc_test_x', ${key}, ${account}, '{}', ${user}, now())`
          const merchant = JSON.stringify({ name: "M", category: null, url: null })
          const insertRequest = (status: string, approval: LegacyApproval | null) =>
            Effect.gen(function* () {
              const id = crypto.randomUUID()
              yield* sql`INSERT INTO spend_requests (id, team_id, mode, status, amount, currency, merchant, purpose,
                         account_id, spending_key_id, metadata, decision, approval_id, approval, approval_expires_at,
                         created_at, updated_at)
                       VALUES (${id}, ${team}, 'test', ${status}, 500, 'USD', ${merchant}::jsonb, 'p', ${account},
                         ${key}, '{}'::jsonb, ${JSON.stringify({ outcome: status, reasons: [] })}::jsonb, ${approval?.id ?? null},
                         ${approval === null ? null : JSON.stringify(approval)}::jsonb, ${approval?.expiresAt ?? null},
                         '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')`
              return id
            })
          const pending: LegacyApproval = {
            id: ApprovalId.make(crypto.randomUUID()),
            status: "pending",
            expiresAt: "2026-11-02T00:00:00.000Z",
            decidedAt: null,
            decidedBy: null,
            note: null
          }
          const approved: LegacyApproval = {
            id: ApprovalId.make(crypto.randomUUID()),
            status: "approved",
            expiresAt: "2026-11-02T00:00:00.000Z",
            decidedAt: "2026-11-01T05:00:00.000Z",
            decidedBy: user,
            note: "fine"
          }
          const pendingRequest = yield* insertRequest("pending_approval", pending)
          const approvedRequest = yield* insertRequest("approved", approved)
          const plainRequest = yield* insertRequest("approved", null)

          yield* runMigrations()

          const requests = yield* SpendRequestsRepo
          const read = (id: string) =>
            requests.find(TeamId.make(team), SpendRequestId.make(id)).pipe(Effect.map(Option.getOrThrow))
          // Approvals made before approval chains (migration 0019) need one owner or admin and have no steps.
          const legacy = { ...DEFAULT_APPROVERS, received: 0, decisions: [] }
          assert.deepStrictEqual((yield* read(pendingRequest)).approval, {
            ...pending,
            decidedByName: null,
            approvals: legacy
          })
          assert.deepStrictEqual((yield* read(approvedRequest)).approval, {
            ...approved,
            decidedByName: "owner@example.com",
            approvals: legacy
          })
          assert.isNull((yield* read(plainRequest)).approval)
          const stored = Option.getOrThrow(
            yield* ApprovalsRepo.use((repo) => repo.find(TeamId.make(team), ApprovalId.make(approved.id)))
          )
          assert.strictEqual(stored.subjectType, "spend_request")
          assert.strictEqual(stored.subjectId, approvedRequest)
          const change = yield* Effect.flip(sql`UPDATE approvals SET note = 'changed' WHERE id = ${approved.id}`)
          assert.strictEqual(change._tag, "SqlError")
          const orphan = yield* Effect.flip(
            sql`UPDATE spend_requests SET approval_id = ${crypto.randomUUID()} WHERE id = ${plainRequest}`
          )
          assert.strictEqual(orphan._tag, "SqlError")
        })
    )
  }
)
