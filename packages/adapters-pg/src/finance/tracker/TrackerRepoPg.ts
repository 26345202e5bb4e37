import { TrackerCustomer, TrackerEntry, TrackerProject, TrackerRepo, TrackerTag } from "@svc/domain"
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable, SafeIntegerColumn } from "../../shared/index.ts"

const { tagIds: _tagIds, ...projectColumns } = TrackerProject.fields

const ProjectRow = Schema.Struct({
  ...projectColumns,
  rateMinor: Schema.NullOr(SafeIntegerColumn),
  customer: Schema.NullOr(TrackerCustomer),
  tags: Schema.Array(TrackerTag),
  totalDurationSeconds: SafeIntegerColumn
})

const IdRow = Schema.Struct({ id: Schema.String })

const PROJECT_SELECT = `
  SELECT p.id, p.team_id, p.name, p.description, p.status, p.billable, p.rate_minor, p.currency, p.estimate,
    p.customer_id, p.created_at, p.updated_at,
    CASE WHEN c.id IS NULL THEN NULL
      ELSE json_build_object('id', c.id, 'name', c.name, 'website', coalesce(c.website, '')) END AS customer,
    coalesce((SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.name, t.id)
              FROM tracker_project_tags pt JOIN tags t ON t.id = pt.tag_id
              WHERE pt.project_id = p.id), '[]'::json) AS tags,
    coalesce((SELECT sum(e.duration_seconds) FROM tracker_entries e
              WHERE e.team_id = p.team_id AND e.project_id = p.id), 0) AS total_duration_seconds
  FROM tracker_projects p LEFT JOIN customers c ON c.id = p.customer_id AND c.team_id = p.team_id`

const details = (row: typeof ProjectRow.Type) => ({ ...row, tagIds: row.tags.map((t) => t.id) })

