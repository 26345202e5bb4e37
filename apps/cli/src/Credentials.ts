import { homedir } from "node:os"
import { Config, Effect, FileSystem, Option, Path, Schema } from "effect"
import { CliExit, ExitCode } from "./Failure.ts"

/** Where the service is and the bearer credential (a spending key, team API key or session token) to call it with. */
export interface Credentials {
  readonly baseUrl: string
  readonly token: string
}

/** The service a login without `--base-url` talks to. */
export const defaultBaseUrl = "http://localhost:3000"

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

const stored = Effect.gen(function* () {
  const fs = yield* FileSystem.FileSystem
  const { file } = yield* credentialsFile
  if (!(yield* fs.exists(file))) return Option.none<Credentials>()
  return decodeStored(yield* fs.readFileString(file))
})

/**
 * The credentials to call with: `SVC_TOKEN` and `SVC_BASE_URL` from the environment, each winning over the stored
 * file's. Fails with exit code 7 when there is no token at all.
 */
export const currentCredentials = Effect.gen(function* () {
  const envToken = yield* Config.option(Config.String("SVC_TOKEN"))
  const envBaseUrl = yield* Config.option(Config.String("SVC_BASE_URL"))
  const file = yield* stored
  const token = Option.orElse(
    Option.filter(envToken, (t) => t !== ""),
    () => Option.map(file, (c) => c.token)
  )
  if (Option.isNone(token)) {
    return yield* new CliExit({
      exitCode: ExitCode.notLoggedIn,
      message: "error: not logged in: run `svc login` or set SVC_TOKEN"
    })
  }
  const baseUrl = Option.getOrElse(
    Option.orElse(
      Option.filter(envBaseUrl, (u) => u !== ""),
      () => Option.map(file, (c) => c.baseUrl)
    ),
    () => defaultBaseUrl
  )
  return { baseUrl, token: token.value } satisfies Credentials
})
