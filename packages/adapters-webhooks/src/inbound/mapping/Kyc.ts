import { KycDecisionReceived, type KycStatus } from "@svc/domain"
import { Result, Schema } from "effect"
import { decodePart, type EventMapping, Ignored } from "./EventMapping.ts"

/** KYC event data: the managed entity the event is about, plus the provider's verdict fields. */
const KycData = Schema.Struct({
  entity_id: Schema.String.check(Schema.isUUID(undefined, { message: "expected a UUID" })),
  review_answer: Schema.optionalKey(Schema.Literals(["GREEN", "RED"])),
  status: Schema.optionalKey(Schema.String),
  result: Schema.optionalKey(Schema.String)
})
type KycData = typeof KycData.Type

/** The status an event's data reports; undefined when this event carries no verdict. */
type Verdict = (data: KycData) => KycStatus | undefined

const kycEvents = (verdicts: ReadonlyArray<readonly [type: string, Verdict]>): EventMapping => {
  const byType = new Map(verdicts)
  return (event) => {
    const verdict = byType.get(event.type)
    if (verdict === undefined) return Result.succeed(Ignored)
    return decodePart(
      KycData,
      "KYC data"
    )(event.payload.data).pipe(
      Result.map((data) => {
        const status = verdict(data)
        return status === undefined
          ? Ignored
          : new KycDecisionReceived({ provider: event.endpoint, entityId: data.entity_id, status })
      })
    )
  }
}

const always = (status: KycStatus) => () => status

const lookup = (table: ReadonlyArray<readonly [string, KycStatus]>) => {
  const byKey = new Map(table)
  return (key: string | undefined) => (key === undefined ? undefined : byKey.get(key))
}

const kycAReview = lookup([
  ["GREEN", "approved"],
  ["RED", "rejected"]
])

/** kyc-a: a reviewed applicant is approved (GREEN) or rejected (RED); pending and on-hold applicants wait. */
export const kycAEvents = kycEvents([
  ["applicantReviewed", (data) => kycAReview(data.review_answer)],
  ["applicantPending", always("pending")],
  ["applicantOnHold", always("in_review")]
])

const kycBDecision = lookup([
  ["approved", "approved"],
  ["declined", "rejected"],
  ["resubmission_requested", "pending"],
  ["review", "in_review"]
])

/** kyc-b: a `decision` carries the status (approved, declined, resubmission requested, review). */
export const kycBEvents = kycEvents([["decision", (data) => kycBDecision(data.status)]])

/** kyc-c: the inquiry's lifecycle event is the status. */
export const kycCEvents = kycEvents([
  ["inquiry.created", always("pending")],
  ["inquiry.completed", always("in_review")],
  ["inquiry.approved", always("approved")],
  ["inquiry.declined", always("rejected")],
  ["inquiry.failed", always("rejected")]
])

const kycDResult = lookup([
  ["clear", "approved"],
  ["consider", "in_review"]
])

/** kyc-d: a started check is pending; a completed one is approved when clear and in review when to consider. */
export const kycDEvents = kycEvents([
  ["check.started", always("pending")],
  ["check.completed", (data) => kycDResult(data.result)]
])
