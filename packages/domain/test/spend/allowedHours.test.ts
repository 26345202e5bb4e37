import { assert, describe, it } from "@effect/vitest"
import { Result, Schema, SchemaIssue } from "effect"
import { AllowedHours, checkAllowedHours, type Weekday } from "../../src/spend/AllowedHours.ts"

const ms = (iso: string) => Date.parse(iso)
const iso = (millis: number) => new Date(millis).toISOString()

const hours = (timezone: string, days: ReadonlyArray<Weekday>, from: string, to: string): AllowedHours =>
  Schema.decodeUnknownSync(AllowedHours)({ timezone, days, from, to })

const WEEKDAYS: ReadonlyArray<Weekday> = ["mon", "tue", "wed", "thu", "fri"]

describe("checkAllowedHours", () => {
  const cases: ReadonlyArray<{
    readonly name: string
    readonly hours: AllowedHours
    readonly now: string
    readonly inside: boolean
    readonly next?: string
  }> = [
    {
      name: "inside office hours in Paris (13:00 CET on a Wednesday)",
      hours: hours("Europe/Paris", WEEKDAYS, "09:00", "17:00"),
      now: "2024-03-13T12:00:00.000Z",
      inside: true
    },
    {
      name: "at the start of the window (inclusive)",
      hours: hours("Europe/Paris", WEEKDAYS, "09:00", "17:00"),
      now: "2024-03-13T08:00:00.000Z",
      inside: true
    },
    {
      name: "at the end of the window (exclusive): the next day's start",
      hours: hours("Europe/Paris", WEEKDAYS, "09:00", "17:00"),
      now: "2024-03-13T16:00:00.000Z",
      inside: false,
      next: "2024-03-14T08:00:00.000Z"
    },
    {
      name: "a minute before the start",
      hours: hours("Europe/Paris", WEEKDAYS, "09:00", "17:00"),
      now: "2024-03-13T07:59:00.000Z",
      inside: false,
      next: "2024-03-13T08:00:00.000Z"
    },
    {
      name: "Friday evening waits for Monday",
      hours: hours("Europe/Paris", WEEKDAYS, "09:00", "17:00"),
      now: "2024-03-15T17:00:00.000Z",
      inside: false,
      next: "2024-03-18T08:00:00.000Z"
    },
    {
      name: "across the spring clock change, Monday opens at 09:00 summer time",
      hours: hours("Europe/Paris", WEEKDAYS, "09:00", "17:00"),
      now: "2024-03-29T18:00:00.000Z",
      inside: false,
      next: "2024-04-01T07:00:00.000Z"
    },
    {
      name: "a start skipped by the clock change opens at the change",
      hours: hours("Europe/Paris", ["sun"], "02:30", "05:00"),
      now: "2024-03-30T12:00:00.000Z",
      inside: false,
      next: "2024-03-31T01:00:00.000Z"
    },
    {
      name: "an overnight window belongs to the day it starts on (Friday night, Saturday 03:00 New York)",
      hours: hours("America/New_York", ["fri"], "22:00", "06:00"),
      now: "2024-03-16T07:00:00.000Z",
      inside: true
    },
    {
      name: "an overnight window's end",
      hours: hours("America/New_York", ["fri"], "22:00", "06:00"),
      now: "2024-03-16T10:00:00.000Z",
      inside: false,
      next: "2024-03-23T02:00:00.000Z"
    },
    {
      name: "a whole day: 00:00 to 24:00",
      hours: hours("UTC", ["sun"], "00:00", "24:00"),
      now: "2024-03-16T23:59:59.999Z",
      inside: false,
      next: "2024-03-17T00:00:00.000Z"
    },
    {
      name: "the last minute of a whole day",
      hours: hours("UTC", ["sun"], "00:00", "24:00"),
      now: "2024-03-17T23:59:59.999Z",
      inside: true
    },
    {
      name: "a half-hour offset (Kolkata, UTC+05:30)",
      hours: hours("Asia/Kolkata", ["mon"], "09:00", "10:00"),
      now: "2024-03-17T00:00:00.000Z",
      inside: false,
      next: "2024-03-18T03:30:00.000Z"
    },
    {
      name: "the window of the same day already passed: a week later",
      hours: hours("UTC", ["wed"], "09:00", "10:00"),
      now: "2024-03-13T10:00:00.000Z",
      inside: false,
      next: "2024-03-20T09:00:00.000Z"
    }
  ]
  for (const c of cases) {
    it(c.name, () => {
      const check = checkAllowedHours(c.hours, ms(c.now))
      assert.strictEqual(check.inside, c.inside)
      assert.strictEqual(iso(check.nextAllowedAt), c.next ?? c.now)
    })
  }

  const ZONES = ["UTC", "Asia/Kolkata", "Asia/Tokyo", "Etc/GMT+5", "America/Sao_Paulo"] as const
  const formatters = new Map(
    ZONES.map((zone) => [
      zone,
      new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        weekday: "short",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23"
      })
    ])
  )
  /** Wall-clock oracle for zones without clock changes: read the local weekday and minute with Intl. */
  const wallInside = (h: AllowedHours, millis: number): boolean => {
    const formatter = formatters.get(h.timezone as (typeof ZONES)[number])
    if (formatter === undefined) throw new Error(`no formatter for ${h.timezone}`)
    const parts = Object.fromEntries(formatter.formatToParts(new Date(millis)).map((p) => [p.type, p.value]))
    const days = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    const day = days.indexOf(String(parts.weekday).toLowerCase().slice(0, 3))
    const minute = Number(parts.hour) * 60 + Number(parts.minute)
    const toMinute = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5))
    const [from, to] = [toMinute(h.from), toMinute(h.to)]
    const on = (d: number) => h.days.includes(days[(d + 7) % 7] as Weekday)
    if (to > from) return on(day) && minute >= from && minute < to
    return (on(day) && minute >= from) || (on(day - 1) && minute < to)
  }

  const Quarter = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 95 }))
  const time = (quarter: number) =>
    `${String(Math.floor(quarter / 4)).padStart(2, "0")}:${String((quarter % 4) * 15).padStart(2, "0")}`

  it.prop(
    "agrees with the wall clock, and the next allowed time is allowed and the first such moment (15-minute steps)",
    {
      zone: Schema.Literals(ZONES),
      days: Schema.Array(Schema.Literals(["mon", "tue", "wed", "thu", "fri", "sat", "sun"])).check(
        Schema.isMinLength(1)
      ),
      from: Quarter,
      to: Quarter,
      now: Schema.Int.check(Schema.isBetween({ minimum: 1_700_000_000_000, maximum: 1_800_000_000_000 }))
    },
    ({ zone, days, from, to, now }) => {
      if (from === to) return
      const h: AllowedHours = { timezone: zone, days: [...new Set(days)], from: time(from), to: time(to) }
      const check = checkAllowedHours(h, now)
      assert.strictEqual(check.inside, wallInside(h, now))
      if (check.inside) return assert.strictEqual(check.nextAllowedAt, now)
      assert.isAbove(check.nextAllowedAt, now)
      assert.isTrue(wallInside(h, check.nextAllowedAt))
      assert.isTrue(checkAllowedHours(h, check.nextAllowedAt).inside)
      assert.isFalse(wallInside(h, check.nextAllowedAt - 1))
      const quarter = 900_000
      for (let t = Math.ceil(now / quarter) * quarter; t < check.nextAllowedAt; t += quarter) {
        assert.isFalse(wallInside(h, t), `allowed at ${iso(t)}, before ${iso(check.nextAllowedAt)}`)
      }
    }
  )

  it.prop(
    "in zones with clock changes, the next allowed time is allowed and the moment before it is not",
    {
      zone: Schema.Literals(["Europe/Paris", "America/New_York", "Australia/Sydney", "America/Santiago"]),
      day: Schema.Literals(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]),
      from: Quarter,
      to: Quarter,
      now: Schema.Int.check(Schema.isBetween({ minimum: 1_700_000_000_000, maximum: 1_800_000_000_000 }))
    },
    ({ zone, day, from, to, now }) => {
      if (from === to) return
      const h: AllowedHours = { timezone: zone, days: [day], from: time(from), to: time(to) }
      const check = checkAllowedHours(h, now)
      if (check.inside) return assert.strictEqual(check.nextAllowedAt, now)
      assert.isAbove(check.nextAllowedAt, now)
      assert.isBelow(check.nextAllowedAt - now, 8 * 86_400_000)
      assert.isTrue(checkAllowedHours(h, check.nextAllowedAt).inside)
      assert.isFalse(checkAllowedHours(h, check.nextAllowedAt - 1).inside)
    }
  )
})

