import { readFileSync, writeFileSync } from "node:fs"
import { createConfig, lintFromString } from "@redocly/openapi-core"
import { Api, referenceProblems, undescribedProperties } from "@svc/adapters-http/api"
import { OpenApi } from "effect/http-api"

const REFERENCE = new URL("../docs/openapi.json", import.meta.url)
const document = OpenApi.fromApi(Api)
const served = `${JSON.stringify(document, null, 2)}\n`

if (process.argv.includes("--write")) {
  writeFileSync(REFERENCE, served)
  console.log("docs/openapi.json written")
} else {
  const problems = await lintFromString({
    source: served,
    absoluteRef: "openapi.json",
    config: await createConfig({ extends: ["recommended"] })
  })
  for (const problem of problems) {
    const where = problem.location.map((location) => location.pointer).join(", ")
    console.log(`${problem.severity} ${problem.ruleId}: ${problem.message} (${where})`)
  }
  const errors = problems.filter((problem) => problem.severity === "error").length
  console.log(`OpenAPI document: ${errors} errors, ${problems.length - errors} warnings (Redocly recommended)`)
  const presentation = referenceProblems(document as unknown as Record<string, unknown>)
  for (const problem of presentation) console.log(`error reference-catalog: ${problem}`)
  console.log(`Reference page: ${presentation.length} problems (summaries, tag descriptions, tag groups)`)
  const undescribed = undescribedProperties(document as unknown as Record<string, unknown>)
  for (const property of undescribed) console.log(`error property-description: ${property} has no description`)
  console.log(`/v1 properties: ${undescribed.length} without a description (parameters, request bodies, 2xx answers)`)
  const current = readFileSync(REFERENCE, "utf8") === served
  if (!current)
    console.log("docs/openapi.json differs from the served document: review the change, then `npm run openapi`")
  process.exitCode = errors === 0 && presentation.length === 0 && undescribed.length === 0 && current ? 0 : 1
}
