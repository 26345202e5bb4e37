import { describe, expect, it } from "@effect/vitest"
import { databaseConfig, serviceConfig } from "@svc/api"
import { ConfigProvider, Duration, Effect, Exit, Option } from "effect"

const read = <A, E>(config: Effect.Effect<A, E>, env: Record<string, string>) =>
  Effect.runPromiseExit(config.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))))

const SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
const REPLICA = "postgres://postgres@127.0.0.1:5434/postgres"

describe("DATABASE_READ_URL", () => {
  it("is none unless set: every read on the primary, and no read-after-write window", async () => {
    const database = await read(databaseConfig, { DATABASE_URL: SERVER })
    expect(Exit.isSuccess(database) && Option.isNone(database.value.readUrl)).toBe(true)
    const service = await read(serviceConfig, { DATABASE_URL: SERVER })
    expect(Exit.isSuccess(service) && service.value.readAfterWrite).toBeUndefined()
  })

  it("with DATABASE_URL, names the replica; the read-after-write window is 10 s unless set", async () => {
    const database = await read(databaseConfig, { DATABASE_URL: SERVER, DATABASE_READ_URL: REPLICA })
    expect(Exit.isSuccess(database) && Option.isSome(database.value.readUrl)).toBe(true)
    const service = await read(serviceConfig, { DATABASE_URL: SERVER, DATABASE_READ_URL: REPLICA })
    expect(Exit.isSuccess(service) && Duration.toMillis(service.value.readAfterWrite ?? Duration.zero)).toBe(10_000)
    const shorter = await read(serviceConfig, {
      DATABASE_URL: SERVER,
      DATABASE_READ_URL: REPLICA,
      DATABASE_READ_AFTER_WRITE_SECONDS: "3"
    })
    expect(Exit.isSuccess(shorter) && Duration.toMillis(shorter.value.readAfterWrite ?? Duration.zero)).toBe(3_000)
  })

  it("is refused without DATABASE_URL, naming both variables", async () => {
    const exit = await read(databaseConfig, { DATABASE_READ_URL: REPLICA })
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain("DATABASE_READ_URL needs DATABASE_URL")
  })

  it.each(["-1", "3601", "soon"])("refuses a read-after-write window of %j, naming the variable", async (value) => {
    const exit = await read(serviceConfig, {
      DATABASE_URL: SERVER,
      DATABASE_READ_URL: REPLICA,
      DATABASE_READ_AFTER_WRITE_SECONDS: value
    })
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(exit)).toContain("DATABASE_READ_AFTER_WRITE_SECONDS")
  })
})
