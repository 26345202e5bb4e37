import { assert, describe, it } from "@effect/vitest"
import { NOTIFYING_EVENTS, notificationOfEvent } from "@svc/domain"

const event = (type: string, data: Record<string, unknown> = { id: "r1" }) => ({
  id: "e1",
  type,
  mode: "live",
  data
})

describe("notificationOfEvent", () => {
  it("turns each notifying event into its type and priority, naming the event and its resource", () => {
    assert.deepStrictEqual(notificationOfEvent(event("spend_request.approval_required", { id: "sr", amount: 1 })), {
      type: "spend_request_approval_required",
      priority: 1,
      metadata: {
        eventId: "e1",
        eventType: "spend_request.approval_required",
        mode: "live",
        resourceId: "sr",
        resource: { id: "sr", amount: 1 }
      }
    })
    for (const [type, draft] of Object.entries(NOTIFYING_EVENTS)) {
      const data = type === "transfer.created" ? { id: "t", direction: "incoming" } : { id: "x" }
      assert.deepInclude(notificationOfEvent(event(type, data)), draft, type)
      assert.isAtLeast(draft.priority, 1)
      assert.isAtMost(draft.priority, 3, "what a member should see is a user notification (1-3)")
    }
  })

  it("ignores other events, and a transfer's creation on the sender's side", () => {
    for (const type of [
      "spend_request.approved",
      "spend_request.created",
      "transfer.completed",
      "approval.step_recorded"
    ]) {
      assert.isNull(notificationOfEvent(event(type)), type)
    }
    assert.isNull(notificationOfEvent(event("transfer.created", { id: "t", direction: "outgoing" })))
    assert.isNull(notificationOfEvent(event("transfer.created", {})))
  })

  it("names no resource when the event's data has no string id", () => {
    assert.strictEqual(notificationOfEvent(event("bank_connection.disconnected", { id: 7 }))?.metadata.resourceId, null)
  })
})
