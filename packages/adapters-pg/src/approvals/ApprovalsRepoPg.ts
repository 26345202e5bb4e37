import { Approval, ApprovalProgress, ApprovalsRepo, ApprovalTier, ApprovalView, approvalProgress } from "@svc/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable, selectCount } from "../shared/index.ts"

/** The steps of approval `a` as a JSON array in the order recorded, times in the domain's ISO form. */
const STEPS_OF_A =
  "COALESCE((SELECT jsonb_agg(jsonb_build_object('userId', s.user_id, 'role', s.role, 'decision', s.decision, " +
  "'note', s.note, 'decidedAt', to_char(s.decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')) " +
  "ORDER BY s.seq) FROM approval_steps s WHERE s.approval_id = a.id), '[]'::jsonb)"

const COLUMNS =
  "a.id, a.team_id, a.mode, a.subject_type, a.subject_id, a.status, a.expires_at, a.decided_at, a.decided_by, " +
  "a.note, a.created_at, a.updated_at, a.spending_key_id, a.separate_from, " +
  "jsonb_build_object('required', a.required_approvals, 'roles', a.approver_roles, 'requireOwner', a.require_owner) " +
  `AS approvers, ${STEPS_OF_A} AS decisions`

/** The quorum and steps of approval `a` (null without one), as `JoinedApprovalFields.approvalProgress` reads them. */
export const APPROVAL_PROGRESS_OF_A =
  "CASE WHEN a.id IS NULL THEN NULL ELSE jsonb_build_object('required', a.required_approvals, 'roles', " +
  `a.approver_roles, 'requireOwner', a.require_owner, 'decisions', ${STEPS_OF_A}) END`

/** Who decided approval `a`, as `displayNameOf` names a user: the full name, else the e-mail (null: nobody). */
export const DECIDED_BY_NAME_OF_A = "(SELECT COALESCE(u.full_name, u.email) FROM users u WHERE u.id = a.decided_by)"

/** The columns of a request's approval joined to it as `a` (`LEFT JOIN approvals a`), prefixed `approval_`. */
export const JOINED_APPROVAL_COLUMNS =
  "a.id AS approval_id, a.status AS approval_status, a.expires_at AS approval_expires_at, " +
  "a.decided_at AS approval_decided_at, a.decided_by AS approval_decided_by, a.note AS approval_note, " +
  `${DECIDED_BY_NAME_OF_A} AS approval_decided_by_name, ` +
  `${APPROVAL_PROGRESS_OF_A} AS approval_progress`

/** The row fields of `JOINED_APPROVAL_COLUMNS`: all null when the request has no approval. */
export const JoinedApprovalFields = {
  approvalId: Schema.NullOr(ApprovalView.fields.id),
  approvalStatus: Schema.NullOr(ApprovalView.fields.status),
  approvalExpiresAt: Schema.NullOr(ApprovalView.fields.expiresAt),
  approvalDecidedAt: ApprovalView.fields.decidedAt,
  approvalDecidedBy: ApprovalView.fields.decidedBy,
  approvalDecidedByName: ApprovalView.fields.decidedByName,
  approvalNote: ApprovalView.fields.note,
  approvalProgress: Schema.NullOr(ApprovalProgress.mapFields(({ received: _, ...rest }) => rest))
}

type JoinedApprovalRow = Schema.Struct.Type<typeof JoinedApprovalFields>

/** A row read with `JOINED_APPROVAL_COLUMNS` as the request's own fields and its `approval` (null without one). */
export const withJoinedApproval = <R extends JoinedApprovalRow>({
  approvalId,
  approvalStatus,
  approvalExpiresAt,
  approvalDecidedAt,
  approvalDecidedBy,
  approvalDecidedByName,
  approvalNote,
  approvalProgress: progress,
  ...request
}: R): Omit<R, keyof JoinedApprovalRow> & { readonly approval: ApprovalView | null } => ({
  ...request,
  approval:
    approvalId === null || approvalStatus === null || approvalExpiresAt === null || progress === null
      ? null
      : {
          id: approvalId,
          status: approvalStatus,
          expiresAt: approvalExpiresAt,
          decidedAt: approvalDecidedAt,
          decidedBy: approvalDecidedBy,
          decidedByName: approvalDecidedBy === null ? null : approvalDecidedByName,
          note: approvalNote,
          approvals: approvalProgress(
            { required: progress.required, roles: progress.roles, requireOwner: progress.requireOwner },
            progress.decisions
          )
        }
})

