import { Approval, ApprovalsRepo, ApprovalView } from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable, selectCount } from "../shared/index.ts"

const COLUMNS =
  "id, team_id, mode, subject_type, subject_id, status, expires_at, decided_at, decided_by, note, created_at, updated_at"

/** The columns of a request's approval joined to it as `a` (`LEFT JOIN approvals a`), prefixed `approval_`. */
export const JOINED_APPROVAL_COLUMNS =
  "a.id AS approval_id, a.status AS approval_status, a.expires_at AS approval_expires_at, " +
  "a.decided_at AS approval_decided_at, a.decided_by AS approval_decided_by, a.note AS approval_note"

/** The row fields of `JOINED_APPROVAL_COLUMNS`: all null when the request has no approval. */
export const JoinedApprovalFields = {
  approvalId: Schema.NullOr(ApprovalView.fields.id),
  approvalStatus: Schema.NullOr(ApprovalView.fields.status),
  approvalExpiresAt: Schema.NullOr(ApprovalView.fields.expiresAt),
  approvalDecidedAt: ApprovalView.fields.decidedAt,
  approvalDecidedBy: ApprovalView.fields.decidedBy,
  approvalNote: ApprovalView.fields.note
}

type JoinedApprovalRow = Schema.Struct.Type<typeof JoinedApprovalFields>

/** A row read with `JOINED_APPROVAL_COLUMNS` as the request's own fields and its `approval` (null without one). */
export const withJoinedApproval = <R extends JoinedApprovalRow>({
  approvalId,
  approvalStatus,
  approvalExpiresAt,
  approvalDecidedAt,
  approvalDecidedBy,
  approvalNote,
  ...request
}: R): Omit<R, keyof JoinedApprovalRow> & { readonly approval: ApprovalView | null } => ({
  ...request,
  approval:
    approvalId === null || approvalStatus === null || approvalExpiresAt === null
      ? null
      : {
          id: approvalId,
          status: approvalStatus,
          expiresAt: approvalExpiresAt,
          decidedAt: approvalDecidedAt,
          decidedBy: approvalDecidedBy,
          note: approvalNote
        }
})

/** An approval as a row of `approvals`, for `sql.insert`. */
export const approvalRow = (a: Approval): Record<string, unknown> => ({
  id: a.id,
  team_id: a.teamId,
  mode: a.mode,
  subject_type: a.subjectType,
  subject_id: a.subjectId,
  status: a.status,
  expires_at: a.expiresAt,
  decided_at: a.decidedAt,
  decided_by: a.decidedBy,
  note: a.note,
  created_at: a.createdAt,
  updated_at: a.updatedAt
})

/** ApprovalsRepo on Postgres; a trigger refuses any change to an approval that is no longer pending. */
export const ApprovalsRepoPg = Layer.effect(
  ApprovalsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    return ApprovalsRepo.of({
      insert: (a) =>
        sql`INSERT INTO approvals ${sql.insert(approvalRow(a))}`.pipe(Effect.asVoid, orUnavailable("approvals.insert")),
      find: (teamId, id) =>
        sql`SELECT ${columns} FROM approvals WHERE id = ${id} AND team_id = ${teamId}`.pipe(
          orUnavailable("approvals.find"),
          Effect.flatMap(decodeFirst(Approval, "approvals.find"))
        ),
      decide: (teamId, id, d) =>
        sql`UPDATE approvals
            SET status = ${d.status}, decided_at = ${d.decidedAt}, decided_by = ${d.decidedBy}, note = ${d.note},
                updated_at = ${d.decidedAt}
            WHERE id = ${id} AND team_id = ${teamId} AND status = 'pending'
            RETURNING ${columns}`.pipe(
          orUnavailable("approvals.decide"),
          Effect.flatMap(decodeFirst(Approval, "approvals.decide"))
        ),
      countPending: selectCount(sql, sql`SELECT count(*) AS count FROM approvals WHERE status = 'pending'`).pipe(
        orUnavailable("approvals.countPending")
      )
    })
  })
)
