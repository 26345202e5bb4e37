import { AuditEntryView, AuditVerification } from "@svc/domain/model"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { CommonErrors, Forbidden, ListOf, ListQuery, SessionAuth } from "../shared/index.ts"

const errors = [...CommonErrors, Forbidden] as const

/** An entry of the team's audit log. */
export const AuditEntryResponse = AuditEntryView

/** The answer of verifying the team's audit chain. */
export const AuditVerificationResponse = AuditVerification

/** The team's tamper-evident audit log: session only, owners and admins. */
export class AuditApi extends HttpApiGroup.make("audit")
  .add(
    HttpApiEndpoint.get("listAuditEntries", "/treasury/audit", {
      query: ListQuery,
      success: ListOf(AuditEntryResponse),
      error: errors
    })
      .annotate(OpenApi.Summary, "List the audit log")
      .annotate(
        OpenApi.Description,
        "The team's audit log, newest first: every decision, approval, policy version, key change and freeze, in " +
          "both modes. Entries are hash-chained: `hash` is the hex SHA-256 of the UTF-8 bytes of `prevHash` followed by " +
          "the entry's canonical content, and `prevHash` is the previous entry's `hash` (64 zeros for the first). The " +
          "database refuses to change or delete an entry."
      ),
    HttpApiEndpoint.get("verifyAudit", "/treasury/audit/verify", {
      success: AuditVerificationResponse,
      error: errors
    })
      .annotate(OpenApi.Summary, "Verify the audit log")
      .annotate(
        OpenApi.Description,
        "Recomputes the team's chain from its first entry and answers `valid`, how many entries were checked, the " +
          "head, and `firstBroken`: the first entry whose link or hash does not hold (`hash_mismatch`, " +
          "`prev_hash_mismatch`, `seq_gap`, `missing_entries`), or null."
      )
  )
  .middleware(SessionAuth) {}
