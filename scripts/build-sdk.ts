import { execFileSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/**
 * Builds the SDK for projects outside the workspace (ADR 0025): compiles the SDK, the HTTP contract and the domain to
 * JavaScript with declarations, then lays out `packages/sdk/dist/package`, an installable `@svc/sdk` whose `exports`
 * point at the JavaScript and which carries the contract and the domain as bundled dependencies. With `--pack` it
 * also runs `npm pack` there and prints the tarball's path.
 */

const root = fileURLToPath(new URL("../", import.meta.url))
const packages = `${root}packages/`
const out = `${packages}sdk/dist/`
const compiled = `${out}compiled/`
const staged = `${out}package/`

interface Manifest {
  readonly name: string
  readonly version: string
  readonly description?: string
  readonly exports: Record<string, string>
  readonly dependencies: Record<string, string>
}

const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(`${packages}${dir}/package.json`, "utf8"))

/** The package's exports that were compiled, each as `types` and `default` conditions on the emitted files. */
const builtExports = (dir: string) =>
  Object.fromEntries(
    Object.entries(manifestOf(dir).exports)
      .map(([subpath, source]) => [subpath, source.replace(/^\.\/src\//u, "./dist/").replace(/\.ts$/u, "")] as const)
      .filter(([, target]) => existsSync(`${compiled}${dir}/src/${target.slice("./dist/".length)}.js`))
      .map(([subpath, target]) => [subpath, { types: `${target}.d.ts`, default: `${target}.js` }])
  )

/** Writes the package `dir` at `target` with its compiled files and a manifest pointing at them. */
const stage = (dir: string, target: string, extra: Record<string, unknown> = {}) => {
  const manifest = manifestOf(dir)
  cpSync(`${compiled}${dir}/src`, `${target}dist`, { recursive: true })
  const dependencies = {
    ...Object.fromEntries(
      Object.entries(manifest.dependencies).filter(([name]) => name === "effect" || name.startsWith("@svc/"))
    ),
    ...Object.fromEntries(
      ((extra.bundleDependencies ?? []) as ReadonlyArray<string>).map((name) => [name, manifest.version])
    )
  }
  writeFileSync(
    `${target}package.json`,
    `${JSON.stringify(
      {
        name: manifest.name,
        version: manifest.version,
        ...(manifest.description === undefined ? {} : { description: manifest.description }),
        license: "MIT",
        type: "module",
        sideEffects: false,
        exports: builtExports(dir),
        dependencies,
        ...extra
      },
      null,
      2
    )}\n`
  )
}

rmSync(out, { recursive: true, force: true })
execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", `${packages}sdk/tsconfig.build.json`], {
  stdio: "inherit"
})
mkdirSync(staged, { recursive: true })
const bundled = ["@svc/adapters-http", "@svc/domain"]
stage("sdk", staged, { files: ["dist"], bundleDependencies: bundled })
stage("adapters-http", `${staged}node_modules/@svc/adapters-http/`)
stage("domain", `${staged}node_modules/@svc/domain/`)
cpSync(`${packages}sdk/README.md`, `${staged}README.md`)

if (process.argv.includes("--pack")) {
  const answer = execFileSync("npm", ["pack", "--json", "--pack-destination", out], { cwd: staged, encoding: "utf8" })
  const [packed] = JSON.parse(answer) as readonly [{ readonly filename: string }]
  console.log(`${out}${packed.filename}`)
}
