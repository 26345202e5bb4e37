import { assert, describe, it } from "@effect/vitest"
import { PortsMemory } from "@svc/adapters-memory"
import { Tags, type TeamId, Tracker, trackedAmountMinor, type UserId } from "@svc/domain"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"

const TrackerMemory = Tracker.layer.pipe(Layer.provideMerge(Tags.layer), Layer.provideMerge(PortsMemory))
const team = crypto.randomUUID() as TeamId
const user = crypto.randomUUID() as UserId

describe("tracker timer and amounts", () => {
  it.effect("stop takes its duration from the Clock, in whole seconds", () =>
    Effect.gen(function* () {
      const tracker = yield* Tracker
      const project = yield* tracker.createProject(team, { name: "Site", billable: true, rate: 90, currency: "USD" })
      yield* TestClock.adjust("1 hour")
      const running = yield* tracker.startTimer(team, user, { projectId: project.id })
      yield* TestClock.adjust("90 minutes")
      yield* TestClock.adjust("999 millis")
      const stopped = yield* tracker.stopTimer(team, user)
      assert.deepStrictEqual([stopped.id, stopped.start, stopped.durationSeconds], [running.id, running.start, 5400])
      assert.strictEqual(stopped.stop, "1970-01-01T02:30:00.999Z")
      const totals = yield* tracker.getProject(team, project.id)
      assert.strictEqual(totals.totalDurationSeconds, 5400)
      assert.strictEqual(trackedAmountMinor(totals, totals.totalDurationSeconds), 13500)
      const again = yield* Effect.flip(tracker.stopTimer(team, user))
      assert.strictEqual(again._tag, "TimerNotRunning")
    }).pipe(Effect.provide(TrackerMemory))
  )

  it("amounts round half away from zero once, and only for billable projects with a rate", () => {
    const billable = (rateMinor: number | null) => ({ billable: true, rateMinor })
    assert.strictEqual(trackedAmountMinor(billable(18), 100), 1)
    assert.strictEqual(trackedAmountMinor(billable(18), 99), 0)
    assert.strictEqual(trackedAmountMinor(billable(3333), 100), 93)
    assert.strictEqual(trackedAmountMinor(billable(999_999_999), 31_622_400), 8_783_999_991_216)
    assert.strictEqual(trackedAmountMinor(billable(null), 3600), 0)
    assert.strictEqual(trackedAmountMinor({ billable: false, rateMinor: 5000 }, 3600), 0)
  })
})