/** TrackerRepo on Postgres. */
export const TrackerRepoPg = Layer.effect(
  TrackerRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const changed = (operation: string) => (rows: ReadonlyArray<Readonly<Record<string, unknown>>>) =>
      decodeRows(IdRow, operation)(rows).pipe(Effect.map((decoded) => decoded.length > 0))
    const projects = (operation: string) => (rows: ReadonlyArray<Readonly<Record<string, unknown>>>) =>
      decodeRows(ProjectRow, operation)(rows).pipe(Effect.map((decoded) => decoded.map(details)))
    const setTags = (p: TrackerProject) =>
      Effect.gen(function* () {
        yield* sql`DELETE FROM tracker_project_tags WHERE project_id = ${p.id}`
        const links = p.tagIds.map(
          (tagId): Record<string, unknown> => ({ team_id: p.teamId, project_id: p.id, tag_id: tagId })
        )
        if (Arr.isReadonlyArrayNonEmpty(links)) yield* sql`INSERT INTO tracker_project_tags ${sql.insert(links)}`
      })
    const entryRow = (e: TrackerEntry): Record<string, unknown> => ({
      id: e.id,
      team_id: e.teamId,
      project_id: e.projectId,
      user_id: e.userId,
      start: e.start,
      stop: e.stop,
      duration_seconds: e.durationSeconds,
      description: e.description,
      created_at: e.createdAt,
      updated_at: e.updatedAt
    })
    return TrackerRepo.of({
      insertProject: (p) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO tracker_projects (id, team_id, name, description, status, billable, rate_minor,
                           currency, estimate, customer_id, created_at, updated_at)
                         VALUES (${p.id}, ${p.teamId}, ${p.name}, ${p.description}, ${p.status}, ${p.billable},
                           ${p.rateMinor}, ${p.currency}, ${p.estimate}, ${p.customerId}, ${p.createdAt},
                           ${p.updatedAt})`
              yield* setTags(p)
            })
          )
          .pipe(orUnavailable("tracker.insertProject")),
      findProject: (teamId, id) =>
        sql`${sql.unsafe(PROJECT_SELECT)} WHERE p.team_id = ${teamId} AND p.id = ${id}`.pipe(
          orUnavailable("tracker.findProject"),
          Effect.flatMap(decodeFirst(ProjectRow, "tracker.findProject")),
          Effect.map(Option.map(details))
        ),
      listProjects: (teamId, page) =>
        sql`${sql.unsafe(PROJECT_SELECT)} WHERE p.team_id = ${teamId}
          ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (after) => sql`AND (p.created_at, p.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
          })}
          ORDER BY p.created_at DESC, p.id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("tracker.listProjects"),
          Effect.flatMap(projects("tracker.listProjects"))
        ),
      updateProject: (p) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const rows = yield* sql`UPDATE tracker_projects SET name = ${p.name}, description = ${p.description},
                  status = ${p.status}, billable = ${p.billable}, rate_minor = ${p.rateMinor},
                  currency = ${p.currency}, estimate = ${p.estimate}, customer_id = ${p.customerId},
                  updated_at = ${p.updatedAt}
                WHERE id = ${p.id} AND team_id = ${p.teamId} RETURNING id`
              if (rows.length > 0) yield* setTags(p)
              return rows
            })
          )
          .pipe(orUnavailable("tracker.updateProject"), Effect.flatMap(changed("tracker.updateProject"))),
      deleteProject: (teamId, id) =>
        sql`DELETE FROM tracker_projects WHERE id = ${id} AND team_id = ${teamId} RETURNING id`.pipe(
          orUnavailable("tracker.deleteProject"),
          Effect.flatMap(changed("tracker.deleteProject"))
        ),
      insertEntries: (entries) => {
        const rows = entries.map(entryRow)
        return Arr.isReadonlyArrayNonEmpty(rows)
          ? sql`INSERT INTO tracker_entries ${sql.insert(rows)}`.pipe(
              Effect.asVoid,
              orUnavailable("tracker.insertEntries")
            )
          : Effect.void
      },
      startTimer: (e) =>
        sql`INSERT INTO tracker_entries ${sql.insert(entryRow(e))} ON CONFLICT DO NOTHING RETURNING id`.pipe(
          orUnavailable("tracker.startTimer"),
          Effect.flatMap(changed("tracker.startTimer"))
        ),
      runningEntry: (teamId, userId) =>
        sql`SELECT * FROM tracker_entries WHERE team_id = ${teamId} AND user_id = ${userId} AND stop IS NULL`.pipe(
          orUnavailable("tracker.runningEntry"),
          Effect.flatMap(decodeFirst(TrackerEntry, "tracker.runningEntry"))
        ),
      findEntry: (teamId, id) =>
        sql`SELECT * FROM tracker_entries WHERE team_id = ${teamId} AND id = ${id}`.pipe(
          orUnavailable("tracker.findEntry"),
          Effect.flatMap(decodeFirst(TrackerEntry, "tracker.findEntry"))
        ),
      listEntries: (teamId, range, page) =>
        sql`SELECT * FROM tracker_entries WHERE team_id = ${teamId}
          AND start >= ${range.startFrom}::timestamptz AND start < ${range.startBefore}::timestamptz
          ${range.projectId === null ? sql`` : sql`AND project_id = ${range.projectId}`}
          ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (after) => sql`AND (start, id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
          })}
          ORDER BY start DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("tracker.listEntries"),
          Effect.flatMap(decodeRows(TrackerEntry, "tracker.listEntries"))
        ),
      updateEntry: (e, runningOnly) =>
        sql`UPDATE tracker_entries SET project_id = ${e.projectId}, start = ${e.start}, stop = ${e.stop},
              duration_seconds = ${e.durationSeconds}, description = ${e.description}, updated_at = ${e.updatedAt}
            WHERE id = ${e.id} AND team_id = ${e.teamId} ${runningOnly ? sql`AND stop IS NULL` : sql``}
            RETURNING id`.pipe(orUnavailable("tracker.updateEntry"), Effect.flatMap(changed("tracker.updateEntry"))),
      deleteEntry: (teamId, id) =>
        sql`DELETE FROM tracker_entries WHERE id = ${id} AND team_id = ${teamId} RETURNING id`.pipe(
          orUnavailable("tracker.deleteEntry"),
          Effect.flatMap(changed("tracker.deleteEntry"))
        )
    })
  })
)
