import { assert, describe, it } from "@effect/vitest"
import {
  approvalExpiresAt,
  DEFAULT_APPROVAL_TTL_SECONDS,
  nextUtcDayStart,
  nextUtcMonthStart,
  utcDayStart,
  utcMonthStart
} from "../../src/spend/model.ts"

const ms = (iso: string) => Date.parse(iso)

const iso = (millis: number) => new Date(millis).toISOString()

describe("UTC budget windows", () => {
  it("puts 23:59:59.999 on the last day of a month in that day and month", () => {
    const t = ms("2024-01-31T23:59:59.999Z")
    assert.strictEqual(iso(utcDayStart(t)), "2024-01-31T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcDayStart(t)), "2024-02-01T00:00:00.000Z")
    assert.strictEqual(iso(utcMonthStart(t)), "2024-01-01T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcMonthStart(t)), "2024-02-01T00:00:00.000Z")
  })

  it("puts 00:00:00.000 on the first of a month in the new day and month", () => {
    const t = ms("2024-02-01T00:00:00.000Z")
    assert.strictEqual(utcDayStart(t), t)
    assert.strictEqual(utcMonthStart(t), t)
    assert.strictEqual(iso(nextUtcDayStart(t)), "2024-02-02T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcMonthStart(t)), "2024-03-01T00:00:00.000Z")
  })

  it("handles the leap day", () => {
    const leapDay = ms("2024-02-29T12:34:56.789Z")
    assert.strictEqual(iso(utcDayStart(leapDay)), "2024-02-29T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcDayStart(leapDay)), "2024-03-01T00:00:00.000Z")
    assert.strictEqual(iso(utcMonthStart(leapDay)), "2024-02-01T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcMonthStart(leapDay)), "2024-03-01T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcDayStart(ms("2024-02-28T23:59:59.999Z"))), "2024-02-29T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcDayStart(ms("2023-02-28T23:59:59.999Z"))), "2023-03-01T00:00:00.000Z")
    assert.strictEqual(iso(utcMonthStart(ms("2024-02-29T23:59:59.999Z"))), "2024-02-01T00:00:00.000Z")
  })

  it("rolls over the year", () => {
    const t = ms("2024-12-31T23:59:59.999Z")
    assert.strictEqual(iso(nextUtcDayStart(t)), "2025-01-01T00:00:00.000Z")
    assert.strictEqual(iso(utcMonthStart(t)), "2024-12-01T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcMonthStart(t)), "2025-01-01T00:00:00.000Z")
  })

  it("handles instants before the epoch and two-digit years", () => {
    assert.strictEqual(iso(utcDayStart(ms("1969-12-31T12:00:00.000Z"))), "1969-12-31T00:00:00.000Z")
    assert.strictEqual(iso(utcDayStart(-1)), "1969-12-31T00:00:00.000Z")
    assert.strictEqual(iso(utcMonthStart(ms("0050-03-15T10:00:00.000Z"))), "0050-03-01T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcMonthStart(ms("0099-12-15T10:00:00.000Z"))), "0100-01-01T00:00:00.000Z")
  })

  it("always brackets the instant: start <= t < next start", () => {
    const start = ms("2023-12-25T00:00:00.000Z")
    for (let t = start; t < start + 500 * 86_400_000; t += 7_777_777) {
      assert.isTrue(utcDayStart(t) <= t && t < nextUtcDayStart(t))
      assert.isTrue(utcMonthStart(t) <= t && t < nextUtcMonthStart(t))
      assert.strictEqual(nextUtcDayStart(t) - utcDayStart(t), 86_400_000)
      assert.strictEqual(new Date(utcMonthStart(t)).getUTCDate(), 1)
      assert.strictEqual(utcMonthStart(nextUtcMonthStart(t) - 1), utcMonthStart(t))
    }
  })
})

describe("approvalExpiresAt", () => {
  const createdAt = ms("2024-03-10T08:00:00.000Z")

  it("defaults to 24 hours", () => {
    assert.strictEqual(DEFAULT_APPROVAL_TTL_SECONDS, 86_400)
    assert.strictEqual(iso(approvalExpiresAt(createdAt, {})), "2024-03-11T08:00:00.000Z")
  })

  it("uses the policy's approvalTtlSeconds", () => {
    assert.strictEqual(iso(approvalExpiresAt(createdAt, { approvalTtlSeconds: 60 })), "2024-03-10T08:01:00.000Z")
    assert.strictEqual(iso(approvalExpiresAt(createdAt, { approvalTtlSeconds: 2_592_000 })), "2024-04-09T08:00:00.000Z")
  })
})
