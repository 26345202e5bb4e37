import { type TeamId, TeamPlansRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { iso, orUnavailable } from "../shared/index.ts"

/** TeamPlansRepo on Postgres. */
export const TeamPlansRepoPg = Layer.effect(
  TeamPlansRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return TeamPlansRepo.of({
      upsert: (p) =>
        sql`INSERT INTO team_plans (team_id, plan, status, updated_at)
            VALUES (${p.teamId}, ${p.plan}, ${p.status}, ${p.updatedAt})
            ON CONFLICT (team_id) DO UPDATE SET plan = EXCLUDED.plan, status = EXCLUDED.status,
                                                updated_at = EXCLUDED.updated_at`.pipe(
          Effect.asVoid,
          orUnavailable("teamPlans.upsert")
        ),
      find: (teamId) =>
        sql<{ teamId: string; plan: string; status: string; updatedAt: Date }>`
          SELECT * FROM team_plans WHERE team_id = ${teamId}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullishOr(rows[0]), (r) => ({
              teamId: r.teamId as TeamId,
              plan: r.plan,
              status: r.status,
              updatedAt: iso(r.updatedAt)
            }))
          ),
          orUnavailable("teamPlans.find")
        )
    })
  })
)