/** An approval as a row of `approvals`, for `sql.insert` (its steps are rows of `approval_steps`). */
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
  updated_at: a.updatedAt,
  required_approvals: a.approvers.required,
  approver_roles: JSON.stringify(a.approvers.roles),
  require_owner: a.approvers.requireOwner,
  spending_key_id: a.spendingKeyId,
  separate_from: a.separateFrom
})

const TiersRow = Schema.Struct({ tiers: Schema.Array(ApprovalTier) })

/**
 * ApprovalsRepo on Postgres; a trigger refuses any change to an approval that is no longer pending, and another any
 * change to a recorded step.
 */
export const ApprovalsRepoPg = Layer.effect(
  ApprovalsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    return ApprovalsRepo.of({
      insert: (a) =>
        sql`INSERT INTO approvals ${sql.insert(approvalRow(a))}`.pipe(Effect.asVoid, orUnavailable("approvals.insert")),
      find: (teamId, id) =>
        sql`SELECT ${columns} FROM approvals a WHERE a.id = ${id} AND a.team_id = ${teamId}`.pipe(
          orUnavailable("approvals.find"),
          Effect.flatMap(decodeFirst(Approval, "approvals.find"))
        ),
      // The steps are read by a statement of their own, after the lock: under READ COMMITTED a statement that waited
      // for the lock still reads through the snapshot it began with, which misses the steps of the transaction it
      // waited for.
      lockPending: (teamId, id) =>
        sql`SELECT id FROM approvals WHERE id = ${id} AND team_id = ${teamId} AND status = 'pending' FOR UPDATE`.pipe(
          Effect.flatMap((locked) =>
            locked.length === 0
              ? Effect.succeed([])
              : sql`SELECT ${columns} FROM approvals a WHERE a.id = ${id} AND a.status = 'pending'`
          ),
          orUnavailable("approvals.lockPending"),
          Effect.flatMap(decodeFirst(Approval, "approvals.lockPending"))
        ),
      insertStep: (teamId, id, step) =>
        sql`INSERT INTO approval_steps ${sql.insert({
          approval_id: id,
          team_id: teamId,
          user_id: step.userId,
          role: step.role,
          decision: step.decision,
          note: step.note,
          decided_at: step.decidedAt
        })}`.pipe(Effect.asVoid, orUnavailable("approvals.insertStep")),
      tiers: (teamId) =>
        sql`SELECT tiers FROM team_approval_rules WHERE team_id = ${teamId}`.pipe(
          orUnavailable("approvals.tiers"),
          Effect.flatMap(decodeFirst(TiersRow, "approvals.tiers")),
          Effect.map(Option.match({ onNone: () => [], onSome: (row) => row.tiers }))
        ),
      setTiers: (teamId, tiers, updatedBy, updatedAt) =>
        sql`INSERT INTO team_approval_rules (team_id, tiers, updated_by, updated_at)
            VALUES (${teamId}, ${JSON.stringify(tiers)}::jsonb, ${updatedBy}, ${updatedAt})
            ON CONFLICT (team_id) DO UPDATE
              SET tiers = EXCLUDED.tiers, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`.pipe(
          Effect.asVoid,
          orUnavailable("approvals.setTiers")
        ),
      decide: (teamId, id, d) =>
        sql`UPDATE approvals a
            SET status = ${d.status}, decided_at = ${d.decidedAt}, decided_by = ${d.decidedBy}, note = ${d.note},
                updated_at = ${d.decidedAt}
            WHERE a.id = ${id} AND a.team_id = ${teamId} AND a.status = 'pending'
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
