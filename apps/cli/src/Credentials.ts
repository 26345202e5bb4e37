import { homedir } from "node:os"
import { DEFAULT_PORT, localServiceUrl } from "@svc/domain/model"
import { Config, Effect, FileSystem, Option, Path, Schema } from "effect"
import { type CliExit, ExitCode, failure, usage } from "./Failure.ts"

/** Where the service is and the bearer credential (a spending key, team API key or session token) to call it with. */
export interface Credentials {
  readonly baseUrl: string
  readonly token: string
}

/** Where the service's URL comes from when nothing names it, as `--help` says it. */
export const baseUrlHelp =
  "--base-url where a command takes it, else SVC_BASE_URL, else the stored login's, else the " +
  `server's own default on this machine, http://localhost:$PORT (PORT as the server reads it, ${DEFAULT_PORT} unless set)`

const Stored = Schema.Struct({ baseUrl: Schema.String, token: Schema.String })
const decodeStored = Schema.decodeUnknownOption(Schema.fromJsonString(Stored))

/** The credentials file: `$XDG_CONFIG_HOME/svc/credentials.json`, else `~/.config/svc/credentials.json`. */
const credentialsFile = Effect.gen(function* () {
  const path = yield* Path.Path
  const xdg = yield* Config.option(Config.String("XDG_CONFIG_HOME"))
  const base = Option.getOrElse(
    Option.filter(xdg, (dir) => dir !== ""),
    () => path.join(homedir(), ".config")
  )
  const dir = path.join(base, "svc")
  return { dir, file: path.join(dir, "credentials.json") }
})

/** Writes the credentials, readable by the user alone: the folder 0700, the file 0600 (also when it existed). */
export const store = (credentials: Credentials) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const { dir, file } = yield* credentialsFile
    yield* fs.makeDirectory(dir, { recursive: true, mode: 0o700 })
    yield* fs.chmod(dir, 0o700)
    yield* fs.writeFileString(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 })
    yield* fs.chmod(file, 0o600)
    return file
  })

/** Removes the stored credentials; answers whether there were any. */
export const forget = Effect.gen(function* () {
  const fs = yield* FileSystem.FileSystem
  const { file } = yield* credentialsFile
  if (!(yield* fs.exists(file))) return false
  yield* fs.remove(file)
  return true
})

/** The stored credentials, if any. */
export const storedCredentials = Effect.gen(function* () {
  const fs = yield* FileSystem.FileSystem
  const { file } = yield* credentialsFile
  if (!(yield* fs.exists(file))) return Option.none<Credentials>()
  return decodeStored(yield* fs.readFileString(file))
})

/** The server's default URL on this machine: `http://localhost:$PORT`, with `PORT` read as the server reads it. */
const localDefault = Config.Port("PORT").pipe(
  Config.withDefault(DEFAULT_PORT),
  Effect.map(localServiceUrl),
  Effect.mapError(() => usage("PORT: expected a port number (1 to 65535), as the server reads it"))
)

/**
 * The service's URL (see `baseUrlHelp`): `explicit` (a `--base-url`), else `SVC_BASE_URL`, else the stored login's,
 * else the server's default on this machine. The one place the CLI decides where the service is.
 */
export const resolveBaseUrl = (
  explicit: Option.Option<string>,
  file: Option.Option<Credentials>
): Effect.Effect<string, CliExit> =>
  Effect.gen(function* () {
    const nonEmpty = Option.filter((u: string) => u.trim() !== "")
    const envBaseUrl = nonEmpty(yield* Config.option(Config.String("SVC_BASE_URL")).pipe(Effect.orDie))
    const named = Option.orElse(nonEmpty(explicit), () =>
      Option.orElse(envBaseUrl, () => Option.map(file, (c) => c.baseUrl))
    )
    const url = Option.isSome(named) ? named.value.trim() : yield* localDefault
    if (!URL.canParse(url)) return yield* usage(`the service's URL "${url}" is not a URL, e.g. ${localServiceUrl()}`)
    return url.replace(/\/+$/u, "")
  })

/**
 * The credentials to call with: `SVC_TOKEN` from the environment winning over the stored file's, and the service's
 * URL by `resolveBaseUrl`. Fails with exit code 7 when there is no token at all.
 */
export const currentCredentials = Effect.gen(function* () {
  const envToken = yield* Config.option(Config.String("SVC_TOKEN"))
  const file = yield* storedCredentials
  const token = Option.orElse(
    Option.filter(envToken, (t) => t !== ""),
    () => Option.map(file, (c) => c.token)
  )
  if (Option.isNone(token)) {
    return yield* failure(ExitCode.notLoggedIn, "not logged in", [], ["log in: svc login, or set SVC_TOKEN"])
  }
  const baseUrl = yield* resolveBaseUrl(Option.none(), file)
  return { baseUrl, token: token.value } satisfies Credentials
})
