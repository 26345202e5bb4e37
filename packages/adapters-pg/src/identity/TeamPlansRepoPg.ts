import { TeamPlan, TeamPlansRepo } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable } from "../shared/index.ts"

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
        sql`SELECT * FROM team_plans WHERE team_id = ${teamId}`.pipe(
          orUnavailable("teamPlans.find"),
          Effect.flatMap(decodeFirst(TeamPlan, "teamPlans.find"))
        )
    })
  })
)
