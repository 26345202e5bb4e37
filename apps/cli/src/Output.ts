import { Console, Effect } from "effect"
import { Flag, GlobalFlag } from "effect/cli"

/** `--json`: print the API's JSON on stdout and nothing else there (progress and errors stay on stderr). */
export const JsonOutput = GlobalFlag.Setting("json")({
  flag: Flag.Boolean("json").pipe(
    Flag.withDescription("Print the API's JSON answer on stdout (nothing else goes to stdout)"),
    Flag.withDefault(false)
  )
})

/** Lines of cells as aligned columns, two spaces apart. */
export const columns = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const count = Math.max(0, ...rows.map((row) => row.length))
  const widths = Array.from({ length: count }, (_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)))
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join("  ")
        .trimEnd()
    )
    .join("\n")
}

/** Labelled fields, one a line, values aligned; fields without a value are left out. */
export const fields = (entries: ReadonlyArray<readonly [string, string | null | undefined]>): string =>
  columns(entries.flatMap(([label, value]) => (value === null || value === undefined ? [] : [[label, value]])))

/** Prints the answer: its JSON under `--json`, else the human rendering. */
export const show = <A>(value: A, human: (value: A) => string) =>
  Effect.gen(function* () {
    const json = yield* JsonOutput
    yield* Console.log(json ? JSON.stringify(value, null, 2) : human(value))
  })
