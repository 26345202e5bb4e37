import { readFile } from "node:fs/promises"
import { DesktopReleases } from "@svc/adapters-http"
import { DesktopRelease } from "@svc/domain"
import { Config, Effect, Layer, Option, Schema } from "effect"
import { invalid } from "./Values.ts"

const decodeRelease = Schema.decodeUnknownEffect(Schema.fromJsonString(DesktopRelease))

/**
 * The latest desktop release from the JSON file `DESKTOP_RELEASE_FILE` (`{version, notes, pub_date, platforms:
 * {"<target>-<arch>": {url, signature}}}`), read at start; unset, there is none. A file that cannot be read or does
 * not match fails the start with a message naming the variable.
 */
export const desktopReleases = Layer.effect(
  DesktopReleases,
  Effect.gen(function* () {
    const path = yield* Config.option(Config.String("DESKTOP_RELEASE_FILE"))
    if (Option.isNone(path) || path.value === "") return Option.none()
    const text = yield* Effect.tryPromise({
      try: () => readFile(path.value, "utf8"),
      catch: (error) => invalid(`DESKTOP_RELEASE_FILE: cannot read ${path.value}: ${String(error)}`)
    })
    const release = yield* decodeRelease(text).pipe(
      Effect.mapError((error) =>
        invalid(`DESKTOP_RELEASE_FILE: ${path.value} is not a desktop release: ${error.message}`)
      )
    )
    return Option.some(release)
  })
)
