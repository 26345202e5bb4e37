import { type ChildProcess, spawn } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { Effect } from "effect"

const ARCHES: Readonly<Record<string, string>> = { x64: "amd64", arm64: "arm64" }

/** The anvil binary shipped in the platform package of `@foundry-rs/anvil` (its postinstall only downloads a fallback). */
const anvilBinary = (): string => {
  const require = createRequire(import.meta.url)
  const wrapper = require.resolve("@foundry-rs/anvil/package.json")
  const platform = `@foundry-rs/anvil-${process.platform}-${ARCHES[process.arch] ?? process.arch}`
  const manifest = createRequire(wrapper).resolve(`${platform}/package.json`)
  return join(dirname(manifest), "bin", process.platform === "win32" ? "anvil.exe" : "anvil")
}

/** Stops anvil: SIGTERM, then SIGKILL if it is still running two seconds later. */
const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(() => child.kill("SIGKILL"), 2_000)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill("SIGTERM")
  })

const launch = (args: ReadonlyArray<string>) =>
  new Promise<{ readonly child: ChildProcess; readonly url: string }>((resolve, reject) => {
    const child = spawn(anvilBinary(), ["--host", "127.0.0.1", "--port", "0", ...args], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    const killOnExit = () => child.kill("SIGKILL")
    process.once("exit", killOnExit)
    child.once("exit", () => process.off("exit", killOnExit))
    let output = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`anvil did not start within 10 s:\n${output.slice(-2000)}`))
    }, 10_000)
    child.once("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const listening = /Listening on (127\.0\.0\.1:\d+)/u.exec(output)
      if (listening !== null) {
        clearTimeout(timer)
        // Keep draining what anvil prints, so a full pipe never stalls it.
        child.stdout?.removeAllListeners("data")
        child.stdout?.resume()
        resolve({ child, url: `http://${listening[1]}` })
      }
    })
  })

/**
 * A local anvil chain on a free port for the scope, stopped when the scope closes. Its ten default accounts are funded
 * with ETH (`ANVIL_KEYS`); it mines each transaction as it arrives unless automine is turned off.
 */
export const anvil = (args: ReadonlyArray<string> = []) =>
  Effect.acquireRelease(
    Effect.promise(() => launch(args)),
    ({ child }) => Effect.promise(() => stop(child))
  ).pipe(Effect.map(({ url }) => url))

/** The private keys of anvil's first default accounts (its well-known test mnemonic), each funded with 10000 ETH. */
export const ANVIL_KEYS = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
] as const
