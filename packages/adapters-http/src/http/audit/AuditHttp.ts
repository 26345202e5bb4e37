import { AuditLog, auditEntryView, Teams, toPage } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { currentTeamAsAdmin as adminTeamOf, listPaging, orServiceUnavailable } from "../shared/index.ts"

const EPOCH = "1970-01-01T00:00:00.000Z"

export const AuditHttp = HttpApiBuilder.group(Api, "audit", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const audit = yield* AuditLog
    const currentTeamAsAdmin = adminTeamOf(yield* Teams, "read the audit log")

    return handlers
      .handle("listAuditEntries", ({ query }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          const scope = `audit:${team.id}`
          const page = yield* pageOf(scope, query)
          const rows = (yield* audit.list(team.id, page)).map((entry) => {
            const view = auditEntryView(entry)
            return { view, id: entry.id, createdAt: view.at === "" ? EPOCH : view.at }
          })
          return yield* signedPage(
            scope,
            toPage(page, rows, (row) => row.view)
          )
        }).pipe(orServiceUnavailable)
      )
      .handle("verifyAudit", () =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return yield* audit.verify(team.id)
        }).pipe(orServiceUnavailable)
      )
  })
)
