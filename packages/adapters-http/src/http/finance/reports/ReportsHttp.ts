import {
  type InvalidReportQuery,
  type PersistenceUnavailable,
  type ReportQuery,
  Reports,
  type TeamId
} from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { badRequest, CurrentTeamPrincipal, forbidden } from "../../../api/shared/index.ts"
import { orServiceUnavailable } from "../../shared/index.ts"

const invalidQuery = (e: InvalidReportQuery) =>
  Effect.fail(badRequest("validation_failed", e.message, [{ path: `query.${e.field}`, message: e.message }]))

export const ReportsHttp = HttpApiBuilder.group(Api, "reports", (handlers) =>
  Effect.gen(function* () {
    const reports = yield* Reports
    const answer =
      <A>(run: (teamId: TeamId, query: ReportQuery) => Effect.Effect<A, InvalidReportQuery | PersistenceUnavailable>) =>
      ({ query }: { readonly query: ReportQuery }) =>
        Effect.gen(function* () {
          const principal = yield* CurrentTeamPrincipal
          if (principal.teamId === null) return yield* forbidden("team_required", "create a team first (POST /teams)")
          return yield* run(principal.teamId, query).pipe(Effect.catchTag("InvalidReportQuery", invalidQuery))
        }).pipe(orServiceUnavailable)
    return handlers
      .handle("revenue", answer(reports.revenue))
      .handle("profit", answer(reports.profit))
      .handle("burnRate", answer(reports.burnRate))
      .handle("runway", answer(reports.runway))
      .handle("expenses", answer(reports.expenses))
      .handle("spending", answer(reports.spending))
  })
)
