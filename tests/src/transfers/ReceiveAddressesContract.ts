import { assert, layer } from "@effect/vitest"
import {
  openReceiveHandle,
  ReceiveAddresses,
  ReceiveHandlesRepo,
  SecureRandom,
  type TeamId,
  UNAMBIGUOUS_ALPHABET
} from "@svc/domain"
import { Effect, type Layer, Option } from "effect"
import { bareTeam, createTeam, type TransfersPorts, transfersOver } from "./TransfersSetup.ts"

const handlePattern = new RegExp(`^[a-z0-9-]+-[${UNAMBIGUOUS_ALPHABET}]{4}$`, "u")

/** Random bytes from a script: call `n` answers bytes all equal to `script[n]` (the last one once the script ends). */
const scriptedRandom = (script: ReadonlyArray<number>) => {
  let call = 0
  return (length: number) =>
    Effect.sync(() => new Uint8Array(length).fill(script[Math.min(call++, script.length - 1)] ?? 0))
}

const ownAddresses = (teamId: TeamId) =>
  ReceiveAddresses.use((addresses) => Effect.all([addresses.own(teamId, "live"), addresses.own(teamId, "test")]))

/** The behaviour receive addresses show on every adapter. */
export const receiveAddressesContract = <E>(name: string, ports: Layer.Layer<TransfersPorts, E>) =>
  layer(transfersOver(ports), { timeout: "60 seconds" })(`receive addresses (${name})`, (it) => {
    it.effect("a new team gets one address per mode, from the slug of its name, with the same handle in both", () =>
      Effect.gen(function* () {
        const team = yield* createTeam("Acme Robotics, Inc.")
        const [live, test] = yield* ownAddresses(team.id)
        const handle = live.address.slice(0, live.address.indexOf("@"))
        assert.match(handle, /^acme-robotics-inc-[23456789a-hjkmnp-z]{4}$/u)
        assert.deepStrictEqual(live, { address: `${handle}@svc`, teamId: team.id, teamName: team.name, mode: "live" })
        assert.deepStrictEqual(test, {
          address: `${handle}@test.svc`,
          teamId: team.id,
          teamName: team.name,
          mode: "test"
        })
        assert.deepStrictEqual(yield* ownAddresses(team.id), [live, test], "the address is stable")
      })
    )

    it.effect("names with nothing usable get the fallback slug; long names are cut to 20 characters", () =>
      Effect.gen(function* () {
        const symbols = yield* createTeam("!!! ???")
        const long = yield* createTeam("Über Extraordinarily Long Company Name")
        const [symbolsLive] = yield* ownAddresses(symbols.id)
        const [longLive] = yield* ownAddresses(long.id)
        assert.match(symbolsLive.address, /^team-[23456789a-hjkmnp-z]{4}@svc$/u)
        assert.match(longLive.address, /^uber-extraordinarily-[23456789a-hjkmnp-z]{4}@svc$/u)
      })
    )

    it.effect("two teams of one name get different addresses", () =>
      Effect.gen(function* () {
        const first = yield* createTeam("Twin")
        const second = yield* createTeam("Twin")
        const [a] = yield* ownAddresses(first.id)
        const [b] = yield* ownAddresses(second.id)
        assert.notStrictEqual(a.address, b.address)
      })
    )

    it.effect("a handle that is taken is drawn again; the store refuses a taken handle and a second handle", () =>
      Effect.gen(function* () {
        const repo = yield* ReceiveHandlesRepo
        const first = yield* bareTeam("Collide")
        const second = yield* bareTeam("Collide")
        const draw = (team: { readonly id: TeamId; readonly name: string }) => openReceiveHandle(repo, team)
        const [a, b] = yield* Effect.all([draw(first), draw(second)]).pipe(
          Effect.provideService(SecureRandom, scriptedRandom([0, 0, 1]))
        )
        assert.strictEqual(a.handle, "collide-2222")
        assert.strictEqual(b.handle, "collide-3333")
        assert.isFalse(yield* repo.insert({ ...b, handle: "collide-4444" }), "one handle per team")
        const third = yield* bareTeam("Collide")
        assert.isFalse(yield* repo.insert({ ...a, teamId: third.id }), "a handle belongs to one team")
        assert.isTrue(Option.isNone(yield* repo.findByTeam(third.id)))
        assert.match(a.handle, handlePattern)
      })
    )

    it.effect("resolves an address in its own mode only, in any case; unknown and malformed ones are not found", () =>
      Effect.gen(function* () {
        const team = yield* createTeam("Resolve Me")
        const addresses = yield* ReceiveAddresses
        const [live, test] = yield* ownAddresses(team.id)
        assert.deepStrictEqual(yield* addresses.resolve("test", test.address), test)
        assert.deepStrictEqual(yield* addresses.resolve("live", live.address), live)
        assert.deepStrictEqual(yield* addresses.resolve("test", test.address.toUpperCase()), test)
        for (const [mode, address] of [
          ["live", test.address],
          ["test", live.address],
          ["test", "resolve-me-zzzz@test.svc"],
          ["test", "not an address"],
          ["live", `${live.address}.evil`]
        ] as const) {
          const refused = yield* Effect.flip(addresses.resolve(mode, address))
          assert.strictEqual(refused._tag, "ReceiveAddressNotFound", `${mode} ${address}`)
        }
      })
    )
  })