const issues = (input: unknown) => {
  const result = Schema.decodeUnknownResult(AllowedHours)(input, { errors: "all" })
  if (Result.isSuccess(result)) return assert.fail(`expected ${JSON.stringify(input)} to be rejected`)
  return SchemaIssue.makeFormatterStandardSchemaV1()(result.failure.issue).issues.map((issue) => ({
    path: issue.path?.map((segment) => (typeof segment === "object" ? segment.key : segment)),
    message: issue.message
  }))
}

describe("AllowedHours schema", () => {
  const ok = { timezone: "Europe/Paris", days: ["mon"], from: "09:00", to: "17:00" }

  it("accepts IANA zones, UTC, overnight windows and 24:00", () => {
    for (const timezone of ["UTC", "America/Argentina/Buenos_Aires", "Etc/GMT+5", "America/Port-au-Prince"]) {
      assert.isTrue(Schema.is(AllowedHours)({ ...ok, timezone }), timezone)
    }
    assert.isTrue(Schema.is(AllowedHours)({ ...ok, from: "22:00", to: "06:00" }))
    assert.isTrue(Schema.is(AllowedHours)({ ...ok, from: "00:00", to: "24:00" }))
  })

  it("rejects unknown and non-IANA time zones, naming the field", () => {
    assert.deepStrictEqual(issues({ ...ok, timezone: "Mars/Olympus_Mons" }), [
      { path: ["timezone"], message: 'unknown IANA time zone "Mars/Olympus_Mons"' }
    ])
    for (const timezone of ["+01:00", "CET1", "", "Europe/../Paris"]) {
      const found = issues({ ...ok, timezone })
      assert.isAbove(found.length, 0, timezone)
      for (const issue of found) assert.deepStrictEqual(issue.path, ["timezone"], timezone)
    }
  })

  it("rejects bad days, times and an empty window", () => {
    assert.deepStrictEqual(issues({ ...ok, days: [] }), [{ path: ["days"], message: "expected at least one day" }])
    assert.deepStrictEqual(issues({ ...ok, days: ["mon", "mon"] }), [
      { path: ["days"], message: "expected distinct days" }
    ])
    assert.deepStrictEqual(
      issues({ ...ok, days: ["monday"] }).map((i) => i.path),
      [["days", 0]]
    )
    assert.deepStrictEqual(issues({ ...ok, from: "24:00" }), [
      { path: ["from"], message: 'expected a time of day "HH:MM" from "00:00" to "23:59"' }
    ])
    assert.deepStrictEqual(issues({ ...ok, to: "9:00" }), [
      { path: ["to"], message: 'expected a time of day "HH:MM" from "00:00" to "24:00"' }
    ])
    assert.deepStrictEqual(issues({ ...ok, from: "10:00", to: "10:00" }), [
      { path: [], message: "expected from and to to differ (use from 00:00 to 24:00 for the whole day)" }
    ])
  })
})
