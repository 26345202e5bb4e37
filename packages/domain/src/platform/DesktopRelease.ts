import { Option, Schema } from "effect"
import { HttpUrl } from "../shared/model.ts"

/** The operating systems a desktop build is made for, as a Tauri-style updater names them. */
export const DesktopTarget = Schema.Literals(["darwin", "linux", "windows"]).annotate({
  message: "expected darwin, linux or windows"
})
export type DesktopTarget = typeof DesktopTarget.Type

/** The processor architectures a desktop build is made for. */
export const DesktopArch = Schema.Literals(["x86_64", "aarch64", "i686", "armv7"]).annotate({
  message: "expected x86_64, aarch64, i686 or armv7"
})
export type DesktopArch = typeof DesktopArch.Type

const semverPattern =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*)?$/u

/** A semantic version (`1.4.0`, `2.0.0-beta.1`), at most 64 characters. */
export const SemVer = Schema.String.check(
  Schema.isMaxLength(64),
  Schema.isPattern(semverPattern, { message: "expected a semantic version such as 1.4.0" })
)

/** One platform's build: where to download it and its updater signature. */
export const DesktopBuild = Schema.Struct({ url: HttpUrl, signature: Schema.String.check(Schema.isNonEmpty()) })
export type DesktopBuild = typeof DesktopBuild.Type

/** The latest desktop release: its version, notes, publication time and a build per `<target>-<arch>`. */
export const DesktopRelease = Schema.Struct({
  version: SemVer,
  notes: Schema.String,
  pub_date: Schema.String.check(
    Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/u, {
      message: "expected an RFC 3339 date-time"
    })
  ),
  platforms: Schema.Record(
    Schema.String.check(
      Schema.isPattern(/^(?:darwin|linux|windows)-(?:x86_64|aarch64|i686|armv7)$/u, {
        message: "expected <target>-<arch>, e.g. darwin-aarch64"
      })
    ),
    DesktopBuild
  )
})
export type DesktopRelease = typeof DesktopRelease.Type

/** The update a client is offered: the release with its own platform's build. */
export interface DesktopUpdate {
  readonly version: string
  readonly notes: string
  readonly pub_date: string
  readonly url: string
  readonly signature: string
}

type Parsed = { readonly core: ReadonlyArray<number>; readonly pre: ReadonlyArray<string> }

const parse = (version: string): Parsed => {
  const [main = "", pre] = (version.split("+")[0] ?? "").split(/-(.*)/su)
  return { core: main.split(".").map(Number), pre: pre === undefined || pre === "" ? [] : pre.split(".") }
}

const compareIdentifiers = (a: string, b: string): number => {
  const numeric = /^\d+$/u
  if (numeric.test(a) && numeric.test(b)) return Math.sign(Number(a) - Number(b))
  if (numeric.test(a)) return -1
  if (numeric.test(b)) return 1
  return a < b ? -1 : a > b ? 1 : 0
}

/** Semantic version precedence (build metadata ignored): negative when `a` precedes `b`, 0 when equal, else positive. */
export const compareSemVer = (a: string, b: string): number => {
  const x = parse(a)
  const y = parse(b)
  for (let i = 0; i < 3; i++) {
    const difference = Math.sign((x.core[i] ?? 0) - (y.core[i] ?? 0))
    if (difference !== 0) return difference
  }
  if (x.pre.length === 0 || y.pre.length === 0) return Math.sign(y.pre.length - x.pre.length)
  for (let i = 0; i < Math.min(x.pre.length, y.pre.length); i++) {
    const difference = compareIdentifiers(x.pre[i] ?? "", y.pre[i] ?? "")
    if (difference !== 0) return difference
  }
  return Math.sign(x.pre.length - y.pre.length)
}

/** The release's build for one platform, if it has one. */
export const desktopBuild = (
  release: DesktopRelease,
  target: DesktopTarget,
  arch: DesktopArch
): Option.Option<DesktopBuild> => Option.fromNullishOr(release.platforms[`${target}-${arch}`])

/** The update for a client on `currentVersion`: none when it is current (or ahead) or its platform has no build. */
export const desktopUpdate = (
  release: DesktopRelease,
  target: DesktopTarget,
  arch: DesktopArch,
  currentVersion: string
): Option.Option<DesktopUpdate> =>
  compareSemVer(release.version, currentVersion) <= 0
    ? Option.none()
    : Option.map(desktopBuild(release, target, arch), (build) => ({
        version: release.version,
        notes: release.notes,
        pub_date: release.pub_date,
        url: build.url,
        signature: build.signature
      }))
